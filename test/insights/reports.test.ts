/** Reports through a real core: totals equal the exact sums of their transactions, categories, balances. */
import { afterEach, describe, expect, it } from 'vitest';
import type { CategoryReport, IncomeExpense } from '../../src-shared/app-api';
import { seededCore, type SeededCore, type TransactionSeed } from './local-data';

let local: SeededCore;
afterEach(() => local?.done());

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

const CZK = 203;
const EUR = 978;
const accounts = [
  { id: 1, name: 'Current', currency: CZK, balance: '1000' },
  { id: 2, name: 'Savings', currency: CZK, balance: '500', isHidden: true },
  { id: 3, name: 'Euro', currency: EUR, balance: '20' },
  { id: 4, name: 'Closed', currency: CZK, balance: '0', isActive: false },
];
const categories = [
  { id: 10, name: 'Food', parentId: 0 },
  { id: 11, name: 'Groceries', parentId: 10 },
  { id: 12, name: 'Restaurants', parentId: 10 },
  { id: 20, name: 'Salary', parentId: 0 },
  { id: 30, name: 'Car', parentId: 0 },
  { id: 31, name: 'Fuel', parentId: 30 },
  { id: 311, name: 'Diesel', parentId: 31 },
];

let ids = 1000;
const tx = (accountId: number, paymentDate: string, amount: string, more: Partial<TransactionSeed> = {}): TransactionSeed => ({
  id: ids++,
  accountId,
  paymentDate: `${paymentDate}T12:00:00`,
  amount,
  ...more,
});

const flow = (income: string, expense: string, net: string, count: number): IncomeExpense => ({ income, expense, net, count });

