/**
 * Safety copies that exist when they are needed: one after a sync that changed something (none after one
 * that did not), one at most daily otherwise, a few of each reason kept; and the "must show": a copy
 * damaged a day after its last sync comes back with its whole history (ten years of transactions, car names,
 * partial marks) from an automatic safety copy, keeps its connection, and nothing in its outbox is sent twice,
 * where a fresh copy from the service would have brought back only the last 50 transactions per account.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src-main/core/app/app-core';
import { openRecoverableCore } from '../../src-main/core/app/recoverable-core';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { KEEP_SAFETY_COPIES, listSafetyCopies, Store } from '../../src-main/core/store';
import type { TransactionRow } from '../../src-main/core/store/rows';
import { newAccount, newUser, openCore, tempDir, TEST_SYNC_TUNING } from '../support/client';
import { startTestService, TEST_TIME_ZONE, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const DAY = 86_400_000;
const fuel = (tachometer: number, date: string) => ({
  carId: 7,
  dateOfPurchase: date,
  tachometer,
  liter: '35',
  price: '1400',
  currency: 203,
  rate: '1',
  description: `at ${tachometer}`,
});

/** The safety copies of a user's copy once those being written in the background are done. */
async function written(s: { core: AppCore; file: string }) {
  await s.core.safetyCopiesWritten();
  return listSafetyCopies(s.file);
}

/** A movable clock for the safety copies' dates. */
function clock(start = Date.UTC(2026, 10, 2, 18, 0)) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

describe('automatic safety copies', () => {
  it('after a sync that changed something, not after one that did not; daily at the first opening a day after the newest; a few of each kept', async () => {
    const time = clock();
    const s = await newUser(service, { store: { now: time.now } });
    try {
      await s.core.addAccount(newAccount('Main'));
      expect((await s.core.sync()).error).toBeNull();
      expect((await written(s)).map((c) => c.reason)).toEqual(['after-sync']);
      time.advance(60_000);
      expect((await s.core.sync()).received).toMatchObject({ accounts: 0, transactions: 0 });
      expect(await written(s)).toHaveLength(1);
      // Opened again within the day: nothing; a day later: a daily copy.
      await s.reopen({ store: { now: time.now } });
      expect(await written(s)).toHaveLength(1);
      time.advance(DAY + 1);
      await s.reopen({ store: { now: time.now } });
      expect((await written(s)).map((c) => c.reason)).toEqual(['daily', 'after-sync']);
      for (let i = 0; i < KEEP_SAFETY_COPIES['after-sync'] + 2; i++) {
        time.advance(60_000);
        await s.core.addCategory({ name: `C${i}`, parentId: 0 });
        expect((await s.core.sync()).error).toBeNull();
      }
      const copies = await written(s);
      expect(copies.filter((c) => c.reason === 'after-sync')).toHaveLength(KEEP_SAFETY_COPIES['after-sync']);
      expect(copies.filter((c) => c.reason === 'daily')).toHaveLength(1);
      // Dated by the clock, newest first.
      expect(copies[0]!.at).toBe(time.now().toISOString());
    } finally {
      await s.done();
    }
  });
});

/** Ten years of transactions on an account, as a decade of syncs would have left them (the service lists only the last 50). */
function decade(accountId: number, firstId: number): TransactionRow[] {
  const rows: TransactionRow[] = [];
  for (let i = 0; i < 10 * 120; i++) {
    const day = new Date(Date.UTC(2015, 0, 1) + i * 3 * DAY).toISOString().slice(0, 10);
    const id = firstId + i;
    rows.push({
      key: `id:${id}`,
      id,
      accountId,
      paymentDate: `${day}T12:00:00`,
      amount: i % 3 === 0 ? '2500' : '-120.5',
      type: 1,
      categoryId: 0,
      description: `old ${i}`,
      userId: 1,
      userCreatedId: 1,
    });
  }
  return rows;
}

function damage(file: string): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, 100);
  closeSync(fd);
}

