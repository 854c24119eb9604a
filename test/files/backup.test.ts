/**
 * Backup and restore of the local copy: every record, pending write, id mapping, partial mark and
 * setting comes back; the secrets never leave; writes restored are sent exactly once; bad files are
 * refused without changing anything.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src-main/core/app/app-core';
import { type Outbox } from '../../src-main/core/outbox';
import { PromptSecretStore } from '../../src-main/core/secrets';
import { Store } from '../../src-main/core/store';
import { MIGRATIONS } from '../../src-main/core/store/migrations';
import { HTTP_TOKEN_HEADER, type BackupFile, type CallOutcome } from '../../src-shared/app-api';
import { seedLocal } from '../insights/local-data';
import { dumpLocal, newAccount, newUser, openCore, tempDir, type UserSession } from '../support/client';
import { startTestService, type TestService } from '../support/service';
import type { ShellProcessReady } from '../support/shell-process';
import { refusal } from './refusal';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const refueling = (tachometer: number, liter = '40.5') => ({
  carId: 7,
  dateOfPurchase: `2026-03-${String(1 + (tachometer % 27)).padStart(2, '0')}T08:00`,
  tachometer,
  liter,
  price: '1620.5',
  currency: 203,
  rate: '1',
  description: `fuel at ${tachometer}`,
});

/** A user with two synced accounts, a synced transfer and a synced refueling of car 7. */
async function withHistory(): Promise<UserSession & { main: number; savings: number }> {
  const s = await newUser(service);
  await s.core.addAccount(newAccount('Main'));
  await s.core.addAccount(newAccount('Savings'));
  await s.core.saveCar({ carId: 7, name: 'Fabia' });
  await s.core.addRefueling(refueling(1000));
  expect((await s.core.sync()).error).toBeNull();
  const accounts = (await s.core.listAccounts({})).accounts;
  const main = accounts.find((a) => a.name === 'Main')!.id;
  const savings = accounts.find((a) => a.name === 'Savings')!.id;
  await s.core.transfer({
    sourceId: main,
    targetId: savings,
    amount: '100',
    paymentDate: '2026-03-01T10:00',
    categoryId: 0,
    description: 'first',
  });
  expect((await s.core.sync()).error).toBeNull();
  return Object.assign(s, { main, savings });
}

/** Changes the local copy through a second connection, as the core has no method for it. */
function onFile<T>(file: string, fn: (store: Store, outbox: Outbox) => T): T {
  const store = new Store(file);
  try {
    return store.transaction(() => fn(store, store.outbox));
  } finally {
    store.close();
  }
}

/** The dump without what a restore rightly keeps from the copy it replaces (its name, its next temporary id). */
function comparable(dump: Record<string, unknown[]>): Record<string, unknown[]> {
  const own = new Set(['copyId', 'nextTempId']);
  return { ...dump, settings: (dump.settings as { key: string }[]).filter((r) => !own.has(r.key)) };
}

async function expectRefused(p: Promise<unknown>, pattern: RegExp, kind = 'invalid-input'): Promise<void> {
  expect(await refusal(p)).toMatchObject({ kind, message: expect.stringMatching(pattern) });
}

