/** vue-i18n with the Czech and English messages; Czech plurals have three forms (1, 2–4, 5+). */
import { createI18n } from 'vue-i18n';
import cs from './cs';
import en, { type Messages } from './en';

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

export const i18n = createI18n<[Messages], 'en' | 'cs', false>({
  legacy: false,
  locale: 'en',
  fallbackLocale: 'en',
  messages: { en, cs },
  pluralRules: { cs: czechPlural },
  missingWarn: false,
  fallbackWarn: false,
});
