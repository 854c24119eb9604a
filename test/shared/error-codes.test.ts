/**
 * Errors reach the screens as codes with parameters: every code has its text in Czech and English (the
 * catalogs are typed `satisfies Record<ErrorCode, string>`; this checks them at run time too, with each
 * placeholder filled), and no renderer module reads an error's message or matches the core's sentences.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as texts from '../../src-renderer/src/i18n/error-texts';
import { ERROR_CODES, ERRORS } from '../../src-shared/app-api';

const RENDERER = join(import.meta.dirname, '../../src-renderer/src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    return /\.(ts|vue)$/.test(name) ? [path] : [];
  });
}

describe('error codes', () => {
  it('have a text in English and Czech, and English words for the command line', () => {
    for (const code of ERROR_CODES) {
      expect(texts.en[code], code).toMatch(/\S/);
      expect(texts.cs[code], code).toMatch(/\S/);
      expect(typeof ERRORS[code].en, code).toBe('function');
    }
    expect(Object.keys(texts.en).sort()).toEqual([...ERROR_CODES].sort());
    expect(Object.keys(texts.cs).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('use in Czech only placeholders the English text has', () => {
    const placeholders = (s: string) => [...new Set(s.match(/\{\w+\}/g) ?? [])].sort();
    // Czech may leave out an English word given as a parameter (the transfer's role: source, target), never add one.
    for (const code of ERROR_CODES) for (const p of placeholders(texts.cs[code])) expect(placeholders(texts.en[code]), code).toContain(p);
  });

  it('are the only thing the renderer reads of an error: no message, no sentence matched', () => {
    const offenders: string[] = [];
    for (const file of sources(RENDERER)) {
      const text = readFileSync(file, 'utf8');
      // An error's (or a check's problem's) message: the core's English words.
      if (/\b(error|err|e|problem|refusal|failure)\??\.message\b/.test(text)) offenders.push(`${file}: reads a message`);
      // A regular expression over the core's sentences.
      const regexes = text.match(/(?<=[=(,:!&|?[]\s*)\/(?![*/])(?:\\.|[^/\n])+\/[gimsuy]*/g) ?? [];
      if (regexes.some((r) => /must be|must not|does not exist|already exists|is not a|decimal places|refused|answered/.test(r))) {
        offenders.push(`${file}: matches a sentence`);
      }
      if (/\b(translateSentence|errorMessage|RULES)\b/.test(text)) offenders.push(`${file}: uses the old sentence rules`);
    }
    expect(offenders).toEqual([]);
  });
});
