/**
 * The build compiles the messages (scripts/precompiled-messages.ts): every message of both languages, with
 * its placeholders filled and, where it has plural forms, at the counts that choose each Czech and English form,
 * reads the same from the compiled messages as from the strings vue-i18n compiles itself; and nothing of the
 * compiled messages is left for vue-i18n to compile (its compiler fails the test if asked).
 */
import { compile } from '@intlify/core-base';
import { describe, expect, it } from 'vitest';
import { createI18n } from 'vue-i18n';
import { compiledMessages } from '../../scripts/precompiled-messages';
import { czechPlural } from '../../src-renderer/src/i18n';
import cs from '../../src-renderer/src/i18n/cs';
import en from '../../src-renderer/src/i18n/en';

interface Tree {
  [key: string]: Tree | string;
}

function keysOf(tree: Tree, path: string[] = []): [string, string][] {
  return Object.entries(tree).flatMap(([k, v]) => (typeof v === 'string' ? [[[...path, k].join('.'), v]] : keysOf(v, [...path, k])));
}

const options = { legacy: false, fallbackLocale: 'en', pluralRules: { cs: czechPlural }, missingWarn: false, fallbackWarn: false } as const;
/** A composer as the test reads it (vue-i18n's typed one is too deep for the compiler over 1,000 keys). */
interface Reader {
  t(key: string, named: Record<string, unknown>, plural?: number): string;
  locale: { value: string };
}
const fromStrings = createI18n({ ...options, locale: 'en', messages: { en, cs } }).global as unknown as Reader;
const fromBuild = createI18n({
  ...options,
  locale: 'en',
  messages: { en: compiledMessages(en, 'en'), cs: compiledMessages(cs, 'cs') } as never,
  // vue-i18n's own compiler, but failing when handed a string (a message the build left uncompiled).
  messageCompiler: (message, context) => {
    if (typeof message === 'string') throw new Error(`asked to compile "${message}"`);
    return compile(message, context);
  },
}).global as unknown as Reader;

/** The message's placeholders, each filled with a text naming it. */
const named = (message: string) => Object.fromEntries([...message.matchAll(/\{\s*(\w+)\s*\}/g)].map(([, name]) => [name, `‹${name}›`]));

describe('messages compiled by the build', () => {
  for (const [lang, tree] of [
    ['en', en],
    ['cs', cs],
  ] as const) {
    it(`${lang}: read as the strings read`, () => {
      fromStrings.locale.value = lang;
      fromBuild.locale.value = lang;
      const messages = keysOf(tree);
      expect(messages.length).toBeGreaterThan(1000);
      for (const [key, message] of messages) {
        const values = named(message);
        expect(fromBuild.t(key, values), key).toBe(fromStrings.t(key, values));
        if (!message.includes('|')) continue;
        for (const n of [0, 1, 2, 5, 21]) {
          expect(fromBuild.t(key, { ...values, n, count: n }, n), `${key} (${n})`).toBe(fromStrings.t(key, { ...values, n, count: n }, n));
        }
      }
    });
  }
});