describe('totals', () => {
  it('are the exact sums of their transactions, with transfers left out unless asked for', async () => {
    local = seededCore({
      accounts,
      categories,
      transactions: [
        tx(1, '2026-01-03', '0.1', { categoryId: 20, type: 1 }),
        tx(1, '2026-01-04', '0.2', { categoryId: 20, type: 1 }),
        tx(2, '2026-02-05', '0.7', { categoryId: 20, type: 1 }),
        tx(1, '2026-01-06', '-0.1', { categoryId: 11 }),
        tx(1, '2026-02-07', '-0.2', { categoryId: 12 }),
        tx(2, '2026-02-08', '-0.7', { categoryId: 311 }),
        tx(1, '2026-02-09', '-100', { categoryId: 0, type: 3 }),
        tx(2, '2026-02-09', '100', { categoryId: 0, type: 3 }),
        tx(1, '2026-01-10', '-5', { categoryId: 999 }),
        // Outside the period, and another currency:
        tx(1, '2025-12-31', '-1000'),
        tx(1, '2026-03-01', '-30'),
        tx(3, '2026-01-15', '-7'),
      ],
    });
    const r = await local.core.getReport({ from: '2026-01-01', to: '2026-02-28' });
    expect(r).toMatchObject({
      currency: CZK,
      from: '2026-01-01',
      to: '2026-02-28',
      months: ['2026-01', '2026-02'],
      accountIds: [1, 2, 4],
      includeTransfers: false,
      currencies: [CZK, EUR],
    });
    // 0.1 + 0.2 + 0.7 = 1 exactly; 0.1 + 0.2 + 0.7 + 5 = 6
    expect(r.total).toEqual(flow('1', '6', '-5', 7));
    expect(r.byMonth).toEqual([flow('0.3', '5.1', '-4.8', 4), flow('0.7', '0.9', '-0.2', 3)]);
    expect(r.categories.map((c) => [c.categoryId, c.name, c.income, c.expense, c.count])).toEqual([
      [999, null, '0', '5', 1],
      [30, 'Car', '0', '0.7', 1],
      [10, 'Food', '0', '0.3', 2],
      [20, 'Salary', '1', '0', 3],
    ]);
    expect(r.categories.find((c) => c.categoryId === 10)!.byMonth).toEqual([flow('0', '0.1', '-0.1', 1), flow('0', '0.2', '-0.2', 1)]);

    const withTransfers = await local.core.getReport({ from: '2026-01-01', to: '2026-02-28', includeTransfers: true });
    expect(withTransfers.total).toEqual(flow('101', '106', '-5', 9));
    expect(withTransfers.categories.find((c) => c.categoryId === 0)).toMatchObject({
      name: null,
      income: '100',
      expense: '100',
      net: '0',
      count: 2,
    });

    const euro = await local.core.getReport({ from: '2026-01-01', to: '2026-02-28', currency: EUR });
    expect(euro).toMatchObject({ currency: EUR, accountIds: [3], total: flow('0', '7', '-7', 1) });
    const one = await local.core.getReport({ from: '2026-01-01', to: '2026-02-28', accountIds: [2] });
    expect(one.total).toEqual(flow('0.7', '0.7', '0', 2));

    // A drill-down into each row lists exactly what the row counted: same accounts, no transfers, same days.
    for (const report of [r, one, withTransfers]) {
      for (const row of report.categories) {
        const found = await local.core.searchTransactions({
          categoryId: row.categoryId,
          from: report.from,
          to: report.to,
          accountIds: report.accountIds,
          excludeTransfers: !report.includeTransfers,
          limit: 500,
        });
        expect(found.total, `category ${row.categoryId}`).toBe(row.count);
        expect(
          found.sums.map((x) => x.total),
          `category ${row.categoryId}`,
        ).toEqual(row.count ? [row.net] : []);
      }
    }
  });

  it('equal independent BigInt sums over thousands of random transactions, per month and category', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const tops = new Map([
      [0, 0],
      [10, 10],
      [11, 10],
      [12, 10],
      [20, 20],
      [30, 30],
      [31, 30],
      [311, 30],
    ]);
    const catIds = [...tops.keys()];
    const list: TransactionSeed[] = [];
    const expected = { income: new Map<string, bigint>(), expense: new Map<string, bigint>() };
    const bump = (m: Map<string, bigint>, key: string, cents: bigint) => m.set(key, (m.get(key) ?? 0n) + cents);
    for (let n = 0; n < 3000; n++) {
      const cents = BigInt(Math.floor(random() * 2_000_000) - 1_000_000);
      const month = 1 + Math.floor(random() * 12);
      const day = 1 + Math.floor(random() * 28);
      const categoryId = catIds[Math.floor(random() * catIds.length)]!;
      const negative = cents < 0n;
      const size = negative ? -cents : cents;
      const amount = `${negative ? '-' : ''}${size / 100n}.${String(size % 100n).padStart(2, '0')}`;
      const date = `2025-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
      list.push(tx(1 + (n % 2), date, amount, { categoryId }));
      const m = date.slice(0, 7);
      const top = tops.get(categoryId)!;
      for (const key of ['all', m, `c${top}`, `c${top}:${m}`]) bump(negative ? expected.expense : expected.income, key, size);
    }
    local = seededCore({ accounts, categories, transactions: list });
    const r = await local.core.getReport({ from: '2025-01-01', to: '2025-12-31' });
    const money = (cents: bigint | undefined) => {
      const c = cents ?? 0n;
      const text = `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;
      return text.replace(/\.?0+$/, '') || '0';
    };
    const check = (got: IncomeExpense, key: string) => {
      expect(got.income, `income ${key}`).toBe(money(expected.income.get(key)));
      expect(got.expense, `expense ${key}`).toBe(money(expected.expense.get(key)));
    };
    check(r.total, 'all');
    expect(r.total.count).toBe(3000);
    r.months.forEach((m, k) => check(r.byMonth[k]!, m));
    expect(r.categories.map((c) => c.categoryId).sort((a, b) => a - b)).toEqual([0, 10, 20, 30]);
    for (const c of r.categories) {
      check(c, `c${c.categoryId}`);
      r.months.forEach((m, k) => check(c.byMonth[k]!, `c${c.categoryId}:${m}`));
    }
    // Sorted by expense, largest first.
    const expenses = r.categories.map((c) => Number(c.expense));
    expect(expenses).toEqual([...expenses].sort((a, b) => b - a));
  });
});

