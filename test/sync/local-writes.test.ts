/**
 * Writes made in the app: checked like the service would check them, shown at once (balances
 * included, marked pending), kept across a restart, and managed in the outbox (retry, discard, fix).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src-main/core/app/app-core';
import { MemorySecretStore } from '../../src-main/core/secrets';
import type { AppError, TransactionView } from '../../src-shared/app-api';
import { connectDemo, openCore, tempDir } from '../support/client';
import { text, units } from '../support/decimal-oracle';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let demo: NonNullable<TestService['demo']>;
beforeAll(async () => {
  service = await startTestService({ demo: true });
  demo = service.demo!;
});
afterAll(() => service.close());

async function syncedDemo(): Promise<{ core: AppCore; file: string; secrets: MemorySecretStore; done(): Promise<void> }> {
  const tmp = tempDir();
  const file = tmp.file('local.sqlite');
  const secrets = new MemorySecretStore();
  const core = openCore(file, { secrets });
  await connectDemo(core, service.url);
  await core.saveCar({ carId: 1, name: 'Octavia' });
  expect((await core.sync()).error).toBeNull();
  return { core, file, secrets, done: async () => (await core.close(), tmp.remove()) };
}

const fail = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: AppError) => ({ kind: e.kind, code: e.code, field: e.field, message: e.message }),
  );

describe('checks before queueing', () => {
  it('refuses transfers the service would refuse, naming the problem', async () => {
    const { core, done } = await syncedDemo();
    try {
      const a = demo.accounts;
      const t = { amount: '10', paymentDate: '2026-05-05T10:00', categoryId: 0, description: '' };
      expect(await fail(core.transfer({ ...t, sourceId: a.cash, targetId: a.cash }))).toMatchObject({ kind: 'rule', field: 'targetId' });
      expect(await fail(core.transfer({ ...t, sourceId: a.cash, targetId: a.euro }))).toMatchObject({
        kind: 'rule',
        message: expect.stringMatching(/EUR.*CZK/),
      });
      expect(await fail(core.transfer({ ...t, sourceId: a.cash, targetId: demo.sharedAccountId }))).toMatchObject({
        kind: 'rule',
        message: expect.stringMatching(/read-only/),
      });
      expect(await fail(core.transfer({ ...t, sourceId: a.old, targetId: a.cash }))).toMatchObject({ kind: 'rule', field: 'sourceId' });
      expect(await fail(core.transfer({ ...t, sourceId: a.cash, targetId: 999_999 }))).toMatchObject({
        kind: 'rule',
        message: expect.stringMatching(/does not exist/),
      });
      expect(await fail(core.transfer({ ...t, amount: '0.001', sourceId: a.cash, targetId: a.bank }))).toMatchObject({
        kind: 'invalid-input',
        field: 'amount',
      });
      expect(await fail(core.transfer({ ...t, categoryId: 424242, sourceId: a.cash, targetId: a.bank }))).toMatchObject({
        kind: 'not-found',
        field: 'categoryId',
      });
      // Schema checks come first: amount as text, positive; no unknown fields.
      expect(await fail(core.transfer({ ...t, amount: '-5', sourceId: a.cash, targetId: a.bank }))).toMatchObject({
        kind: 'invalid-input',
        field: 'amount',
      });
      expect(await fail(core.transfer({ ...t, amount: 5 as unknown as string, sourceId: a.cash, targetId: a.bank }))).toMatchObject({
        kind: 'invalid-input',
        field: 'amount',
      });
      // Amounts travel as doubles: one that a double cannot hold exactly would be sent as another amount.
      expect(await fail(core.transfer({ ...t, amount: '9007199254740993', sourceId: a.cash, targetId: a.bank }))).toMatchObject({
        kind: 'invalid-input',
        field: 'amount',
      });
      expect(await fail(core.transfer({ ...t, sourceId: a.cash, targetId: a.bank, extra: 1 } as never))).toMatchObject({
        kind: 'invalid-input',
        field: 'extra',
      });
      const check = await core.checkTransfer({ ...t, sourceId: a.old, targetId: a.euro });
      expect(check.problems.map((p) => p.code).sort()).toEqual(['currency-mismatch', 'inactive', 'locked']);
      expect(await core.listOutbox()).toEqual([]);
    } finally {
      await done();
    }
  });

  it('refuses duplicate sibling categories, unknown records and cars, too precise prices', async () => {
    const { core, done } = await syncedDemo();
    try {
      const tree = await core.getCategoryTree();
      const housing = tree.all.find((c) => c.name === 'Bydlení')!;
      expect(await fail(core.addCategory({ name: 'bydlení', parentId: 0 }))).toMatchObject({ kind: 'rule', field: 'name' });
      expect(await fail(core.addCategory({ name: 'Nájem', parentId: housing.id }))).toMatchObject({ kind: 'rule' });
      expect(await fail(core.addCategory({ name: 'X', parentId: 987654 }))).toMatchObject({ kind: 'not-found', field: 'parentId' });
      expect(await fail(core.renameCategory({ id: housing.children[0]!.id, name: housing.children[1]!.name }))).toMatchObject({
        kind: 'rule',
      });
      expect(await fail(core.addCategory({ name: '   ', parentId: 0 }))).toMatchObject({ kind: 'invalid-input', field: 'name' });
      expect(
        await fail(
          core.editAccount({
            id: demo.sharedAccountId,
            name: 'x',
            description: '',
            type: 1,
            isActive: true,
            isHidden: false,
            locked: false,
            ord: 0,
          }),
        ),
      ).toMatchObject({ kind: 'rule' });
      expect(
        await fail(
          core.editAccount({ id: 123456, name: 'x', description: '', type: 1, isActive: true, isHidden: false, locked: false, ord: 0 }),
        ),
      ).toMatchObject({ kind: 'not-found' });
      const refuel = {
        carId: 1,
        dateOfPurchase: '2026-05-05T10:00',
        tachometer: 1,
        liter: '10',
        price: '100',
        currency: 203,
        rate: '1',
        description: '',
      };
      expect(await fail(core.addRefueling({ ...refuel, carId: 77 }))).toMatchObject({ kind: 'not-found', field: 'carId' });
      expect(await fail(core.addRefueling({ ...refuel, price: '100.001' }))).toMatchObject({ kind: 'invalid-input', field: 'price' });
      expect(await fail(core.addRefueling({ ...refuel, liter: '0' }))).toMatchObject({ kind: 'invalid-input', field: 'liter' });
      expect(await fail(core.addRefueling({ ...refuel, liter: '0.12345678901234567' }))).toMatchObject({
        kind: 'invalid-input',
        field: 'liter',
      });
      expect(await fail(core.editRefueling({ ...refuel, id: 999999 }))).toMatchObject({ kind: 'not-found' });
      expect(await core.listOutbox()).toEqual([]);
    } finally {
      await done();
    }
  });
});

describe('shown at once, kept until sent', () => {
  it('a queued transfer moves balances and totals at once, marked pending; discarding it moves them back', async () => {
    const { core, done } = await syncedDemo();
    try {
      const before = await core.listAccounts({});
      const cash = before.accounts.find((a) => a.id === demo.accounts.cash)!;
      const czk = before.totals.find((t) => t.currency === 203)!;
      const w = await core.transfer({
        sourceId: demo.accounts.cash,
        targetId: demo.accounts.bank,
        amount: '0.1',
        paymentDate: '2026-05-05T10:00',
        categoryId: 0,
        description: 'pending one',
      });
      await core.transfer({
        sourceId: demo.accounts.cash,
        targetId: demo.accounts.bank,
        amount: '0.2',
        paymentDate: '2026-05-05T10:00',
        categoryId: 0,
        description: 'pending two',
      });
      const after = await core.listAccounts({});
      const cash2 = after.accounts.find((a) => a.id === demo.accounts.cash)!;
      // Exact decimals: 0.1 + 0.2 is 0.3.
      expect(cash2).toMatchObject({ pending: true, serverBalance: cash.balance });
      expect(cash2.balance).toBe(decimalMinus(cash.balance, '0.3'));
      expect(after.totals.find((t) => t.currency === 203)).toMatchObject({ total: czk.total, pending: true });
      const page = await core.listTransactions({ accountId: demo.accounts.cash, limit: 5 });
      expect(page.total).toBe((await countStored(core, demo.accounts.cash)) + 2);
      await core.discardOutbox({ id: w.outboxId });
      expect((await core.listAccounts({})).accounts.find((a) => a.id === demo.accounts.cash)!.balance).toBe(
        decimalMinus(cash.balance, '0.2'),
      );
    } finally {
      await done();
    }
  });

  it('queued writes survive closing the app, and retry/discard/update manage them', async () => {
    const { core, file, secrets, done } = await syncedDemo();
    let reopened: AppCore | null = null;
    try {
      await core.addAccount({
        name: 'Kept',
        description: '',
        currency: 203,
        type: 1,
        isActive: true,
        isHidden: false,
        locked: false,
        ord: 0,
      });
      await core.addCategory({ name: 'Kept too', parentId: 0 });
      await core.close();
      reopened = openCore(file, { secrets });
      const list = await reopened.listOutbox();
      expect(list.map((e) => [e.kind, e.status, e.attempts])).toEqual([
        ['addAccount', 'pending', 0],
        ['addCategory', 'pending', 0],
      ]);
      expect(list[0]!.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
      expect((await reopened.listAccounts({})).accounts.find((a) => a.name === 'Kept')).toMatchObject({
        local: true,
        pending: true,
        balance: '0',
      });
      expect(await fail(reopened.discardOutbox({ id: 999 }))).toMatchObject({ kind: 'not-found' });
      expect(await fail(reopened.updateOutbox({ id: list[1]!.id, input: { name: '', parentId: 0 } }))).toMatchObject({
        kind: 'invalid-input',
        field: 'name',
      });
      expect(await fail(reopened.updateOutbox({ id: list[1]!.id, input: { name: 'x', parentId: 0, more: 1 } }))).toMatchObject({
        kind: 'invalid-input',
        field: 'more',
      });
      await reopened.updateOutbox({ id: list[1]!.id, input: { name: 'Renamed before sending', parentId: 0 } });
      expect((await reopened.getCategoryTree()).all.some((c) => c.name === 'Renamed before sending' && c.pending)).toBe(true);
      // Retrying a pending entry changes nothing.
      expect((await reopened.retryOutbox({ id: list[0]!.id })).map((e) => e.status)).toEqual(['pending', 'pending']);
      await reopened.discardOutbox({ id: list[0]!.id });
      expect((await reopened.listAccounts({})).accounts.some((a) => a.name === 'Kept')).toBe(false);
    } finally {
      await reopened?.close();
      await done();
    }
  });
});

describe('transaction pages with pending transfers', () => {
  it('merge pending and stored transactions newest first, for every offset, limit and search', async () => {
    const { core, done } = await syncedDemo();
    try {
      const id = demo.accounts.cash;
      const dates = ['2099-01-01T00:00', '2026-06-15T12:00', '2020-01-01T00:00', '2026-10-08T01:16'];
      for (const [i, d] of dates.entries()) {
        await core.transfer({
          sourceId: id,
          targetId: demo.accounts.bank,
          amount: `${i + 1}`,
          paymentDate: d,
          categoryId: 0,
          description: `pending ${i} Nákup`,
        });
      }
      const all = (await core.listTransactions({ accountId: id, limit: 500 })).items;
      expect(all.filter((t) => t.pending)).toHaveLength(4);
      expect(isNewestFirst(all)).toBe(true);
      for (const search of [undefined, 'nákup', 'pending 1', 'zzz']) {
        const everything = (await core.listTransactions({ accountId: id, limit: 500, ...(search ? { search } : {}) })).items;
        for (const limit of [1, 3, 7, 50]) {
          for (let offset = 0; offset <= everything.length + 1; offset += 2) {
            const page = await core.listTransactions({ accountId: id, offset, limit, ...(search ? { search } : {}) });
            expect(page.total).toBe(everything.length);
            expect(page.items, `search ${search} offset ${offset} limit ${limit}`).toEqual(everything.slice(offset, offset + limit));
          }
        }
      }
    } finally {
      await done();
    }
  });
});

function isNewestFirst(items: TransactionView[]): boolean {
  return items.every((t, i) => i === 0 || items[i - 1]!.paymentDate >= t.paymentDate);
}

async function countStored(core: AppCore, accountId: number): Promise<number> {
  const all = await core.listTransactions({ accountId, limit: 500 });
  return all.items.filter((t) => !t.pending).length;
}

function decimalMinus(a: string, b: string): string {
  return text(units(a) - units(b));
}
