/**
 * vue-i18n with the Czech and English messages; Czech plurals have three forms (1, 2–4, 5+). Each language's
 * messages are a chunk of their own, read when the language is first shown: the opening parses only the one it
 * shows (the two together were ~400 KB of JSON in the task that evaluates the app's modules).
 */
import { createI18n } from 'vue-i18n';
import type { Language } from '../../../src-shared/app-api';
import { formatCount } from '../format/count';
import type { Messages } from './en';

/**
 * Chooses among "one | few | many" (or "zero | one | few | many") forms by Czech rules: 1, 2–4, other.
 * Decimals take the "many" form here, as in "1,5 litru" — close enough for counts of records.
 */
export function czechPlural(choice: number, choicesLength: number): number {
  const n = Math.abs(choice);
  const offset = choicesLength === 4 ? 1 : 0;
  if (choicesLength === 4 && n === 0) return 0;
  if (n === 1) return offset;
  if (Number.isInteger(n) && n >= 2 && n <= 4) return offset + 1;
  return offset + 2;
}

export const i18n = createI18n<[Messages], Language, false>({
  legacy: false,
  locale: 'en',
  // No fallback: both languages have every message (cs.ts is typed by en.ts), and only the one shown is loaded.
  fallbackLocale: false,
  messages: {} as Record<Language, Messages>,
  pluralRules: { cs: czechPlural },
  missingWarn: false,
  fallbackWarn: false,
});

const MESSAGES: Record<Language, () => Promise<{ default: Messages }>> = {
  en: () => import('./en'),
  cs: () => import('./cs'),
};
/** Each language's read, once (forgotten when it failed, so that the next call tries again). */
const reads = new Map<Language, Promise<void>>();

/** Whether a language's messages are in (vue-i18n lists the languages it has messages of). */
const isLoaded = (language: Language) => i18n.global.availableLocales.includes(language);

/** Reads a language's messages once (a failed read is tried again on the next call). */
export function loadMessages(language: Language): Promise<void> {
  let read = reads.get(language);
  if (!read) {
    read = MESSAGES[language]().then(
      (module) => i18n.global.setLocaleMessage(language, module.default),
      (error: unknown) => {
        reads.delete(language);
        throw error;
      },
    );
    reads.set(language, read);
  }
  return read;
}

/** The language last asked for: a slower read of an earlier one does not override it. */
let wanted: Language | null = null;

/**
 * Shows a language: at once when its messages are in (no second render of what is mounted), else once they are
 * (the screens keep the language they had meanwhile, never a message's key).
 */
export function showLanguage(language: Language): Promise<void> {
  wanted = language;
  if (isLoaded(language)) {
    i18n.global.locale.value = language;
    return Promise.resolve();
  }
  return loadMessages(language).then(() => {
    if (wanted === language) i18n.global.locale.value = language;
  });
}

/**
 * Named values that are numbers but not counts: names of things (a car's number, an HTTP status, a code),
 * written as they are ("car 12345", not "car 12,345").
 */
const NOT_COUNTS = new Set(['id', 'code', 'status', 'year']);

/** A message's named values with every whole-number count in the language's grouping ("818,432", "818 432"). */
export function groupedNamed(named: Record<string, unknown>, locale: 'en' | 'cs'): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(named)) {
    out[k] = typeof v === 'number' && Number.isInteger(v) && !NOT_COUNTS.has(k) ? formatCount(v, locale) : v;
  }
  return out;
}

/**
 * Every count a message shows goes through the language's number format, in one place: `t(key, n)` (a plural by
 * its count, which vue-i18n would write as bare digits) and `t(key, { n, ... })` get their numbers grouped. The
 * plural form is still chosen by the number itself.
 */
function groupCounts(): void {
  const composer = i18n.global;
  const plain = composer.t.bind(composer) as (...args: unknown[]) => string;
  const locale = () => composer.locale.value;
  const isNamed = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  const grouped = (key: unknown, ...rest: unknown[]): string => {
    const [second, ...more] = rest;
    if (typeof second === 'number') {
      const n = formatCount(second, locale());
      return plain(key, { n, count: n }, second, ...more);
    }
    if (isNamed(second)) return plain(key, groupedNamed(second, locale()), ...more);
    return plain(key, ...rest);
  };
  composer.t = grouped;
}
groupCounts();