describe('balances', () => {
  const history = () => [tx(1, '2026-01-10', '200'), tx(1, '2026-02-05', '-50'), tx(1, '2026-03-01', '-30'), tx(2, '2026-01-20', '-10')];

  it('are worked back from the balance now, by day for short periods', async () => {
    local = seededCore({ accounts, categories, transactions: history() });
    const r = await local.core.getReport({ from: '2026-01-01', to: '2026-02-28' });
    const current = r.balances.find((b) => b.accountId === 1)!;
    expect(current.name).toBe('Current');
    expect(current.points).toHaveLength(59);
    const at = (date: string) => current.points.find((p) => p.date === date)?.balance;
    // 1000 now, less the -30 of March: 1030 at the end of February; before the -50: 1080; before the +200: 880.
    expect([at('2026-01-01'), at('2026-01-09'), at('2026-01-10'), at('2026-02-04'), at('2026-02-05'), at('2026-02-28')]).toEqual([
      '880',
      '880',
      '1080',
      '1080',
      '1030',
      '1030',
    ]);
    const savings = r.balances.find((b) => b.accountId === 2)!;
    expect([savings.points[0]!.balance, savings.points.at(-1)!.balance]).toEqual(['510', '500']);
  });

  it('by month end (the last clamped to the period) for longer ones, pending transfers included', async () => {
    local = seededCore({ accounts, categories, transactions: history() });
    await local.core.transfer({
      sourceId: 1,
      targetId: 2,
      amount: '0.3',
      paymentDate: '2026-02-10T09:00',
      categoryId: 0,
      description: 'Pending',
    });
    const r = await local.core.getReport({ from: '2025-12-01', to: '2026-02-15' });
    // Now 999.7 (the pending -0.3 laid over 1000); less -30 of March: 1029.7 on 2026-02-15.
    expect(r.balances.find((b) => b.accountId === 1)!.points).toEqual([
      { date: '2025-12-31', balance: '880' },
      { date: '2026-01-31', balance: '1080' },
      { date: '2026-02-15', balance: '1029.7' },
    ]);
    expect(r.balances.find((b) => b.accountId === 2)!.points.map((p) => p.balance)).toEqual(['510', '500', '500.3']);
    // The pending transfer is a transfer: out of the totals unless asked for.
    expect(r.total.count).toBe(3);
    const all = await local.core.getReport({ from: '2025-12-01', to: '2026-02-15', includeTransfers: true });
    expect(all.total).toEqual(flow('200.3', '60.3', '140', 5));
  });
});

describe('input', () => {
  it('refuses a period that ends before it starts, accounts of another currency, unknown accounts', async () => {
    local = seededCore({ accounts, categories, transactions: [] });
    const { core } = local;
    expect(await errorOf(core.getReport({ from: '2026-02-01', to: '2026-01-31' }))).toMatchObject({ kind: 'invalid-input', field: 'to' });
    expect(await errorOf(core.getReport({ from: '1900-01-01', to: '2026-01-31' }))).toMatchObject({ kind: 'invalid-input', field: 'to' });
    expect(await errorOf(core.getReport({ from: '2026-01-01', to: '2026-01-31', accountIds: [3] }))).toMatchObject({
      kind: 'invalid-input',
      field: 'accountIds',
    });
    expect(await errorOf(core.getReport({ from: '2026-01-01', to: '2026-01-31', accountIds: [42] }))).toMatchObject({
      kind: 'invalid-input',
      field: 'accountIds',
    });
    expect(await errorOf(core.getReport({ from: '2026-01-01', to: '2026-13-01' }))).toMatchObject({ kind: 'invalid-input', field: 'to' });
    expect(await errorOf(core.getReport({ from: '2026-01-01', to: '2026-01-31', currency: 0 }))).toMatchObject({
      kind: 'invalid-input',
      field: 'currency',
    });
    const empty: CategoryReport = await core.getReport({ from: '2026-01-01', to: '2026-01-01', currency: 840 });
    expect(empty).toMatchObject({ accountIds: [], categories: [], balances: [], total: flow('0', '0', '0', 0), months: ['2026-01'] });
  });
});
