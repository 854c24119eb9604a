/** The refueling import words its problems exactly as the screens expect to read them (see the samples). */
import { describe, expect, it } from 'vitest';
import { openCore, tempDir } from '../support/client';
import { PROBLEM_CSV, PROBLEM_WORDS, UNMAPPED_CSV, UNMAPPED_WORDS } from '../renderer/import-problem-samples';

describe('import problems', () => {
  it('are worded as the samples the screens translate', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'));
    try {
      await core.saveCar({ carId: 1, name: 'Octavia' });
      const preview = await core.previewRefuelingImport({ carId: 1, content: PROBLEM_CSV, currency: 203 });
      expect(preview.rows.map((r) => r.problems)).toEqual(PROBLEM_WORDS);
      const unmapped = await core.previewRefuelingImport({ carId: 1, content: UNMAPPED_CSV, currency: 203 });
      expect(unmapped.rows.map((r) => r.problems)).toEqual([UNMAPPED_WORDS]);
    } finally {
      await core.close();
      tmp.remove();
    }
  });
});
