/**
 * Every way an older local copy comes back keeps each write exactly once on the service: the writes it holds
 * as waiting become unknown until the next sync's check finds them on the service (done) or not (sent once).
 * The ways: a restore of this copy's backup, a backup restored into another copy (another machine), a safety
 * copy restored as a backup, a recovery from a safety copy by the command line's `recover` and by the browser
 * shell's core (recoverLocalCopy { from: 'safety-copy' }); with transfers, new accounts, account edits,
 * categories and refuelings, against the real service on loopback. The reproduction is the first test.
 */
import { closeSync, openSync, readdirSync, writeSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_EXIT } from '../../src-main/cli/exit-codes';
import type { AppCore } from '../../src-main/core/app/app-core';
import { openRecoverableCore } from '../../src-main/core/app/recoverable-core';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { listSafetyCopies, Store } from '../../src-main/core/store';
import { runCliOn } from '../support/cli';
import { newAccount, newUser, openCore, soapClient, tempDir, TEST_SYNC_TUNING, type UserSession } from '../support/client';
import { seedTestUser, startTestService, TEST_TIME_ZONE, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

/** 4 KiB of noise after byte 100, as the issue damaged the copy: SQLite can no longer read its schema. */
function damage4k(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    const noise = Buffer.alloc(4096);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 131 + 17) & 0xff;
    writeSync(fd, noise, 0, noise.length, 100);
  } finally {
    closeSync(fd);
  }
}

/** Damages every safety copy made after a sync: the recovery must fall back to an older one, whose writes were pending. */
function damageAfterSyncCopies(dataFile: string): void {
  for (const copy of listSafetyCopies(dataFile).filter((c) => c.reason === 'after-sync')) damage4k(copy.file);
}

