/**
 * What a sync tells the screens it changed: the tables of the records it brought and of the writes it
 * settled, never every table. A sync that brought only refuelings leaves the accounts screen alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src-main/core/app/app-core';
import type { AppEvent, DataTable } from '../../src-shared/app-api';
import { connectDemo, openCore, tempDir } from '../support/client';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ demo: true });
});
afterAll(() => service.close());

/** A core of its own on the demo user's data, with car 1 in its list, synced once. */
async function window(): Promise<{ core: AppCore; changes: DataTable[][]; close(): Promise<void> }> {
  const tmp = tempDir();
  const core = openCore(tmp.file('local.sqlite'));
  await connectDemo(core, service.url);
  await core.saveCar({ carId: 1, name: 'Octavia' });
  expect((await core.sync()).error).toBeNull();
  const changes: DataTable[][] = [];
  core.onEvent((e: AppEvent) => {
    if (e.type === 'data-changed') changes.push(e.tables);
  });
  return {
    core,
    changes,
    close: async () => {
      await core.close();
      tmp.remove();
    },
  };
}

describe('a sync names the tables it changed', () => {
  it('one that sent a refueling and one that brought it: refuelings and cars, never the accounts', async () => {
    const [here, there] = [await window(), await window()];
    try {
      await here.core.addRefueling({
        carId: 1,
        dateOfPurchase: '2026-11-21T08:00',
        tachometer: 123_456,
        liter: '40',
        price: '1600',
        currency: 203,
        rate: '1',
        description: 'sync-changes',
      });
      here.changes.length = 0;
      const sent = await here.core.sync();
      expect(sent.pushed).toBe(1);
      // The write settled: its record (its id now the service's) and the outbox; the pull found the same refueling.
      expect(new Set(here.changes.at(-1))).toEqual(new Set(['refuelings', 'cars', 'outbox']));

      const brought = await there.core.sync();
      expect(brought.received).toMatchObject({ refuelings: 1, accounts: 0, transactions: 0 });
      expect(there.changes).toEqual([['refuelings', 'cars']]);

      // Nothing new: the status only.
      there.changes.length = 0;
      await there.core.sync();
      expect(there.changes).toEqual([[]]);
    } finally {
      await here.close();
      await there.close();
    }
  });

  it('one that brought a transfer: the transactions and the accounts (their balances)', async () => {
    const [here, there] = [await window(), await window()];
    try {
      const [from, to] = (await here.core.listAccounts({})).accounts.filter((a) => a.currency === 203 && a.writable);
      await here.core.transfer({
        sourceId: from!.id,
        targetId: to!.id,
        amount: '12.50',
        paymentDate: '2026-11-21T09:00',
        categoryId: 0,
        description: 'sync-changes',
      });
      await here.core.sync();
      there.changes.length = 0;
      await there.core.sync();
      expect(new Set(there.changes.at(-1))).toEqual(new Set(['transactions', 'accounts']));
    } finally {
      await here.close();
      await there.close();
    }
  });
});
