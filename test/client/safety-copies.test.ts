/**
 * Safety copies: one before every schema migration and every restore, the newest five kept, beside the
 * local copy; a local copy damaged on disk opens to a clear message, and `recover` puts the newest
 * safety copy in its place, keeping the damaged file aside.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createAppCore } from '../../src-main/core/app/app-core';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { KEEP_SAFETY_COPIES, listSafetyCopies, MIGRATIONS, safetyCopyDir, Store } from '../../src-main/core/store';
import { expectCliFailure, runCliOn } from '../support/cli';
import { tempDir } from '../support/client';
import { damage, damagedLocalCopy } from '../support/damaged-copy';
import { fillLargeCopy } from '../support/large-copy';

const tmp = tempDir('bookkeeping-safety-');
afterAll(() => tmp.remove());

const newest = MIGRATIONS.reduce((max, m) => Math.max(max, m.version), 0);

describe('safety copies', () => {
  it('a migration keeps a copy of the data as it was first', () => {
    const file = tmp.file('migrated.sqlite');
    const older = new Store(file, { migrations: MIGRATIONS.filter((m) => m.version < newest) });
    older.settings.set('copyId', 'before the migration');
    older.close();
    expect(listSafetyCopies(file)).toEqual([]);
    new Store(file).close();
    const [copy] = listSafetyCopies(file);
    expect(copy).toMatchObject({ reason: `before-schema-${newest}` });
    const db = new Database(copy!.file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.filter((m) => m.version < newest).at(-1)!.version);
    expect(db.prepare("SELECT value FROM settings WHERE key = 'copyId'").pluck().get()).toBe(JSON.stringify('before the migration'));
    db.close();
    // Opening an up-to-date copy makes none.
    new Store(file).close();
    expect(listSafetyCopies(file)).toHaveLength(1);
  });

  it('every restore keeps a copy first; only the newest five stay', async () => {
    const file = tmp.file('restored.sqlite');
    const core = createAppCore({ dataFile: file, secrets: new MemorySecretStore() });
    try {
      const backup = await core.createBackup();
      for (let i = 0; i < KEEP_SAFETY_COPIES['before-restore'] + 2; i++) {
        await core.restoreBackup({ data: Buffer.from(backup.data, 'base64') });
      }
      const copies = listSafetyCopies(file);
      expect(copies).toHaveLength(KEEP_SAFETY_COPIES['before-restore']);
      expect(new Set(copies.map((c) => c.reason))).toEqual(new Set(['before-restore']));
      expect(copies.map((c) => c.at)).toEqual([...copies.map((c) => c.at)].sort().reverse());
    } finally {
      await core.close();
    }
  });

  it("a backup and its restore, the safety copy before it and a recovery carry a car's other costs and reminders", async () => {
    const file = tmp.file('car-costs.sqlite');
    const core = createAppCore({ dataFile: file, secrets: new MemorySecretStore() });
    const carCosts = (store: Store) => [store.carCosts.list(), store.reminders.list()];
    try {
      await core.saveCar({ carId: 3, name: 'Felicia' });
      const cost = await core.addCarCost({
        carId: 3,
        date: '2026-03-02',
        kind: 'service',
        odometer: 91_000,
        amount: '3450.50',
        currency: 203,
      });
      const reminder = await core.addReminder({ carId: 3, kind: 'inspection', dueDate: '2026-10-01', everyMonths: 24 });
      const backup = await core.createBackup();
      expect(backup.counts).toMatchObject({ carCosts: 1, reminders: 1, pendingWrites: 0 });
      // What the copy holds when it is replaced: one cost less, the reminder done once.
      await core.removeCarCost({ id: cost.id });
      await core.completeReminder({ id: reminder.id, date: '2026-09-20' });
      const restored = await core.restoreBackup({ data: Buffer.from(backup.data, 'base64') });
      expect(restored.counts).toMatchObject({ carCosts: 1, reminders: 1 });
      expect((await core.getCarWholeCost({ carId: 3 })).costs).toEqual([cost]);
      expect((await core.listReminders({ carId: 3 })).reminders).toMatchObject([
        { id: reminder.id, dueDate: '2026-10-01', lastDone: null },
      ]);

      const [before] = listSafetyCopies(file).filter((c) => c.reason === 'before-restore');
      const kept = new Store(before!.file, { noSafetyCopies: true });
      expect(carCosts(kept)).toEqual([[], [expect.objectContaining({ id: reminder.id, dueDate: '2028-09-20', lastDone: '2026-09-20' })]]);
      kept.close();
    } finally {
      await core.close();
    }

    // A copy at the newest schema with a safety copy of its own (after a sync), then damaged.
    const damaged = tmp.file('damaged-car.sqlite');
    const store = new Store(damaged);
    store.carCosts.add({ carId: 3, date: '2026-04-01', kind: 'tyres', odometer: null, amount: '800', currency: 203, rate: '1', note: 'x' });
    store.reminders.add({
      carId: 3,
      kind: 'oilChange',
      title: '',
      dueDate: null,
      dueOdometer: 100_000,
      everyMonths: null,
      everyKm: 15_000,
      note: '',
      done: false,
      lastDone: null,
    });
    const held = carCosts(store);
    store.keepSafetyCopy('after-sync');
    store.close();
    damage(damaged);
    expect((await runCliOn(damaged, ['recover'])).code).toBe(0);
    const recovered = new Store(damaged, { noSafetyCopies: true });
    expect(carCosts(recovered)).toEqual(held);
    expect(held.flat()).toHaveLength(2);
    recovered.close();
  });

  it('a damaged local copy says so and how to recover; recover puts the newest safety copy in place and keeps the damaged file', async () => {
    const file = damagedLocalCopy(tmp.file('damaged.sqlite'), { fill: (store) => store.settings.set('copyId', 'kept') });

    const status = await runCliOn(file, ['status']);
    expectCliFailure(
      status,
      /is damaged and cannot be used\. Recover it from its newest safety copy \(.*\) with the command line's "recover"/,
    );
    const recovered = await runCliOn(file, ['recover', '--json']);
    expect(recovered.code).toBe(0);
    const { movedAside } = recovered.json() as { movedAside: string };
    expect(existsSync(movedAside)).toBe(true);
    const store = new Store(file);
    expect(store.settings.get('copyId')).toBe('kept');
    store.close();
    expect((await runCliOn(file, ['status'])).code).toBe(0);

    const never = damagedLocalCopy(tmp.file('never-copied.sqlite'), { safetyCopy: false });
    expectCliFailure(await runCliOn(never, ['recover']), /There is no sound safety copy of/);
  });

  it('a safety copy carries the budgets (kept here only), and recovering from it brings them back', async () => {
    const file = tmp.file('budgets.sqlite');
    const budgets = [
      { month: '2026-04', categoryId: 10, currency: 203, amount: '2500.5' },
      { month: '2026-04', categoryId: 11, currency: 203, amount: '0' },
      { month: '2026-05', categoryId: 10, currency: 978, amount: '90' },
    ];
    const store = new Store(file);
    for (const b of budgets) store.budgets.save(b);
    const written = await store.inBackground('after-sync');
    store.close();
    const copy = new Store(written, { noSafetyCopies: true });
    expect([...copy.budgets.list(203, '2026-01', '2026-12'), ...copy.budgets.list(978, '2026-01', '2026-12')]).toEqual(budgets);
    copy.close();

    damage(file);
    const recovered = await runCliOn(file, ['recover', '--json']);
    expect(recovered.code).toBe(0);
    const back = new Store(file);
    expect(back.budgets.count()).toBe(3);
    expect(back.budgets.list(203, '2026-04', '2026-04')).toEqual(budgets.slice(0, 2));
    back.close();
  });

  it('after a sync and daily, a copy is written off the event loop: the app goes on answering and writing, and the copy holds what was committed', async () => {
    const file = tmp.file('background.sqlite');
    fillLargeCopy(file, { transactions: 5_000, accounts: 4, years: 2, firstYear: 2024 });
    const store = new Store(file, { noSafetyCopies: true });
    const [account] = store.accounts.list();
    const before = store.transactions.count(account!.id);
    // Turns of the event loop while the copy is written: none could run if the copy held the process.
    let turns = 0;
    let counting = true;
    const count = () => {
      turns++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const copy = store.inBackground('after-sync');
    // A write while the copy is under way is not held up.
    await new Promise((turn) => setImmediate(turn));
    store.settings.set('copyId', 'written meanwhile');
    const written = await copy;
    counting = false;
    expect(turns).toBeGreaterThan(1);
    expect(listSafetyCopies(file).map((c) => c.file)).toEqual([written]);
    const db = new Database(written, { readonly: true });
    expect(db.pragma('quick_check', { simple: true })).toBe('ok');
    expect(db.prepare('SELECT count(*) FROM transactions WHERE account_id = ?').pluck().get(account!.id)).toBe(before);
    db.close();
    expect(store.settings.get('copyId')).toBe('written meanwhile');
    store.close();
  });

  it('a background copy that cannot be made rejects, keeps nothing and leaves no partial file', async () => {
    const file = tmp.file('vanishing.sqlite');
    new Store(file).close();
    const store = new Store(file, { noSafetyCopies: true });
    rmSync(file);
    await expect(store.inBackground('after-sync')).rejects.toThrow(/could not be written/);
    expect(listSafetyCopies(file)).toEqual([]);
    expect(readdirSync(safetyCopyDir(file))).toEqual([]);
    store.close();
  });

  it('a second Store of the file starts no daily copy while one is written, and waits for a copy the other began', async () => {
    const file = tmp.file('two-stores.sqlite');
    new Store(file, { noSafetyCopies: true }).close();
    const first = new Store(file, { noSafetyCopies: true });
    const copy = first.inBackground('after-sync');
    // No copy exists yet, so a daily one would be due: but one is being written.
    const second = new Store(file);
    await second.dailyCopy;
    await second.copiesWritten();
    second.close();
    expect(listSafetyCopies(file).map((c) => c.reason)).toEqual(['after-sync']);
    expect(listSafetyCopies(file)[0]!.file).toBe(await copy);
    first.close();
  });
});
