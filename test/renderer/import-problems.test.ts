/** Problems of imported rows, worded by the core in English, shown in the user's language. */
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '../../src-renderer/src/i18n';
import { AppError } from '../../src-shared/app-api';
import { fieldErrorText, type Translate } from '../../src-renderer/src/composables/errors';
import { importProblemText } from '../../src-renderer/src/logic/import-problems';
import { PROBLEM_WORDS, UNMAPPED_WORDS } from './import-problem-samples';

const t = i18n.global.t as Translate;
afterEach(() => {
  i18n.global.locale.value = 'cs';
});

describe('import problems', () => {
  it('are shown in Czech, place and sentence alike', () => {
    i18n.global.locale.value = 'cs';
    const shown = [...PROBLEM_WORDS.flat(), ...UNMAPPED_WORDS].map((p) => importProblemText(p, t));
    expect(shown).toEqual([
      'Sloupec „date“: "yesterday" není datum jako 21.11.2026 14:05 nebo 2026-11-21 14:05.',
      'Sloupec „date“: "2026-02-30 10:00" není skutečné datum a čas.',
      'Sloupec „odometer“: "12.5" není celé číslo.',
      'Sloupec „liters“: "x" není číslo.',
      'Sloupec „currency“: "ABC" není měna, kterou aplikace zná (použijte kód jako CZK, EUR nebo 203).',
      'Sloupec „partial“: "maybe" není ano ani ne.',
      'Sloupec „odometer“: hodnota chybí.',
      'Sloupec „odometer“: ' + t('form.atLeast', { min: 0 }),
      'Sloupec „price“: ' + t('form.tooManyDecimals', { n: 2 }, 2),
      'Sloupec „liters“: Nejvýše 3 desetinná místa.',
      'Sloupec „rate“: Nejvýše 6 desetinných míst.',
      'Není vybrán sloupec pro: Datum.',
      'Není vybrán sloupec pro: Litry.',
      'Není vybrán sloupec pro: Celková cena.',
    ]);
  });

  it('name a field with no column in the user language, and leave a sentence no rule knows as it is', () => {
    i18n.global.locale.value = 'cs';
    expect(importProblemText('The date: the date is missing.', t)).toBe('Datum: hodnota chybí.');
    expect(importProblemText('Column 3: "x" is not a number.', t)).toBe('Sloupec 3: "x" není číslo.');
    expect(importProblemText('Column "Km": something new happened.', t)).toBe('Sloupec „Km“: something new happened.');
    expect(fieldErrorText(new AppError('rule', 'Nothing to import: of 4 row(s), 1 have problems and 3 are already there.', 'content'), t)).toBe(
      'Není co importovat (řádků: 4, s problémy: 1, už zde: 3).',
    );
    i18n.global.locale.value = 'en';
    expect(importProblemText('Column "Km": "x" is not a number.', t)).toBe('Column “Km”: "x" is not a number.');
  });
});
