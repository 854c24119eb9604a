/**
 * Budgets through a real core on a real SQLite copy: a household's year (12 monthly budgets over 10
 * categories, a random history of a fixed seed) against an independent oracle that sums the generated
 * transactions here with BigInts (test/support/decimal-oracle.ts, not the app's money code); a month worked
 * by hand; "same as last month"; the checks of a budget; kept here only (never in the outbox); the budgets of a
 * category created offline following it to the service's id.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src-main/core/store/store';
import { outboxPort } from '../../src-main/core/write-kinds/outbox-port';
import type { BudgetCell, BudgetView } from '../../src-shared/app-api';
import { seededCore, type SeededCore, type TransactionSeed } from '../insights/local-data';
import { cents, text, units } from '../support/decimal-oracle';
import { seededRandom } from '../support/fault-proxy';
import { testSeed } from '../support/seed';

let local: SeededCore | undefined;
afterEach(async () => {
  await local?.done();
  local = undefined;
});

const CZK = 203;
const EUR = 978;
const TRANSFER = 3;
const accounts = [
  { id: 1, name: 'Current', currency: CZK, balance: '50000' },
  { id: 2, name: 'Card', currency: CZK, balance: '3000' },
  { id: 3, name: 'Euro', currency: EUR, balance: '400' },
];
const categories = [
  { id: 10, name: 'Food', parentId: 0 },
  { id: 11, name: 'Groceries', parentId: 10 },
  { id: 12, name: 'Restaurants', parentId: 10 },
  { id: 20, name: 'Housing', parentId: 0 },
  { id: 21, name: 'Energy', parentId: 20 },
  { id: 30, name: 'Car', parentId: 0 },
  { id: 31, name: 'Fuel', parentId: 30 },
  { id: 32, name: 'Service', parentId: 30 },
  { id: 40, name: 'Leisure', parentId: 0 },
  { id: 50, name: 'Health', parentId: 0 },
  { id: 60, name: 'Clothes', parentId: 0 },
  { id: 70, name: 'Salary', parentId: 0 },
];
/** The ten budgeted categories: Food with both its children (which are then inner), Housing with Energy, Car's two children. */
const BUDGETED = [10, 11, 12, 20, 21, 31, 32, 40, 50, 60];
const MONTHS = Array.from({ length: 12 }, (_, k) => `2026-${String(k + 1).padStart(2, '0')}`);

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

// ---- the oracle: its own tree walk and sums ---------------------------------------------------------------

const currencyOf = new Map(accounts.map((a) => [a.id, a.currency]));
/** The category and every one below it, by the seed's parent links. */
function branch(id: number): Set<number> {
  const out = new Set([id]);
  for (let grew = true; grew;) {
    grew = false;
    for (const c of categories) {
      if (out.has(c.parentId) && !out.has(c.id)) {
        out.add(c.id);
        grew = true;
      }
    }
  }
  return out;
}
const topOf = (id: number): number => {
  let c = categories.find((x) => x.id === id);
  while (c && c.parentId !== 0) c = categories.find((x) => x.id === c!.parentId);
  return c?.id ?? id;
};

/** Spent (−amount summed) in the branch over the rows of the currency, not transfers, paid from `from` to `to` (dates, inclusive). */
function spent(rows: readonly TransactionSeed[], currency: number, id: number, from: string, to: string): bigint {
  const ids = branch(id);
  let sum = 0n;
  for (const r of rows) {
    const day = r.paymentDate.slice(0, 10);
    if (currencyOf.get(r.accountId) !== currency || r.type === TRANSFER || day < from || day > to) continue;
    if (ids.has(r.categoryId ?? 0)) sum -= units(r.amount);
  }
  return sum;
}
const monthSpent = (rows: readonly TransactionSeed[], currency: number, id: number, month: string) =>
  spent(rows, currency, id, `${month}-01`, `${month}-31`);

function cell(budget: bigint | null, spentUnits: bigint): BudgetCell {
  if (budget === null) return { budget: null, spent: text(spentUnits), difference: null, state: null };
  const d = budget - spentUnits;
  return { budget: text(budget), spent: text(spentUnits), difference: text(d), state: d < 0n ? 'over' : d > 0n ? 'under' : 'even' };
}
function sumCells(cells: readonly { budget: bigint | null; spent: bigint }[]): BudgetCell {
  const any = cells.some((c) => c.budget !== null);
  return cell(
    any ? cells.reduce((s, c) => s + (c.budget ?? 0n), 0n) : null,
    cells.reduce((s, c) => s + c.spent, 0n),
  );
}