describe("the issue's reproduction on the command line", () => {
  const tmp = tempDir('bookkeeping-older-copy-cli-');
  afterAll(() => tmp.remove());
  let n = 0;

  /** A user of its own, connected and synced, with two accounts; the command line on its local copy. */
  /** The transfer: `transfer --amount 7.77 --description DOUBLE-CHECK` from the user's main account to savings. */
  const transferDoubleCheck = (u: Awaited<ReturnType<typeof cliUser>>) =>
    u.cli(['transfer', '--from', String(u.main), '--to', String(u.savings), '--amount', '7.77', '--description', 'DOUBLE-CHECK']);

  async function cliUser() {
    const credentials = { clientKey: 'older-copy', login: `older${process.pid}x${++n}`, password: 'password' };
    seedTestUser(service.dataFile, credentials);
    const data = tmp.file(`L${n}.sqlite`);
    const env = { BOOKKEEPING_PASSWORD: credentials.password, BOOKKEEPING_CLIENT_KEY: credentials.clientKey };
    const cli = (args: string[]) => runCliOn(data, args, { env });
    expect((await cli(['connect', '--url', service.url, '--login', credentials.login])).code).toBe(0);
    for (const name of ['Main', 'Savings']) {
      expect((await cli(['add-account', '--name', name, '--currency', '203', '--type', '1'])).code).toBe(0);
    }
    expect((await cli(['sync'])).code).toBe(SYNC_EXIT.delivered);
    const { accounts } = (await cli(['accounts', '--json'])).json() as { accounts: { id: number; name: string }[] };
    const truth = soapClient(service.url, service.namespace, { credentials });
    const main = accounts.find((a) => a.name === 'Main')!.id;
    const savings = accounts.find((a) => a.name === 'Savings')!.id;
    const onService = async (description: string) =>
      (await truth.call('TransactionListLast50_2', { AccountId: main })).filter((t) => t.Description === description).length;
    return { data, cli, main, savings, truth, onService };
  }

  it('transfer; backup; restore; sync; damage 4 KiB after byte 100; recover; sync: the transfer is on the service exactly once', async () => {
    const u = await cliUser();
    try {
      const B = tmp.file('B.sqlite');
      expect((await transferDoubleCheck(u)).code).toBe(0);
      expect((await u.cli(['backup', '--to', B])).code).toBe(0);
      expect((await u.cli(['restore', '--from', B])).code).toBe(0);
      expect((await u.cli(['sync'])).code).toBe(SYNC_EXIT.delivered);
      expect(await u.onService('DOUBLE-CHECK')).toBe(1);
      damage4k(u.data);
      const recovered = await u.cli(['recover', '--json']);
      expect(recovered.code).toBe(0);
      expect((await u.cli(['sync'])).code).toBe(SYNC_EXIT.delivered);
      expect(await u.onService('DOUBLE-CHECK')).toBe(1);
      expect((await u.cli(['outbox', '--json'])).json()).toEqual([]);
    } finally {
      u.truth.close();
    }
  });

  it('the same with the safety copy made after the sync damaged too: the one made before the restore comes back, its transfer and refueling decided, not sent again', async () => {
    const u = await cliUser();
    try {
      const B = tmp.file('B2.sqlite');
      expect((await transferDoubleCheck(u)).code).toBe(0);
      expect((await u.cli(['car', 'add', '9', 'Octavia'])).code).toBe(0);
      const fuel = [
        'refuel',
        '--car',
        '9',
        '--liter',
        '41.5',
        '--price',
        '1650.20',
        '--tachometer',
        '12000',
        '--currency',
        'CZK',
        '--date',
        '2026-10-01T08:00',
      ];
      expect((await u.cli(fuel)).code).toBe(0);
      expect((await u.cli(['add-category', 'Fuel'])).code).toBe(0);
      expect((await u.cli(['edit-account', String(u.savings), '--name', 'Savings 2026'])).code).toBe(0);
      expect((await u.cli(['backup', '--to', B])).code).toBe(0);
      expect((await u.cli(['restore', '--from', B])).code).toBe(0);
      expect((await u.cli(['sync'])).code).toBe(SYNC_EXIT.delivered);
      damage4k(u.data);
      damageAfterSyncCopies(u.data);
      const recovered = await u.cli(['recover', '--json']);
      expect(recovered.code).toBe(0);
      expect(recovered.json()).toMatchObject({ restored: { reason: 'before-restore' }, uncertainWrites: 4 });
      const outbox = (await u.cli(['outbox', '--json'])).json() as { kind: string; status: string }[];
      expect(outbox.map((e) => [e.kind, e.status])).toEqual([
        ['transfer', 'unknown'],
        ['addRefueling', 'unknown'],
        ['addCategory', 'unknown'],
        ['editAccount', 'unknown'],
      ]);
      expect((await u.cli(['sync', '--json'])).code).toBe(SYNC_EXIT.delivered);
      expect((await u.cli(['outbox', '--json'])).json()).toEqual([]);
      expect(await u.onService('DOUBLE-CHECK')).toBe(1);
      expect((await u.truth.call('CarFuelList', { CarId: 9 })).filter((r) => r.Tachometer === 12000)).toHaveLength(1);
      expect((await u.truth.call('CategoryTree', {})).AllCategories.filter((c) => c.Name === 'Fuel')).toHaveLength(1);
      expect((await u.truth.call('AccountListWithAmount2', {})).find((a) => a.Id === u.savings)!.Name).toBe('Savings 2026');
      // The car's name is the local copy's own, and came back with it.
      expect(((await u.cli(['cars', '--json'])).json() as { carId: number; name: string }[]).find((c) => c.carId === 9)?.name).toBe(
        'Octavia',
      );
    } finally {
      u.truth.close();
    }
  });
});

/** Queues one write of each kind on a synced user with two accounts and car 7. */
async function queueOneOfEach(s: UserSession, main: number, savings: number, tag: string) {
  await s.core.transfer({
    sourceId: main,
    targetId: savings,
    amount: '7.77',
    paymentDate: '2026-10-02T09:00',
    categoryId: 0,
    description: `T-${tag}`,
  });
  await s.core.addAccount(newAccount(`New-${tag}`));
  await s.core.editAccount({ id: savings, ...editable(`Savings-${tag}`) });
  await s.core.addCategory({ name: `C-${tag}`, parentId: 0 });
  const fuel = await s.core.addRefueling({
    carId: 7,
    dateOfPurchase: '2026-10-02T08:00',
    tachometer: 5000,
    liter: '30',
    price: '1200',
    currency: 203,
    rate: '1',
    description: `R-${tag}`,
  });
  return { fuel };
}