describe('backup and restore', () => {
  it('gets back every record and every pending write, and the restored writes reach the service exactly once', async () => {
    const s = await withHistory();
    try {
      await service.stop();
      const t = await s.core.transfer({
        sourceId: s.main,
        targetId: s.savings,
        amount: '12.34',
        paymentDate: '2026-03-02T10:00',
        categoryId: 0,
        description: 'offline',
      });
      const holiday = await s.core.addAccount(newAccount('Holiday'));
      await s.core.transfer({
        sourceId: s.main,
        targetId: holiday.id,
        amount: '50',
        paymentDate: '2026-03-03T10:00',
        categoryId: 0,
        description: 'to holiday',
      });
      const category = await s.core.addCategory({ name: 'Trips', parentId: 0 });
      const partial = await s.core.addRefueling(refueling(1400, '20'));
      await s.core.addRefueling(refueling(1800));
      const dropped = await s.core.addCategory({ name: 'Dropped later', parentId: 0 });
      await s.core.setPreferences({ language: 'en', theme: 'dark' });
      const stored = (await s.core.listRefuelings({ carId: 7 })).find((r) => r.tachometer === 1000)!;
      onFile(s.file, (store, outbox) => {
        store.refuelings.setPartial(partial.id, true);
        store.refuelings.setPartial(stored.id, true);
        outbox.setStatus(category.outboxId, 'refused', 'The service said no.');
      });
      const before = dumpLocal(s.file);
      expect(before.id_map!.length).toBeGreaterThan(0);

      const backup = await s.core.createBackup();
      expect(backup.counts).toEqual({
        accounts: 2,
        transactions: 2,
        templates: 0,
        categories: 0,
        cars: 1,
        refuelings: 1,
        budgets: 0,
        carCosts: 0,
        reminders: 0,
        pendingWrites: 7,
      });
      expect(backup.fileName).toMatch(/^bookkeeping-\d{4}-\d{2}-\d{2}-\d{4}\.sqlite$/);
      expect(Buffer.from(backup.data, 'base64').length).toBe(backup.bytes);

      // Everything changes after the backup.
      await s.core.discardOutbox({ id: dropped.outboxId });
      await s.core.discardOutbox({ id: t.outboxId });
      const later = await s.core.addCategory({ name: 'After the backup', parentId: 0 });
      await s.core.setPreferences({ theme: 'light' });
      await s.core.saveCar({ carId: 8, name: 'Spare' });
      onFile(s.file, (store) => store.refuelings.setPartial(partial.id, false));

      const restored = await s.core.restoreBackup({ data: bytesOf(backup) });
      // The two writes discarded since may have reached the service as far as the copy can tell.
      expect(restored).toEqual({
        counts: backup.counts,
        backedUpAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
        uncertainWrites: 2,
      });
      const after = dumpLocal(s.file);
      const outboxOf = (d: Record<string, unknown[]>) =>
        d.outbox as { id: number; status: string; message: string | null; probe: string | null }[];
      const unsettled = new Set([dropped.outboxId, t.outboxId]);
      expect(outboxOf(after).filter((e) => !unsettled.has(e.id))).toEqual(outboxOf(before).filter((e) => !unsettled.has(e.id)));
      for (const e of outboxOf(after).filter((x) => unsettled.has(x.id))) {
        expect(e).toMatchObject({
          status: 'unknown',
          message: expect.stringMatching(/^Restored from a backup made .*may have reached the service/),
        });
      }
      expect(comparable({ ...after, outbox: [] })).toEqual(comparable({ ...before, outbox: [] }));
      // Ids handed out since the backup are never handed out again.
      const nextTempId = (d: Record<string, unknown[]>) =>
        JSON.parse((d.settings as { key: string; value: string }[]).find((r) => r.key === 'nextTempId')!.value);
      expect(nextTempId(after)).toBeLessThanOrEqual(later.id - 1);
      const again = await s.core.addCategory({ name: 'New after restore', parentId: 0 });
      expect(again.outboxId).toBeGreaterThan(later.outboxId);
      expect(again.id).toBeLessThan(later.id);
      await s.core.discardOutbox({ id: again.outboxId });
      // The screens see the restored copy at once (the view's cache is not served stale).
      expect((await s.core.listCars()).map((c) => c.carId)).toEqual([7]);
      expect((await s.core.getPreferences()).theme).toBe('dark');
      expect((await s.core.listOutbox()).map((e) => e.id)).toEqual(outboxOf(before).map((e) => e.id));

      // The user settles the two uncertain ones: the service never had them.
      await s.core.retryOutbox({ id: dropped.outboxId });
      await s.core.discardOutbox({ id: t.outboxId });
      await s.core.retryOutbox({ id: category.outboxId });
      await service.start();
      const summary = await s.core.sync();
      expect(summary).toMatchObject({ error: null, pushed: 6, refused: 0 });
      expect(await s.core.listOutbox()).toEqual([]);

      const accounts = await s.truth.call('AccountListWithAmount2', {});
      expect(accounts.filter((a) => a.Name === 'Holiday')).toHaveLength(1);
      expect(accounts.find((a) => a.Name === 'Holiday')!.Amount).toBe(50);
      expect(accounts.find((a) => a.Name === 'Main')!.Amount).toBe(-150);
      const tree = await s.truth.call('CategoryTree', {});
      expect(tree.AllCategories.map((c) => c.Name).sort()).toEqual(['Dropped later', 'Trips']);
      const fuel = await s.truth.call('CarFuelList', { CarId: 7 });
      expect(fuel.map((r) => r.Tachometer).sort()).toEqual([1000, 1400, 1800]);
      // The partial marks moved to the service's ids.
      const marks = await s.core.listRefuelings({ carId: 7 });
      expect(
        marks
          .filter((r) => r.partial)
          .map((r) => r.tachometer)
          .sort(),
      ).toEqual([1000, 1400]);
      expect(marks.every((r) => r.id > 0)).toBe(true);
    } finally {
      await service.start().catch(() => undefined);
      await s.done();
    }
  });

  it('settles writes synced since the backup: done creates are mapped, nothing reaches the service twice', async () => {
    const s = await withHistory();
    try {
      const fuel = await s.core.addRefueling(refueling(2000));
      await s.core.transfer({
        sourceId: s.main,
        targetId: s.savings,
        amount: '7',
        paymentDate: '2026-03-05T10:00',
        categoryId: 0,
        description: 'synced later',
      });
      const { currency: _currency, ...renamed } = newAccount('Savings renamed');
      void _currency;
      await s.core.editAccount({ id: s.savings, ...renamed });
      onFile(s.file, (store) => store.refuelings.setPartial(fuel.id, true));
      const backup = await s.core.createBackup();
      expect(backup.counts.pendingWrites).toBe(3);
      expect((await s.core.sync()).error).toBeNull();

      const restored = await s.core.restoreBackup({ data: bytesOf(backup) });
      // The refueling and the transfer are known done (their temporary ids were mapped); the edit
      // is compared with the service by the next sync.
      expect(restored.uncertainWrites).toBe(1);
      expect((await s.core.listOutbox()).map((e) => [e.kind, e.status])).toEqual([['editAccount', 'unknown']]);
      expect((await s.core.listRefuelings({ carId: 7 })).find((r) => r.tachometer === 2000)).toBeUndefined();

      const summary = await s.core.sync();
      expect(summary.error).toBeNull();
      expect(await s.core.listOutbox()).toEqual([]);
      expect((await s.truth.call('CarFuelList', { CarId: 7 })).filter((r) => r.Tachometer === 2000)).toHaveLength(1);
      const main = await s.truth.call('TransactionListLast50_2', { AccountId: s.main });
      expect(main.filter((x) => x.Description === 'synced later')).toHaveLength(1);
      expect((await s.truth.call('AccountListWithAmount2', {})).find((a) => a.Id === s.savings)!.Name).toBe('Savings renamed');
      // The pull brought the refueling back under its service id, with its partial mark.
      expect((await s.core.listRefuelings({ carId: 7 })).find((r) => r.tachometer === 2000)).toMatchObject({
        partial: true,
        pending: false,
      });
    } finally {
      await s.done();
    }
  });

  it('restores a backup into another local copy with every write held for a check', async () => {
    const s = await withHistory();
    const other = tempDir();
    const core = openCore(other.file('other.sqlite'));
    try {
      await s.core.transfer({
        sourceId: s.main,
        targetId: s.savings,
        amount: '3',
        paymentDate: '2026-03-06T10:00',
        categoryId: 0,
        description: 'elsewhere',
      });
      const backup = await s.core.createBackup();
      const restored = await core.restoreBackup({ data: bytesOf(backup) });
      expect(restored).toMatchObject({ counts: backup.counts, uncertainWrites: 1 });
      expect((await core.listOutbox())[0]).toMatchObject({
        kind: 'transfer',
        status: 'unknown',
        message: expect.stringMatching(/the next sync looks for it there/),
      });
      expect((await core.listAccounts({})).accounts.map((a) => a.name).sort()).toEqual(['Main', 'Savings']);
    } finally {
      await core.close();
      other.remove();
      await s.done();
    }
  });

  it('leaves the client key and the password out of the backup', async () => {
    const tmp = tempDir();
    const file = tmp.file('sealed.sqlite');
    const core = openCore(file, {
      secrets: (persistence) =>
        new PromptSecretStore({ persistence, env: { BOOKKEEPING_PASSWORD: 'Password-Of-Test-9' }, clientKey: 'Client-Key-Of-Test-7' }),
    });
    try {
      await core
        .connect({ baseUrl: service.url, clientKey: 'Client-Key-Of-Test-7', login: 'nobody', password: 'Password-Of-Test-9' })
        .catch(() => undefined);
      // Whether or not the service took them, seal them the way the command line does.
      onFile(file, (store) => {
        store.settings.setSecret('clientKey', 'sealed:Client-Key-Of-Test-7');
        store.settings.setSecret('password', 'sealed:Password-Of-Test-9');
      });
      const backup = bytesOf(await core.createBackup());
      for (const secret of ['Client-Key-Of-Test-7', 'Password-Of-Test-9', 'secret.clientKey', 'secret.password']) {
        expect(backup.includes(Buffer.from(secret, 'utf8')), secret).toBe(false);
        expect(backup.includes(Buffer.from(secret, 'utf16le')), secret).toBe(false);
      }
      // The restore keeps the current ones.
      await core.restoreBackup({ data: backup });
      const kept = dumpLocal(file).settings as { key: string; value: string }[];
      expect(kept.filter((r) => r.key.startsWith('secret.')).map((r) => r.value)).toEqual([
        '"sealed:Client-Key-Of-Test-7"',
        '"sealed:Password-Of-Test-9"',
      ]);
    } finally {
      await core.close();
      tmp.remove();
    }
  });

  it('refuses garbage, a truncated file, a foreign database and a newer schema, changing nothing', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'));
    try {
      await core.saveCar({ carId: 3, name: 'Kept' });
      const good = bytesOf(await core.createBackup());
      const before = dumpLocal(tmp.file('local.sqlite'));

      await expectRefused(core.restoreBackup({ data: Buffer.from('hello world, not a database') }), /not an SQLite database/);
      await expectRefused(core.restoreBackup({ data: good.subarray(0, Math.floor(good.length / 2)) }), /damaged/);
      const damaged = Buffer.from(good);
      damaged.fill(0xa5, 2 * 4096, 3 * 4096);
      await expectRefused(core.restoreBackup({ data: damaged }), /damaged|not a backup/);

      const foreign = tmp.file('foreign.sqlite');
      const db = new Database(foreign);
      db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)');
      db.pragma('user_version = 1');
      db.close();
      await expectRefused(core.restoreBackup({ data: readFileSync(foreign) }), /not a backup of this app: it lacks accounts, cars/);

      const newer = tmp.file('newer.sqlite');
      writeFileSync(newer, good);
      const n = new Database(newer);
      n.pragma('user_version = 99');
      n.close();
      await expectRefused(core.restoreBackup({ data: readFileSync(newer) }), /newer version of the app \(schema 99/, 'rule');

      expect(dumpLocal(tmp.file('local.sqlite'))).toEqual(before);
      expect((await core.listCars()).map((c) => c.name)).toEqual(['Kept']);
    } finally {
      await core.close();
      tmp.remove();
    }
  });

  it('brings a backup of an older schema up to date, and takes a plain local copy in WAL mode', async () => {
    const tmp = tempDir();
    const old = tmp.file('old.sqlite');
    const oldStore = new Store(old, { migrations: MIGRATIONS.filter((m) => m.version === 1) });
    oldStore.cars.save({ carId: 5, name: 'Old car' }, '2026-01-01T00:00:00');
    oldStore.close();
    const core = openCore(tmp.file('local.sqlite'));
    try {
      const restored = await core.restoreBackup({ data: readFileSync(old) });
      expect(restored).toMatchObject({ backedUpAt: null, counts: { cars: 1 } });
      expect((await core.listCars()).map((c) => c.name)).toEqual(['Old car']);

      // The app's own data file, copied off the disk while in WAL mode.
      const plain = tmp.file('plain.sqlite');
      const copy = new Store(plain);
      copy.cars.save({ carId: 6, name: 'Plain car' }, '2026-01-01T00:00:00');
      expect(copy.db.pragma('journal_mode', { simple: true })).toBe('wal');
      copy.db.pragma('wal_checkpoint(TRUNCATE)');
      const bytes = readFileSync(plain);
      copy.close();
      await core.restoreBackup({ data: bytes });
      expect((await core.listCars()).map((c) => c.name)).toEqual(['Plain car']);
    } finally {
      await core.close();
      tmp.remove();
    }
  });

  it('carries the budgets (kept here only): a backup counts them, a restore brings them back, into this copy or another', async () => {
    const tmp = tempDir();
    const file = tmp.file('local.sqlite');
    seedLocal(file, {
      accounts: [{ id: 1, name: 'Current', currency: 203, balance: '100' }],
      categories: [
        { id: 10, name: 'Food', parentId: 0 },
        { id: 11, name: 'Groceries', parentId: 10 },
      ],
    });
    const budgetOf = async (c: AppCore, month: string, currency: number, categoryId: number) =>
      (await c.getBudgetMonth({ month, currency })).rows.find((r) => r.categoryId === categoryId)!.months[0]!.budget;
    const core = openCore(file);
    const other = openCore(tmp.file('other.sqlite'));
    try {
      await core.setBudget({ month: '2026-01', categoryId: 10, currency: 203, amount: '4000.5' });
      await core.setBudget({ month: '2026-01', categoryId: 11, currency: 203, amount: '1200' });
      await core.setBudget({ month: '2026-02', categoryId: 10, currency: 978, amount: '150' });
      const backup = await core.createBackup();
      expect(backup.counts).toMatchObject({ budgets: 3, pendingWrites: 0 });
      await core.clearBudget({ month: '2026-01', categoryId: 10, currency: 203 });
      await core.setBudget({ month: '2026-03', categoryId: 10, currency: 203, amount: '1' });
      const restored = await core.restoreBackup({ data: Buffer.from(backup.data, 'base64') });
      expect(restored.counts).toMatchObject({ budgets: 3 });
      expect(await budgetOf(core, '2026-01', 203, 10)).toBe('4000.5');
      expect(await budgetOf(core, '2026-01', 203, 11)).toBe('1200');
      expect(await budgetOf(core, '2026-02', 978, 10)).toBe('150');
      expect(await budgetOf(core, '2026-03', 203, 10)).toBeNull();
      expect(await core.listOutbox()).toEqual([]);

      await other.restoreBackup({ data: Buffer.from(backup.data, 'base64') });
      expect(await budgetOf(other, '2026-01', 203, 10)).toBe('4000.5');
    } finally {
      await core.close();
      await other.close();
      tmp.remove();
    }
  });

  it('refuses a restore while a sync runs', async () => {
    const s = await withHistory();
    try {
      const backup = await s.core.createBackup();
      const running = s.core.sync();
      await expectRefused(s.core.restoreBackup({ data: bytesOf(backup) }), /sync is running/, 'busy');
      await running;
    } finally {
      await s.done();
    }
  });

  it('refuses a restore while another process on the same file syncs, and restores once its lock is gone', async () => {
    const s = await withHistory();
    try {
      const backup = await s.core.createBackup();
      // The command line syncing the same file: its lock row names a live process (our parent) on this host, fresh.
      onFile(s.file, (store) => store.settings.set('syncLock', { pid: process.ppid, host: hostname(), at: new Date().getTime() }));
      await expectRefused(s.core.restoreBackup({ data: bytesOf(backup) }), /sync is running/, 'busy');
      onFile(s.file, (store) => store.settings.set('syncLock', null));
      expect((await s.core.restoreBackup({ data: bytesOf(backup) })).counts.accounts).toBe(2);
    } finally {
      await s.done();
    }
  });

  it('restores a backup of 20 MiB through the browser shell in a process whose heap is 48 MiB', async () => {
    // The file travels as the request's bytes and is written as it is: as base64 in JSON (27 MiB of text,
    // parsed into a second string and decoded), this process ran out of heap.
    const tmp = tempDir();
    const source = tmp.file('source.sqlite');
    const renderer = mkdtempSync(join(tmpdir(), 'bookkeeping-renderer-'));
    writeFileSync(join(renderer, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    const shell = fork(join(import.meta.dirname, '../support/shell-process.ts'), [tmp.file('local.sqlite'), renderer], {
      execArgv: ['--import', 'tsx', `--max-old-space-size=${SMALL_HEAP_MIB}`],
      stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
    });
    let stderr = '';
    shell.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      onFile(source, (store) => {
        store.accounts.upsert({
          id: 1,
          name: 'Big',
          description: '',
          type: 1,
          currency: 203,
          isActive: true,
          locked: false,
          isHidden: false,
          ord: 0,
          permission: 3,
          balance: '0',
        });
        const rows = Array.from({ length: 15_000 }, (_, i) => ({
          key: `id:${i + 1}`,
          id: i + 1,
          accountId: 1,
          paymentDate: '2026-01-01T00:00:00',
          type: 1,
          amount: `${i}.5`,
          description: `Transaction ${i} ${'x'.repeat(500)}`,
          categoryId: 0,
          userId: 1,
          userCreatedId: 1,
        }));
        store.transactions.upsert(rows);
      });
      const core = openCore(source);
      const backup = new Uint8Array(bytesOf(await core.createBackup()));
      await core.close();
      expect(backup.length).toBeGreaterThan(SMALL_HEAP_MIB * 2 ** 20 * 0.4);

      const { origin, token } = await new Promise<ShellProcessReady>((resolve, reject) => {
        shell.once('message', (m) => resolve(m as ShellProcessReady));
        shell.once('exit', (code) => reject(new Error(`The shell exited with ${code}: ${stderr}`)));
      });
      const call = async (method: string, body: string | Uint8Array<ArrayBuffer>, type = 'application/json') => {
        const res = await fetch(`${origin}/api/${method}`, {
          method: 'POST',
          headers: { 'content-type': type, [HTTP_TOKEN_HEADER]: token, origin },
          body,
        });
        expect(res.status, stderr).toBe(200);
        return (await res.json()) as CallOutcome<unknown>;
      };
      const restored = await call('restoreBackup', backup, 'application/octet-stream');
      expect(restored, stderr).toMatchObject({ ok: true, value: { counts: { accounts: 1, transactions: 15_000 } } });
      const found = await call('searchTransactions', JSON.stringify({ text: 'Transaction 14999' }));
      expect(found).toMatchObject({
        ok: true,
        value: { total: 1, items: [{ id: 15_000, description: expect.stringMatching(/^Transaction 14999 x+$/) }] },
      });
    } finally {
      shell.kill();
      rmSync(renderer, { recursive: true, force: true });
      tmp.remove();
    }
  }, 120_000);
});

/** A backup's file, as a user picks it to restore. */
const bytesOf = (backup: BackupFile): Buffer => Buffer.from(backup.data, 'base64');

/** The browser shell's heap in the large restore: room for the app, not for the backup as base64 text. */
const SMALL_HEAP_MIB = 48;
