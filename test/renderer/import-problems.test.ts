/** Problems of imported rows, found by the core as codes, shown in the user's language. */
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { codeText, type Translate } from '../../src-renderer/src/composables/errors';
import { i18n } from '../../src-renderer/src/i18n';
import { importProblemText } from '../../src-renderer/src/logic/import-problems';
import { AppError, type ImportProblem } from '../../src-shared/app-api';
import { readBothLanguages } from '../support/messages';
import { PROBLEMS, UNMAPPED_PROBLEMS } from './import-problem-samples';

beforeAll(readBothLanguages);

const t = i18n.global.t as Translate;
afterEach(() => {
  i18n.global.locale.value = 'cs';
});

describe('import problems', () => {
  it('are shown in Czech, place and sentence alike', () => {
    i18n.global.locale.value = 'cs';
    const shown = [...PROBLEMS.flat(), ...UNMAPPED_PROBLEMS].map((p) => importProblemText(p, t));
    expect(shown).toEqual([
      'Sloupec „date“: "yesterday" není datum jako 21.11.2026 14:05 nebo 2026-11-21 14:05.',
      'Sloupec „date“: "2026-02-30 10:00" není skutečné datum a čas.',
      'Sloupec „odometer“: "12.5" není celé číslo.',
      'Sloupec „liters“: "x" není číslo.',
      'Sloupec „currency“: "ABC" není měna, kterou aplikace zná (použijte kód jako CZK, EUR nebo 203).',
      'Sloupec „partial“: "maybe" není ano ani ne.',
      'Sloupec „odometer“: hodnota chybí.',
      'Sloupec „odometer“: Zadejte 0 nebo více.',
      'Sloupec „liters“: Nejvýše 3 desetinná místa.',
      'Sloupec „rate“: Nejvýše 6 desetinných míst.',
      'Sloupec „price“: Nejvýše 2 desetinná místa.',
      'Není vybrán sloupec pro: Datum.',
      'Není vybrán sloupec pro: Litry.',
      'Není vybrán sloupec pro: Celková cena.',
    ]);
  });

  it('name a field with no column in the user language, and a column by its number without a name', () => {
    i18n.global.locale.value = 'cs';
    const missing: ImportProblem = {
      code: 'importMissing',
      params: { field: 'dateOfPurchase', words: 'date' },
      field: 'dateOfPurchase',
      column: null,
    };
    expect(importProblemText(missing, t)).toBe('Datum: hodnota chybí.');
    const unnamed: ImportProblem = { code: 'importNotNumber', params: { value: '"x"' }, field: 'liter', column: { index: 2, name: null } };
    expect(importProblemText(unnamed, t)).toBe('Sloupec 3: "x" není číslo.');
    expect(codeText(new AppError('nothingToImport', { rows: 4, problems: 1, duplicates: 3 }, 'content'), t)).toBe(
      'Není co importovat (řádků: 4, s problémy: 1, už zde: 3).',
    );
    i18n.global.locale.value = 'en';
    expect(importProblemText({ ...unnamed, column: { index: 2, name: 'Km' } }, t)).toBe('Column “Km”: "x" is not a number.');
  });
});