const editableRefueling = (r: {
  id: number;
  carId: number;
  dateOfPurchase: string;
  tachometer: number;
  liter: string;
  price: string;
  currency: number;
  rate: string;
  description: string;
}) => ({
  id: r.id,
  carId: r.carId,
  dateOfPurchase: r.dateOfPurchase,
  tachometer: r.tachometer,
  liter: r.liter,
  price: r.price,
  currency: r.currency,
  rate: r.rate,
  description: r.description,
});

const editable = (name: string) => {
  const { currency: _c, ...rest } = newAccount(name);
  void _c;
  return rest;
};

/** How many of each write the service holds for this tag; every one must be exactly 1. */
async function onService(s: UserSession, main: number, savings: number, tag: string) {
  const transfers = (await s.truth.call('TransactionListLast50_2', { AccountId: main })).filter((t) => t.Description === `T-${tag}`).length;
  const accounts = await s.truth.call('AccountListWithAmount2', {});
  return {
    transfers,
    accounts: accounts.filter((a) => a.Name === `New-${tag}`).length,
    edited: accounts.find((a) => a.Id === savings)!.Name === `Savings-${tag}` ? 1 : 0,
    categories: (await s.truth.call('CategoryTree', {})).AllCategories.filter((c) => c.Name === `C-${tag}`).length,
    refuelings: (await s.truth.call('CarFuelList', { CarId: 7 })).filter((r) => r.Description === `R-${tag}`).length,
  };
}
const ONCE = { transfers: 1, accounts: 1, edited: 1, categories: 1, refuelings: 1 };

async function syncedUser() {
  const s = await newUser(service);
  await s.core.addAccount(newAccount('Main'));
  await s.core.addAccount(newAccount('Savings'));
  await s.core.saveCar({ carId: 7, name: 'Fabia' });
  expect((await s.core.sync()).error).toBeNull();
  const accounts = (await s.core.listAccounts({})).accounts;
  return Object.assign(s, { main: accounts.find((a) => a.name === 'Main')!.id, savings: accounts.find((a) => a.name === 'Savings')!.id });
}