describe('a copy damaged a day after its last sync', () => {
  it('comes back from the automatic safety copy with its whole history, car names, partial marks and connection; nothing is sent twice', async () => {
    const time = clock();
    const s = await newUser(service, { store: { now: time.now } });
    let shell: AppCore | null = null;
    const fresh = tempDir();
    try {
      await s.core.addAccount(newAccount('Main'));
      await s.core.addAccount(newAccount('Savings'));
      await s.core.saveCar({ carId: 7, name: 'Fabia' });
      const first = await s.core.addRefueling(fuel(1000, '2026-10-01T08:00'));
      expect((await s.core.sync()).error).toBeNull();
      const { accounts } = await s.core.listAccounts({});
      const main = accounts.find((a) => a.name === 'Main')!.id;
      const savings = accounts.find((a) => a.name === 'Savings')!.id;
      // A decade of history the service no longer lists, and a refueling marked partial (written beside the
      // core, as a test's instrument: no safety copy of its own).
      const store = new Store(s.file, { now: time.now, noSafetyCopies: true });
      store.transaction(() => {
        store.transactions.upsert(decade(main, 900_000_000));
        store.transactions.upsert(decade(savings, 910_000_000));
      });
      const [refueling] = store.refuelings.ofCar(7);
      store.refuelings.setPartial(refueling!.id, true);
      store.close();
      void first;
      // The last sync: it delivers a transfer, and leaves a safety copy behind.
      await s.core.transfer({
        sourceId: main,
        targetId: savings,
        amount: '10',
        paymentDate: '2026-11-02T09:00',
        categoryId: 0,
        description: 'last sync',
      });
      expect((await s.core.sync()).error).toBeNull();
      time.advance(60_000);
      expect((await written(s))[0]).toMatchObject({ reason: 'after-sync' });
      // That evening, offline: a transfer and a partial refueling wait in the outbox.
      await s.core.transfer({
        sourceId: main,
        targetId: savings,
        amount: '3.5',
        paymentDate: '2026-11-02T20:00',
        categoryId: 0,
        description: 'evening',
      });
      const evening = await s.core.addRefueling(fuel(1400, '2026-11-02T19:00'));
      const marks = new Store(s.file, { now: time.now, noSafetyCopies: true });
      marks.refuelings.setPartial(evening.id, true);
      marks.close();
      // The next day the app opens (a daily safety copy), and then the disk damages the copy.
      time.advance(DAY + 3_600_000);
      await s.reopen({ store: { now: time.now } });
      expect((await written(s))[0]).toMatchObject({ reason: 'daily', at: time.now().toISOString() });
      await s.core.close();
      damage(s.file);

      shell = openRecoverableCore({
        dataFile: s.file,
        secrets: s.secrets,
        timeZone: TEST_TIME_ZONE,
        sync: TEST_SYNC_TUNING,
        log: () => undefined,
      });
      const damaged = await shell.getStatus();
      expect(damaged.damaged?.safetyCopies.map((c) => c.reason)).toEqual(['daily', 'after-sync', 'after-sync']);
      const status = await shell.recoverLocalCopy({ from: 'safety-copy' });
      expect(status).toMatchObject({ damaged: null, configured: true, outbox: { unknown: 2 } });
      expect(status.connection).toMatchObject({ baseUrl: service.url, login: s.login });
      expect((await shell.sync()).error).toBeNull();
      expect(await shell.listOutbox()).toEqual([]);

      // Each write once on the service.
      const onMain = await s.truth.call('TransactionListLast50_2', { AccountId: main });
      expect(onMain.filter((t) => t.Description === 'evening')).toHaveLength(1);
      expect(onMain.filter((t) => t.Description === 'last sync')).toHaveLength(1);
      expect((await s.truth.call('CarFuelList', { CarId: 7 })).filter((r) => r.Tachometer === 1400)).toHaveLength(1);
      // The whole history, the car's name and both partial marks are back.
      await shell.close();
      shell = null;
      const back = new Store(s.file);
      expect(back.transactions.count(main)).toBeGreaterThanOrEqual(1200 + 2);
      expect(back.transactions.count(savings)).toBeGreaterThanOrEqual(1200 + 2);
      expect(back.cars.list().map((c) => c.name)).toEqual(['Fabia']);
      const partial = back.refuelings.partialIds();
      expect(
        back.refuelings
          .ofCar(7)
          .filter((r) => partial.has(r.id))
          .map((r) => r.tachometer)
          .sort(),
      ).toEqual([1000, 1400]);
      back.close();
      // What a new copy fetched from the service would have held instead: the last 50.
      const core = openCore(fresh.file('fresh.sqlite'), { secrets: new MemorySecretStore() });
      try {
        await core.connect({ baseUrl: service.url, ...s.credentials });
        expect((await core.sync()).error).toBeNull();
      } finally {
        await core.close();
      }
      const newCopy = new Store(fresh.file('fresh.sqlite'));
      expect(newCopy.transactions.count(main)).toBeLessThanOrEqual(50);
      expect(newCopy.cars.list()).toEqual([]);
      newCopy.close();
    } finally {
      await shell?.close();
      fresh.remove();
      await s.done().catch(() => undefined);
    }
  });
});
