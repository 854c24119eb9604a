/** A car added by its number: its refuelings fetched at once, or marked as coming with the next sync until one goes through. */
import { createPinia, setActivePinia } from 'pinia';
import { beforeEach, describe, expect, it } from 'vitest';
import { nextTick } from 'vue';
import { useCarsStore } from '../../src-renderer/src/stores/cars';
import { useStatusStore } from '../../src-renderer/src/stores/status';
import type { CarFetch } from '../../src-shared/app-api';
import { standIn, status } from './stand-in';

let reachable = true;
beforeEach(() => {
  setActivePinia(createPinia());
  reachable = true;
  standIn({
    fetchCarRefuelings: async ({ carId }: { carId: number }): Promise<CarFetch> =>
      reachable
        ? { carId, refuelings: 23, problem: null }
        : { carId, refuelings: null, problem: { code: 'unreachable', params: { detail: 'refused' } } },
  });
});

describe('a car added by its number', () => {
  it('fetched: nothing awaits a sync; not fetched: it does, until a sync goes through or a fetch does', async () => {
    const statusStore = useStatusStore();
    statusStore.status = status({ lastSyncAt: '2026-11-27T10:00:00' });
    const cars = useCarsStore();
    expect(await cars.fetchRefuelings(1)).toMatchObject({ refuelings: 23, problem: null });
    expect(cars.awaitingSync.has(1)).toBe(false);

    reachable = false;
    expect((await cars.fetchRefuelings(2)).problem?.code).toBe('unreachable');
    expect((await cars.fetchRefuelings(3)).problem?.code).toBe('unreachable');
    expect([...cars.awaitingSync]).toEqual([2, 3]);
    reachable = true;
    await cars.fetchRefuelings(3);
    expect([...cars.awaitingSync]).toEqual([2]);

    // A status without a new sync leaves the note; a sync that went through brought them.
    statusStore.status = status({ lastSyncAt: '2026-11-27T10:00:00', offline: true });
    await nextTick();
    expect([...cars.awaitingSync]).toEqual([2]);
    statusStore.status = status({ lastSyncAt: '2026-11-27T10:05:00' });
    await nextTick();
    expect([...cars.awaitingSync]).toEqual([]);
  });
});