describe('every way an older copy comes back, in the app core', () => {
  it('a backup restored into another local copy (another machine) after the writes were synced: each found on the service, none sent again', async () => {
    const s = await syncedUser();
    const other = tempDir();
    let core: AppCore | null = null;
    try {
      await queueOneOfEach(s, s.main, s.savings, 'other');
      const backup = await s.core.createBackup();
      expect((await s.core.sync()).error).toBeNull();
      core = openCore(other.file('other.sqlite'), { secrets: s.secrets });
      await core.connect({ baseUrl: service.url, ...s.credentials });
      const restored = await core.restoreBackup({ data: Buffer.from(backup.data, 'base64') });
      expect(restored.uncertainWrites).toBe(5);
      const summary = await core.sync();
      expect(summary).toMatchObject({ error: null, unknown: 0, waiting: 0 });
      expect(await core.listOutbox()).toEqual([]);
      expect(await onService(s, s.main, s.savings, 'other')).toEqual(ONCE);
    } finally {
      await core?.close();
      other.remove();
      await s.done();
    }
  });

  it('a safety copy restored as a backup after its writes were synced: each found on the service, none sent again', async () => {
    const s = await syncedUser();
    try {
      await queueOneOfEach(s, s.main, s.savings, 'safety');
      // The copy as it is now, kept as a safety copy would be; the writes then reach the service.
      const store = new Store(s.file);
      const copy = store.keepSafetyCopy('daily');
      store.close();
      expect((await s.core.sync()).error).toBeNull();
      const { readFileSync } = await import('node:fs');
      const restored = await s.core.restoreBackup({ data: readFileSync(copy) });
      // This copy was never backed up, so it has no name to tell its own safety copy by: every write is checked.
      expect(restored.uncertainWrites).toBe(5);
      expect((await s.core.sync()).error).toBeNull();
      expect(await s.core.listOutbox()).toEqual([]);
      expect(await onService(s, s.main, s.savings, 'safety')).toEqual(ONCE);
    } finally {
      await s.done();
    }
  });

  it("the browser shell's core recovers from a safety copy whose writes were sent since: none is sent twice; one the damaged copy never sent goes once", async () => {
    const s = await syncedUser();
    let shell: AppCore | null = null;
    try {
      const { fuel } = await queueOneOfEach(s, s.main, s.savings, 'shell');
      // A second refueling, made before the safety copy and discarded before the sync: the service never had it.
      const unsent = await s.core.addRefueling({
        carId: 7,
        dateOfPurchase: '2026-10-03T08:00',
        tachometer: 5400,
        liter: '31',
        price: '1210',
        currency: 203,
        rate: '1',
        description: 'never sent',
      });
      const store = new Store(s.file);
      store.refuelings.setPartial(fuel.id, true);
      store.keepSafetyCopy('daily');
      store.close();
      await s.core.discardOutbox({ id: unsent.outboxId });
      expect((await s.core.sync()).error).toBeNull();
      await s.core.close();
      damage4k(s.file);
      damageAfterSyncCopies(s.file);

      shell = openRecoverableCore({
        dataFile: s.file,
        secrets: s.secrets,
        timeZone: TEST_TIME_ZONE,
        sync: TEST_SYNC_TUNING,
        log: () => undefined,
      });
      expect((await shell.getStatus()).damaged).not.toBeNull();
      const status = await shell.recoverLocalCopy({ from: 'safety-copy' });
      expect(status).toMatchObject({ damaged: null, outbox: { unknown: 6, pending: 0 } });
      const summary = await shell.sync();
      expect(summary).toMatchObject({ error: null, waiting: 0 });
      expect(await shell.listOutbox()).toEqual([]);
      expect(await onService(s, s.main, s.savings, 'shell')).toEqual(ONCE);
      expect((await s.truth.call('CarFuelList', { CarId: 7 })).filter((r) => r.Description === 'never sent')).toHaveLength(1);
      // The partial mark of the refueling found on the service moved to its id.
      const refuelings = await shell.listRefuelings({ carId: 7 });
      expect(refuelings.find((r) => r.description === 'R-shell')).toMatchObject({ partial: true, pending: false });
      // Recovered twice in a row: the copy is healthy now, so nothing is replaced.
      await expect(shell.recoverLocalCopy({ from: 'safety-copy' })).rejects.toMatchObject({ code: 'nothingToRecover' });
    } finally {
      await shell?.close();
      await s.done().catch(() => undefined);
    }
  });

  it('a sync killed right after a recovery (its writes marked sent, no answer kept) still books each write once', async () => {
    const s = await syncedUser();
    let shell: AppCore | null = null;
    try {
      await queueOneOfEach(s, s.main, s.savings, 'killed');
      const store = new Store(s.file);
      store.keepSafetyCopy('daily');
      store.close();
      expect((await s.core.sync()).error).toBeNull();
      await s.core.close();
      damage4k(s.file);
      damageAfterSyncCopies(s.file);
      shell = openRecoverableCore({
        dataFile: s.file,
        secrets: s.secrets,
        timeZone: TEST_TIME_ZONE,
        sync: TEST_SYNC_TUNING,
        log: () => undefined,
      });
      await shell.recoverLocalCopy({ from: 'safety-copy' });
      // The service goes away in the middle: the check cannot finish, nothing is sent, everything stays unknown.
      await service.stop();
      const failed = await shell.sync();
      expect(failed.errorCode).toBe('unavailable');
      expect((await shell.listOutbox()).every((e) => e.status === 'unknown')).toBe(true);
      await service.start();
      expect((await shell.sync()).error).toBeNull();
      expect(await onService(s, s.main, s.savings, 'killed')).toEqual(ONCE);
    } finally {
      await service.start().catch(() => undefined);
      await shell?.close();
      await s.done().catch(() => undefined);
    }
  });
});

