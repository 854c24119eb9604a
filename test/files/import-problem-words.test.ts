/** The refueling import finds its problems as codes with their columns, worded in English for the command line. */
import { describe, expect, it } from 'vitest';
import { importProblemText } from '../../src-shared/app-api';
import { PROBLEM_CSV, PROBLEM_WORDS, PROBLEMS, UNMAPPED_CSV, UNMAPPED_PROBLEMS, UNMAPPED_WORDS } from '../renderer/import-problem-samples';
import { openCore, tempDir } from '../support/client';

describe('import problems', () => {
  it('are found as the samples the screens word, each on its row, which becomes no refueling', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'));
    try {
      await core.saveCar({ carId: 1, name: 'Octavia' });
      // Every row by its line: the problems exactly (the column named in each), no refueling made of it.
      const preview = await core.previewRefuelingImport({ carId: 1, content: PROBLEM_CSV, currency: 203 });
      expect({ rows: preview.rows, counts: preview.counts }).toEqual({
        rows: PROBLEMS.map((problems, i) => ({ line: i + 2, refueling: null, problems, duplicateOf: null })),
        counts: { rows: 6, ready: 0, problems: 6, duplicates: 0 },
      });
      expect(preview.rows.map((r) => r.problems.map(importProblemText))).toEqual(PROBLEM_WORDS);
      const unmapped = await core.previewRefuelingImport({ carId: 1, content: UNMAPPED_CSV, currency: 203 });
      expect({ mapping: unmapped.mapping, rows: unmapped.rows, counts: unmapped.counts }).toEqual({
        mapping: { tachometer: 1 },
        rows: [{ line: 2, refueling: null, problems: UNMAPPED_PROBLEMS, duplicateOf: null }],
        counts: { rows: 1, ready: 0, problems: 1, duplicates: 0 },
      });
      expect(unmapped.rows[0]!.problems.map(importProblemText)).toEqual(UNMAPPED_WORDS);
    } finally {
      await core.close();
      tmp.remove();
    }
  });
});