// ---- a household's year -----------------------------------------------------------------------------------

function householdYear(random: () => number): TransactionSeed[] {
  const between = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  const rows: TransactionSeed[] = [];
  let id = 1;
  const ids = [...categories.map((c) => c.id), 0, 999];
  for (let n = 0; n < 900; n++) {
    const month = MONTHS[between(0, 11)]!;
    const day = String(between(1, 28)).padStart(2, '0');
    const roll = random();
    const amount = roll < 0.12 ? cents(between(100, 500_000)) : cents(-between(1, 900_000));
    rows.push({
      id: id++,
      accountId: between(1, 3),
      paymentDate: `${month}-${day}T${String(between(0, 23)).padStart(2, '0')}:15:00`,
      amount,
      categoryId: ids[between(0, ids.length - 1)]!,
      type: random() < 0.08 ? TRANSFER : 2,
    });
  }
  // Just outside the year, on its edges.
  rows.push({ id: id++, accountId: 1, paymentDate: '2025-12-31T23:59:59', amount: '-777.77', categoryId: 11, type: 2 });
  rows.push({ id, accountId: 1, paymentDate: '2027-01-01T00:00:00', amount: '-888.88', categoryId: 11, type: 2 });
  return rows;
}

describe('a household year', () => {
  it('12 monthly budgets over 10 categories against what was spent, month, year and report, equal the oracle', async () => {
    const random = seededRandom(testSeed('BUDGET_SEED', 2026));
    const rows = householdYear(random);
    local = seededCore({ accounts, categories, transactions: rows });
    const { core } = local;
    const budgets = new Map<string, bigint>();
    for (const month of MONTHS) {
      for (const id of BUDGETED) {
        const amount = cents(Math.floor(random() * 900_000));
        budgets.set(`${month}:${id}`, units(amount));
        await core.setBudget({ month, categoryId: id, currency: CZK, amount });
      }
    }
    // A budget in euros stays apart: the crowns' views never see it.
    await core.setBudget({ month: '2026-05', categoryId: 10, currency: EUR, amount: '120.5' });
    // A transfer waiting to be sent is a transfer: it is no spending.
    await core.transfer({
      sourceId: 1,
      targetId: 2,
      amount: '5000',
      paymentDate: '2026-03-10T09:00',
      categoryId: 11,
      description: 'Moved',
    });
    const budget = (month: string, id: number) => budgets.get(`${month}:${id}`) ?? null;
    const inner = new Set([11, 12, 21]);
    const outer = BUDGETED.filter((id) => !inner.has(id));

    const year: BudgetView = await core.getBudgetYear({ year: 2026, currency: CZK });
    expect(year.months).toEqual(MONTHS);
    expect(year.rows.map((r) => [r.categoryId, r.depth, r.inner])).toEqual(
      BUDGETED.map((id) => [id, id % 10 === 0 ? 0 : 1, inner.has(id)]),
    );
    for (const row of year.rows) {
      const raw = MONTHS.map((m) => ({ budget: budget(m, row.categoryId), spent: monthSpent(rows, CZK, row.categoryId, m) }));
      expect(row.months, `category ${row.categoryId}`).toEqual(raw.map((c) => cell(c.budget, c.spent)));
      expect(row.total, `category ${row.categoryId}`).toEqual(sumCells(raw));
    }
    const outerCells = (m: string) => outer.map((id) => ({ budget: budget(m, id), spent: monthSpent(rows, CZK, id, m) }));
    expect(year.totals).toEqual(MONTHS.map((m) => sumCells(outerCells(m))));
    expect(year.total).toEqual(sumCells(MONTHS.flatMap(outerCells)));
    // Some months are over, some under: both are shown.
    const states = new Set(year.rows.flatMap((r) => r.months.map((c) => c.state)));
    expect(states).toEqual(new Set(['over', 'under']));

    // A month lists every category of the tree, budgeted or not.
    const march = await core.getBudgetMonth({ month: '2026-03' });
    expect(march).toMatchObject({ currency: CZK, months: ['2026-03'], previousMonthBudgets: BUDGETED.length, currencies: [CZK, EUR] });
    expect(march.rows.map((r) => r.categoryId)).toEqual(categories.map((c) => c.id));
    for (const row of march.rows) {
      expect(row.months[0], `category ${row.categoryId}`).toEqual(
        cell(budget('2026-03', row.categoryId), monthSpent(rows, CZK, row.categoryId, '2026-03')),
      );
    }
    const may = await core.getBudgetMonth({ month: '2026-05', currency: EUR });
    expect(may.rows.find((r) => r.categoryId === 10)!.months[0]).toEqual(cell(units('120.5'), monthSpent(rows, EUR, 10, '2026-05')));
    expect(may.rows.filter((r) => r.months[0]!.budget !== null)).toHaveLength(1);

    // The category report: each top-level row's branch, outer budgets of the months the period touches.
    for (const [from, to] of [
      ['2026-01-01', '2026-12-31'],
      ['2026-03-15', '2026-05-10'],
    ] as const) {
      const report = await core.getReport({ from, to, currency: CZK });
      const months = MONTHS.filter((m) => m >= from.slice(0, 7) && m <= to.slice(0, 7));
      const want = new Map<number, { budget: bigint; spent: bigint }>();
      for (const id of outer) {
        const top = topOf(id);
        const w = want.get(top) ?? { budget: 0n, spent: spent(rows, CZK, top, from, to) };
        for (const m of months) w.budget += budget(m, id) ?? 0n;
        want.set(top, w);
      }
      const label = `${from}..${to}`;
      for (const row of report.categories) {
        const w = want.get(row.categoryId);
        expect(row.budget, `${label} category ${row.categoryId}`).toEqual(w ? cell(w.budget, w.spent) : null);
      }
      expect(new Set(report.categories.filter((r) => r.budget).map((r) => r.categoryId))).toEqual(new Set(want.keys()));
      expect(report.budget, label).toEqual(sumCells([...want.values()]));
    }
  });

  it('a month worked by hand: refunds lower what was spent, inner budgets count once, over and under', async () => {
    const tx = (id: number, accountId: number, day: string, amount: string, categoryId: number): TransactionSeed => ({
      id,
      accountId,
      paymentDate: `2026-03-${day}T10:00:00`,
      amount,
      categoryId,
      type: 2,
    });
    local = seededCore({
      accounts,
      categories,
      transactions: [
        tx(1, 1, '02', '-1234.50', 11),
        tx(2, 2, '09', '-765.50', 11),
        tx(3, 1, '14', '-800', 12),
        tx(4, 1, '20', '300', 10),
        tx(5, 2, '21', '-1200.40', 31),
        tx(6, 3, '22', '-99', 31),
        tx(7, 1, '25', '45000', 70),
      ],
    });
    const { core } = local;
    await core.setBudget({ month: '2026-03', categoryId: 10, currency: CZK, amount: '5000' });
    await core.setBudget({ month: '2026-03', categoryId: 12, currency: CZK, amount: '500' });
    await core.setBudget({ month: '2026-03', categoryId: 31, currency: CZK, amount: '1000.00' });
    await core.setBudget({ month: '2026-03', categoryId: 40, currency: CZK, amount: '0' });
    const view = await core.getBudgetMonth({ month: '2026-03', currency: CZK });
    const of = (id: number) => view.rows.find((r) => r.categoryId === id)!.months[0];
    // Food: 1234.50 + 765.50 + 800 − 300 = 2500 of 5000.
    expect(of(10)).toEqual({ budget: '5000', spent: '2500', difference: '2500', state: 'under' });
    // Restaurants: 800 of 500, inside Food's budget.
    expect(of(12)).toEqual({ budget: '500', spent: '800', difference: '-300', state: 'over' });
    // Fuel: 1200.40 of 1000 (the euro account's 99 is another currency).
    expect(of(31)).toEqual({ budget: '1000', spent: '1200.4', difference: '-200.4', state: 'over' });
    expect(of(40)).toEqual({ budget: '0', spent: '0', difference: '0', state: 'even' });
    expect(of(70)).toEqual({ budget: null, spent: '-45000', difference: null, state: null });
    // Totals: Food, Fuel and Leisure (Restaurants is in Food's): 6000 budgeted, 3700.40 spent.
    expect(view.total).toEqual({ budget: '6000', spent: '3700.4', difference: '2299.6', state: 'under' });
    const report = await core.getReport({ from: '2026-03-01', to: '2026-03-31', currency: CZK });
    expect(report.categories.find((r) => r.categoryId === 30)!.budget).toEqual({
      budget: '1000',
      spent: '1200.4',
      difference: '-200.4',
      state: 'over',
    });
    // Leisure has a budget and nothing spent: a row of its own.
    expect(report.categories.find((r) => r.categoryId === 40)).toMatchObject({ expense: '0', budget: { budget: '0', state: 'even' } });
  });
});

