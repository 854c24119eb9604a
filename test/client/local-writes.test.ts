/**
 * Queuing keeps the local view current without rebuilding it: the queued write is laid over the cached
 * view. The marks a write carries, set in the queue's own transaction, keep it so; a transaction around the queue
 * would leave it stale and have the next read rebuild it from the whole outbox (what made 1,000 queued
 * writes cost O(n²)).
 */
import { describe, expect, it, vi } from 'vitest';
import type { RefuelingInput } from '../../src-shared/app-api';
import { REFUELING } from '../../src-shared/records/refueling';
import { localWrites, tempDir } from '../support/client';

const fill = {
  carId: 1,
  dateOfPurchase: '2026-01-01T10:00:00',
  tachometer: 5,
  liter: '1',
  price: '1',
  currency: 203,
  rate: '1',
  description: '',
};

describe('queuing writes', () => {
  it('extends the cached view, the marks a write carries included; a transaction around the queue makes the next read rebuild it', () => {
    const tmp = tempDir();
    const { store, view, writes } = localWrites(tmp.file('local.sqlite'));
    try {
      const build = vi.spyOn(view as unknown as { build: () => unknown }, 'build');
      expect(view.refuelings(1)).toEqual([]);
      expect(build).toHaveBeenCalledTimes(1);
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) {
        // A refueling as the screens give it: the fields sent and the marks kept here.
        const refueling: RefuelingInput = { ...fill, tachometer: 5 + i, partial: i === 1 };
        ids.push(writes.queue('addRefueling', refueling).id);
      }
      expect(view.refuelings(1)).toHaveLength(3);
      expect(build).toHaveBeenCalledTimes(1);
      const marks = store.locals(REFUELING);
      expect(ids.map((id) => marks.get(id)?.partial)).toEqual([false, true, false]);

      store.transaction(() => writes.queue('addRefueling', { ...fill, tachometer: 9 }));
      expect(view.refuelings(1)).toHaveLength(4);
      expect(build).toHaveBeenCalledTimes(2);
    } finally {
      store.close();
      tmp.remove();
    }
  });
});
