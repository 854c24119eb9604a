/** Search across the whole local history through a real core: every filter, paging, exact sums. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchResult } from '../../src-shared/app-api';
import { seededCore, type SeededCore, type TransactionSeed } from './local-data';

const CZK = 203;
const EUR = 978;
let local: SeededCore;
let pendingId = 0;

const t = (id: number, accountId: number, paymentDate: string, amount: string, description: string, categoryId = 0): TransactionSeed => ({
  id,
  accountId,
  paymentDate,
  amount,
  description,
  categoryId,
});

beforeAll(async () => {
  local = seededCore({
    accounts: [
      { id: 1, name: 'Current', currency: CZK, balance: '0' },
      { id: 2, name: 'Cash', currency: CZK, balance: '0' },
      { id: 3, name: 'Euro', currency: EUR, balance: '0' },
    ],
    categories: [
      { id: 10, name: 'Food', parentId: 0 },
      { id: 11, name: 'Groceries', parentId: 10 },
      { id: 111, name: 'Bakery', parentId: 11 },
      { id: 20, name: 'Car', parentId: 0 },
    ],
    transactions: [
      t(1, 1, '2019-05-01T10:00:00', '-120.5', 'ŠKODA service', 20),
      t(2, 1, '2020-01-02T10:00:00', '-0.1', 'Rohlík', 111),
      t(3, 1, '2020-01-02T10:00:00', '-0.2', 'Bread 100% rye', 11),
      t(4, 2, '2021-06-30T23:59:59', '-0.7', 'Coffee_shop', 10),
      t(5, 2, '2021-07-01T00:00:00', '1500', 'Salary', 0),
      t(6, 3, '2022-02-02T08:00:00', '-12.34', 'Vienna bakery', 111),
      t(7, 1, '2023-03-03T08:00:00', '120.5', 'Refund of service', 20),
    ],
  });
  const pending = await local.core.transfer({
    sourceId: 1,
    targetId: 2,
    amount: '50',
    paymentDate: '2021-07-01T00:00',
    categoryId: 10,
    description: 'Škoda pending',
  });
  pendingId = pending.id;
});
afterAll(() => local.done());

const search = (input: Parameters<SeededCore['core']['searchTransactions']>[0]): Promise<SearchResult> =>
  local.core.searchTransactions(input);
const ids = async (input: Parameters<SeededCore['core']['searchTransactions']>[0]) => (await search(input)).items.map((i) => i.id);

describe('searchTransactions', () => {
  it('lists everything newest first, pending transfers included, with account and currency', async () => {
    const all = await search({});
    expect(all.total).toBe(9);
    // The transfer's two sides: the source on account 1 (the id the write returned), the target on account 2.
    expect(all.items.map((i) => i.id)).toEqual([7, 6, 5, pendingId, pendingId - 1, 4, 3, 2, 1]);
    expect(all.items[0]).toMatchObject({
      id: 7,
      accountName: 'Current',
      currency: CZK,
      categoryName: 'Car',
      pending: false,
      amount: '120.5',
    });
    expect(all.items.find((i) => i.id === pendingId)).toMatchObject({ pending: true, accountId: 1, amount: '-50', accountName: 'Current' });
    // Exact sums per currency over every match: 1500 - 120.5 + 120.5 - 0.1 - 0.2 - 0.7 - 50 + 50 = 1499
    expect(all.sums).toEqual([
      { currency: CZK, total: '1499', count: 8 },
      { currency: EUR, total: '-12.34', count: 1 },
    ]);
  });

  it('matches text in the description, the category name or the amount, case-insensitively beyond ASCII', async () => {
    expect(await ids({ text: 'škoda' })).toEqual([pendingId, pendingId - 1, 1]);
    expect(await ids({ text: 'ROHLÍK' })).toEqual([2]);
    expect(await ids({ text: 'bakery' })).toEqual([6, 2]);
    expect(await ids({ text: '120,5' })).toEqual([7, 1]);
    expect(await ids({ text: '-0.7' })).toEqual([4]);
    // LIKE wildcards are plain characters.
    expect(await ids({ text: '100%' })).toEqual([3]);
    expect(await ids({ text: '_' })).toEqual([4]);
    expect(await ids({ text: '%' })).toEqual([3]);
  });

  it("bounds the amount's size inclusively and filters by direction", async () => {
    expect(await ids({ minAmount: '0.2', maxAmount: '12.34' })).toEqual([6, 4, 3]);
    expect(await ids({ minAmount: '120.5', direction: 'out' })).toEqual([1]);
    expect(await ids({ direction: 'in' })).toEqual([7, 5, pendingId - 1]);
    expect(await ids({ maxAmount: '0.1' })).toEqual([2]);
  });

  it('takes inclusive days, an account, a category with its descendants, or none', async () => {
    expect(await ids({ from: '2020-01-02', to: '2021-06-30' })).toEqual([4, 3, 2]);
    expect(await ids({ from: '2021-07-01', to: '2021-07-01' })).toEqual([5, pendingId, pendingId - 1]);
    expect(await ids({ accountId: 2 })).toEqual([5, pendingId - 1, 4]);
    expect(await ids({ categoryId: 10 })).toEqual([6, pendingId, pendingId - 1, 4, 3, 2]);
    expect(await ids({ categoryId: 11, accountId: 1 })).toEqual([3, 2]);
    expect(await ids({ categoryId: 0 })).toEqual([5]);
    expect(await ids({ categoryId: 12345 })).toEqual([]);
    expect(await ids({ text: 'bakery', accountId: 3, from: '2022-01-01' })).toEqual([6]);
  });

  it('pages with offset and limit, total and sums over all matches', async () => {
    const page = await search({ offset: 2, limit: 3, accountId: 1 });
    expect(page).toMatchObject({ total: 5, offset: 2, limit: 3 });
    expect(page.items.map((i) => i.id)).toEqual([3, 2, 1]);
    expect(page.sums).toEqual([{ currency: CZK, total: '-50.3', count: 5 }]);
    expect((await search({ offset: 50 })).items).toEqual([]);
    expect((await search({})).limit).toBe(50);
  });

  it('refuses bad filters', async () => {
    const errorOf = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: unknown) => e,
      );
    expect(await errorOf(search({ accountId: 99 }))).toMatchObject({ kind: 'not-found', field: 'accountId' });
    expect(await errorOf(search({ from: '2022-01-02', to: '2022-01-01' }))).toMatchObject({ kind: 'invalid-input', field: 'to' });
    expect(await errorOf(search({ minAmount: '5', maxAmount: '1' }))).toMatchObject({ kind: 'invalid-input', field: 'maxAmount' });
    expect(await errorOf(search({ minAmount: '-1' }))).toMatchObject({ kind: 'invalid-input', field: 'minAmount' });
    expect(await errorOf(search({ direction: 'up' as never }))).toMatchObject({ kind: 'invalid-input', field: 'direction' });
    expect(await errorOf(search({ limit: 501 }))).toMatchObject({ kind: 'invalid-input', field: 'limit' });
  });
});