describe('writing budgets', () => {
  it('"same as last month" copies what the month lacks, keeps what it has, and says how many', async () => {
    local = seededCore({ accounts, categories });
    const { core } = local;
    for (const [id, amount] of [
      [10, '4000'],
      [20, '12000'],
      [40, '1500.5'],
    ] as const) {
      await core.setBudget({ month: '2026-01', categoryId: id, currency: CZK, amount });
    }
    await core.setBudget({ month: '2026-02', categoryId: 20, currency: CZK, amount: '13000' });
    await core.setBudget({ month: '2026-01', categoryId: 50, currency: EUR, amount: '80' });
    const copy = await core.copyBudgetMonth({ month: '2026-02', currency: CZK });
    expect(copy).toMatchObject({ copied: 2, kept: 1 });
    const budgetsOf = (view: BudgetView) =>
      view.rows.filter((r) => r.months[0]!.budget !== null).map((r) => [r.categoryId, r.months[0]!.budget]);
    expect(budgetsOf(copy.view)).toEqual([
      [10, '4000'],
      [20, '13000'],
      [40, '1500.5'],
    ]);
    expect(await core.copyBudgetMonth({ month: '2026-02', currency: CZK })).toMatchObject({ copied: 0, kept: 3 });
    // Across a year's end, and nothing to copy.
    await core.setBudget({ month: '2025-12', categoryId: 60, currency: CZK, amount: '1' });
    expect(await core.copyBudgetMonth({ month: '2026-01', currency: CZK })).toMatchObject({ copied: 1, kept: 0 });
    expect(await core.copyBudgetMonth({ month: '2030-01', currency: CZK })).toMatchObject({ copied: 0, kept: 0 });
    const cleared = await core.clearBudget({ month: '2026-02', categoryId: 20, currency: CZK });
    expect(budgetsOf(cleared)).toEqual([
      [10, '4000'],
      [40, '1500.5'],
    ]);
  });

  it('refuses a month that is none, more decimals than the currency has, a negative amount and an unknown category', async () => {
    local = seededCore({ accounts, categories });
    const { core } = local;
    const set = (over: Record<string, unknown>) =>
      errorOf(core.setBudget({ month: '2026-01', categoryId: 10, currency: CZK, amount: '100', ...over }));
    expect(await set({ month: '2026-13' })).toMatchObject({ code: 'notMonth', field: 'month' });
    expect(await set({ month: '2026-1' })).toMatchObject({ code: 'tooShort', field: 'month' });
    expect(await set({ amount: '10.555' })).toMatchObject({ code: 'amountDecimals', field: 'amount', params: { max: 2 } });
    expect(await set({ amount: '-1' })).toMatchObject({ code: 'negative', field: 'amount' });
    expect(await set({ amount: 100 })).toMatchObject({ code: 'notDecimalText', field: 'amount' });
    expect(await set({ categoryId: 404 })).toMatchObject({ code: 'categoryMissing', field: 'categoryId' });
    expect(await errorOf(core.getBudgetYear({ year: 26 }))).toMatchObject({ code: 'tooSmall', field: 'year' });
    expect((await core.getBudgetYear({ year: 2026 })).rows).toEqual([]);
  });

  it('are kept here only: nothing is queued, the status has nothing to send', async () => {
    local = seededCore({ accounts, categories });
    const { core } = local;
    await core.setBudget({ month: '2026-01', categoryId: 10, currency: CZK, amount: '100' });
    await core.copyBudgetMonth({ month: '2026-02', currency: CZK });
    await core.clearBudget({ month: '2026-01', categoryId: 10, currency: CZK });
    expect(await core.listOutbox()).toEqual([]);
    expect((await core.getStatus()).outbox.pending).toBe(0);
  });

  it('follow a category created offline to the id the service gives it', async () => {
    local = seededCore({ accounts, categories });
    const { core, file } = local;
    const made = await core.addCategory({ name: 'Gifts', parentId: 0 });
    await core.setBudget({ month: '2026-12', categoryId: made.id, currency: CZK, amount: '2500' });
    await core.close();
    const store = new Store(file);
    store.transaction(() => outboxPort(store).replaceTempId('category', made.id, 88));
    expect(store.budgets.list(CZK, '2026-12', '2026-12')).toEqual([{ month: '2026-12', categoryId: 88, currency: CZK, amount: '2500' }]);
    store.close();
  });
});
