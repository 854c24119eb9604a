/** The refueling import words its problems exactly as the screens expect to read them (see the samples). */
import { describe, expect, it } from 'vitest';
import { openCore, tempDir } from '../support/client';
import { PROBLEM_CSV, PROBLEM_WORDS, UNMAPPED_CSV, UNMAPPED_WORDS } from '../renderer/import-problem-samples';

describe('import problems', () => {
  it('are worded as the samples the screens translate, each on its row, which becomes no refueling', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'));
    try {
      await core.saveCar({ carId: 1, name: 'Octavia' });
      // Every row by its line: the problems exactly (the column named in each), no refueling made of it.
      const preview = await core.previewRefuelingImport({ carId: 1, content: PROBLEM_CSV, currency: 203 });
      expect({ rows: preview.rows, counts: preview.counts }).toEqual({
        rows: PROBLEM_WORDS.map((problems, i) => ({ line: i + 2, refueling: null, problems, duplicateOf: null })),
        counts: { rows: 6, ready: 0, problems: 6, duplicates: 0 },
      });
      const unmapped = await core.previewRefuelingImport({ carId: 1, content: UNMAPPED_CSV, currency: 203 });
      expect({ mapping: unmapped.mapping, rows: unmapped.rows, counts: unmapped.counts }).toEqual({
        mapping: { tachometer: 1 },
        rows: [{ line: 2, refueling: null, problems: UNMAPPED_WORDS, duplicateOf: null }],
        counts: { rows: 1, ready: 0, problems: 1, duplicates: 0 },
      });
    } finally {
      await core.close();
      tmp.remove();
    }
  });
});