describe('a write sent by the lost copy and changed since', () => {
  it('a category created, synced and renamed, then recovered from a copy where its create waited: not created again, left to the user', async () => {
    const s = await syncedUser();
    let shell: AppCore | null = null;
    try {
      const created = await s.core.addCategory({ name: 'Groceries', parentId: 0 });
      const fuel = await s.core.addRefueling({
        carId: 7,
        dateOfPurchase: '2026-10-04T08:00',
        tachometer: 6000,
        liter: '30',
        price: '1200',
        currency: 203,
        rate: '1',
        description: 'to be edited',
      });
      const store = new Store(s.file);
      store.keepSafetyCopy('daily');
      store.close();
      expect((await s.core.sync()).error).toBeNull();
      const id = (await s.core.getCategoryTree()).all.find((c) => c.name === 'Groceries')!.id;
      void created;
      await s.core.renameCategory({ id, name: 'Food' });
      const refueling = (await s.core.listRefuelings({ carId: 7 })).find((r) => r.description === 'to be edited')!;
      void fuel;
      await s.core.editRefueling({ ...editableRefueling(refueling), price: '1250' });
      expect((await s.core.sync()).error).toBeNull();
      await s.core.close();
      damage4k(s.file);
      damageAfterSyncCopies(s.file);
      shell = openRecoverableCore({
        dataFile: s.file,
        secrets: s.secrets,
        timeZone: TEST_TIME_ZONE,
        sync: TEST_SYNC_TUNING,
        log: () => undefined,
      });
      await shell.recoverLocalCopy({ from: 'safety-copy' });
      const summary = await shell.sync();
      expect(summary).toMatchObject({ unknown: 0, undecidable: 2 });
      const left = await shell.listOutbox();
      expect(left.map((e) => [e.kind, e.status])).toEqual([
        ['addCategory', 'undecidable'],
        ['addRefueling', 'undecidable'],
      ]);
      expect(left[0]!.message).toMatch(/came back with an older copy of your data/);
      const names = (await s.truth.call('CategoryTree', {})).AllCategories.map((c) => c.Name);
      expect(names.filter((n) => n === 'Groceries' || n === 'Food')).toEqual(['Food']);
      expect((await s.truth.call('CarFuelList', { CarId: 7 })).filter((r) => r.Tachometer === 6000)).toHaveLength(1);
    } finally {
      await shell?.close();
      await s.done().catch(() => undefined);
    }
  });
});

describe('a safety copy itself damaged', () => {
  it('is passed over for the next sound one; with none sound, the copy is left as it is and the answer says so', async () => {
    const tmp = tempDir();
    try {
      const file = tmp.file('two-copies.sqlite');
      const store = new Store(file);
      store.settings.set('copyId', 'older');
      store.keepSafetyCopy('daily');
      store.settings.set('copyId', 'newer');
      const newest = store.keepSafetyCopy('after-sync');
      store.close();
      damage4k(newest);
      damage4k(file);
      const core = openRecoverableCore({ dataFile: file, secrets: new MemorySecretStore(), log: () => undefined });
      try {
        await core.recoverLocalCopy({ from: 'safety-copy' });
      } finally {
        await core.close();
      }
      const back = new Store(file);
      expect(back.settings.get('copyId')).toBe('older');
      back.close();

      const lone = tmp.file('lone.sqlite');
      const only = new Store(lone);
      const copy = only.keepSafetyCopy('daily');
      only.close();
      damage4k(copy);
      damage4k(lone);
      const before = readdirSync(tmp.dir).sort();
      const r = await runCliOn(lone, ['recover']);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/There is no sound safety copy of/);
      expect(readdirSync(tmp.dir).sort()).toEqual(before);
    } finally {
      tmp.remove();
    }
  });
});
