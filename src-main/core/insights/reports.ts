/**
 * Income and expense by top-level category and month, and balances over time, for a period and the
 * accounts of one currency, over the whole local history (stored transactions and pending ones).
 *
 * - Accounts: those given (all of the report's currency, else refused), or every account of the
 *   currency, hidden and inactive ones included. The default currency is the one most accounts have
 *   (on a tie the lowest code).
 * - Income is the sum of positive amounts, expense the sum of the negative ones' sizes. Transfers
 *   (transaction Type 3, or the type the service was seen to give them) move money between the user's
 *   own accounts and are left out unless asked for.
 * - A transaction counts for its category's top-level ancestor; category 0 is a row of its own (name
 *   null), and so is an id the category tree does not know.
 * - Budgets (kept here only, budgets/): each top-level row carries its branch's budgets over every month the
 *   period touches, in the report's currency, against what the row spent (its expense less its income); a
 *   top-level category with a budget has a row even when nothing was spent in it.
 * - Balances: at the end of each day (periods up to 62 days) or month (the last clamped to the period's
 *   end), worked backwards from the account's balance now (pending writes included) by taking away
 *   every later transaction, transfers included.
 *
 * Every sum is exact. SQLite groups and sums, never handing the rows themselves over (the store's
 * report queries, store/report-queries.ts): whole months of the period from the totals kept per month,
 * the days of a short period and the parts of months at its ends from the rows, the rows after the
 * period's end (for the balances) as one sum per account.
 */
import {
  AppError,
  type BalanceSeries,
  type BudgetCell,
  type CategoryReport,
  type CategoryRow,
  type IncomeExpense,
  type InputOf,
} from '../../../src-shared/app-api';
import { addMonths, daysBetween, daysFrom, endOfDay, monthEnd, monthsFrom } from '../../../src-shared/calendar';
import { compare, DecimalSum, formatDecimal, parseDecimal, subtract, ZERO, type Decimal } from '../../../src-shared/money';
import type { CoreParts } from '../app/core-parts';
import { branchBudgets, budgetCell } from '../budgets/budget-view';
import { transferTypeOf } from '../outbox/learned';
import type { ViewAccount, ViewCategory } from '../outbox/view-state';
import type { PeriodPart } from '../store/report-queries';
import { ancestry } from './category-tree';
import { mostCommonCurrency } from './currency';

/** Daily balance points up to this many days, month ends beyond. */
const DAILY_UP_TO = 62;
/** A hundred years of months: beyond that a report is a mistake, not a question. */
const MAX_MONTHS = 1200;
const FALLBACK_CURRENCY = 203;

class Flow {
  private readonly income = new DecimalSum();
  private readonly expense = new DecimalSum();
  private count = 0;

  /** A group of rows: the sum of their positive amounts, of their negative ones, and how many. */
  addGroup(income: Decimal, expense: Decimal, count: number): void {
    this.income.add(income);
    this.expense.subtract(expense);
    this.count += count;
  }

  view(): IncomeExpense {
    const income = this.income.value;
    const expense = this.expense.value;
    return {
      income: formatDecimal(income),
      expense: formatDecimal(expense),
      net: formatDecimal(subtract(income, expense)),
      count: this.count,
    };
  }
}

/** A total and one per month. */
class MonthlyFlow {
  readonly total = new Flow();
  readonly months: Flow[];

  constructor(months: number) {
    this.months = Array.from({ length: months }, () => new Flow());
  }

  addGroup(month: number, income: Decimal, expense: Decimal, count: number): void {
    this.total.addGroup(income, expense, count);
    this.months[month]!.addGroup(income, expense, count);
  }
}

/** Each category's top-level ancestor; an id outside the tree is its own. */
function topLevel(categories: Map<number, ViewCategory>): (id: number) => number {
  const memo = new Map<number, number>();
  return (id) => {
    let top = memo.get(id);
    if (top === undefined) memo.set(id, (top = ancestry(categories, id).at(-1)?.id ?? id));
    return top;
  };
}

function chosenAccounts(
  parts: CoreParts,
  all: readonly ViewAccount[],
  currency: number,
  ids: readonly number[] | undefined,
): ViewAccount[] {
  if (ids === undefined) return all.filter((a) => a.currency === currency);
  const chosen = new Map<number, ViewAccount>();
  for (const id of ids) {
    const a = parts.view.account(id);
    if (!a) throw new AppError('reportAccountMissing', { id }, 'accountIds');
    if (a.currency !== currency) throw new AppError('accountOutsideCurrency', { name: a.name }, 'accountIds');
    chosen.set(a.id, a);
  }
  return [...chosen.values()];
}

/**
 * The period split for the store's sums (store/report-queries.ts). A daily report (a short period) reads its
 * days by date. A monthly one reads its whole months by month (the index that groups without sorting) and
 * the parts of months at either end by date.
 */
function periodParts(from: string, to: string, daily: boolean): PeriodPart[] {
  const dates = (start: string, end: string, bucket: 'day' | 'month'): PeriodPart => ({ dates: { start, end }, bucket });
  if (daily) return [dates(from, endOfDay(to), 'day')];
  const first = from.endsWith('-01') ? from.slice(0, 7) : addMonths(from.slice(0, 7), 1);
  const last = to === monthEnd(to.slice(0, 7)) ? to.slice(0, 7) : addMonths(to.slice(0, 7), -1);
  if (first > last) return [dates(from, endOfDay(to), 'month')];
  const parts: PeriodPart[] = [{ months: { first, last } }];
  if (`${first}-01` > from) parts.push(dates(from, `${first}-01`, 'month'));
  const after = `${addMonths(last, 1)}-01`;
  if (after <= to) parts.push(dates(after, endOfDay(to), 'month'));
  return parts;
}

export function categoryReport(parts: CoreParts, i: InputOf<'getReport'>): CategoryReport {
  if (i.from > i.to) throw new AppError('periodReversed', {}, 'to');
  const grid = reportGrid(i.from, i.to);
  const all = parts.view.accounts();
  const currency = i.currency ?? mostCommonCurrency(all) ?? parts.preferences().lastCurrency ?? FALLBACK_CURRENCY;
  const accounts = chosenAccounts(parts, all, currency, i.accountIds);
  const includeTransfers = i.includeTransfers ?? false;

  const categories = new Map(parts.view.categories().map((c) => [c.id, c]));
  const leftOut = includeTransfers ? null : transferTypeOf(parts.view.learned());
  const top = topLevel(categories);
  const tally = new Tally(grid, accounts, top, leftOut);
  const ids = accounts.map((a) => a.id);
  addStored(parts, tally, ids, i, grid.daily);
  addPending(parts, tally, ids, i);
  const rows = tally.categoryRows(categories, branchBudgets(parts, currency, grid.months, categories, top));

  return {
    currency,
    from: i.from,
    to: i.to,
    months: grid.months,
    accountIds: ids,
    includeTransfers,
    total: tally.total.total.view(),
    byMonth: tally.total.months.map((m) => m.view()),
    categories: rows,
    budget: budgetTotal(rows),
    balances: tally.balances(accounts),
    currencies: [...new Set(all.map((a) => a.currency))].sort((a, b) => a - b),
  };
}

/** The months of a report's period, and the points of its balances: each day of a short period, else each month's end. */
interface Grid {
  months: string[];
  daily: boolean;
  points: string[];
}

function reportGrid(from: string, to: string): Grid {
  const months = monthsFrom(from, to);
  if (months.length > MAX_MONTHS) throw new AppError('reportTooLong', { years: MAX_MONTHS / 12 }, 'to');
  const daily = daysBetween(from, to) < DAILY_UP_TO;
  const points = daily ? daysFrom(from, to) : months.map((m) => (monthEnd(m) < to ? monthEnd(m) : to));
  return { months, daily, points };
}

/**
 * A report's sums as they are gathered: income and expense by month, in total and per top-level
 * category, and each account's net moves per balance point and after the period.
 */
class Tally {
  readonly total: MonthlyFlow;
  private readonly byCategory = new Map<number, MonthlyFlow>();
  private readonly moves: Map<number, { later: DecimalSum; points: DecimalSum[] }>;
  private readonly monthOf: Map<string, number>;
  private readonly pointOf: Map<string, number>;
  /** The length of a bucket's key that names its point: a day's, or a month's. */
  private readonly pointKey: number;

  constructor(
    private readonly grid: Grid,
    accounts: readonly ViewAccount[],
    private readonly top: (categoryId: number) => number,
    /** The type of the transfers left out; null when they count. */
    private readonly leftOut: number | null,
  ) {
    this.total = new MonthlyFlow(grid.months.length);
    this.monthOf = new Map(grid.months.map((m, index) => [m, index]));
    this.pointOf = new Map((grid.daily ? grid.points : grid.months).map((key, index) => [key, index]));
    this.pointKey = grid.daily ? 10 : 7;
    this.moves = new Map(accounts.map((a) => [a.id, { later: new DecimalSum(), points: grid.points.map(() => new DecimalSum()) }]));
  }

  /** Rows of a bucket (a day or month of the period), category and type, over the report's accounts. */
  flow(bucket: string, categoryId: number, type: number, income: Decimal, expense: Decimal, n: number): void {
    if (type === this.leftOut) return;
    const month = this.monthOf.get(bucket.slice(0, 7))!;
    this.total.addGroup(month, income, expense, n);
    const categoryTop = this.top(categoryId);
    let flow = this.byCategory.get(categoryTop);
    if (!flow) this.byCategory.set(categoryTop, (flow = new MonthlyFlow(this.grid.months.length)));
    flow.addGroup(month, income, expense, n);
  }

  /** The net of one account's rows in a bucket, for its balances. */
  move(accountId: number, bucket: string, net: Decimal): void {
    this.moves.get(accountId)!.points[this.pointOf.get(bucket.slice(0, this.pointKey))!]!.add(net);
  }

  /** The net of one account's rows after the period. */
  later(accountId: number, net: Decimal): void {
    this.moves.get(accountId)!.later.add(net);
  }

  /** One row per top-level category (and per one with a budget), the largest expense first; each with its branch's budget. */
  categoryRows(categories: Map<number, ViewCategory>, budgets: ReadonlyMap<number, Decimal>): CategoryRow[] {
    for (const id of budgets.keys()) if (!this.byCategory.has(id)) this.byCategory.set(id, new MonthlyFlow(this.grid.months.length));
    const rows: CategoryRow[] = [...this.byCategory].map(([categoryId, flow]) => {
      const total = flow.total.view();
      const budget = budgets.get(categoryId);
      return {
        categoryId,
        name: categoryId === 0 ? null : (categories.get(categoryId)?.name ?? null),
        ...total,
        byMonth: flow.months.map((m) => m.view()),
        budget: budget === undefined ? null : budgetCell(budget, spentOf(total)),
      };
    });
    return rows.sort(
      (a, b) => compareDecimalText(b.expense, a.expense) || compareDecimalText(b.income, a.income) || a.categoryId - b.categoryId,
    );
  }

  /** Each account's balance at each point: its balance now, less what came later, worked backwards. */
  balances(accounts: readonly ViewAccount[]): BalanceSeries[] {
    const { points } = this.grid;
    return accounts.map((a) => {
      const moves = this.moves.get(a.id)!;
      const running = new DecimalSum();
      running.add(parseDecimal(a.balance) ?? ZERO);
      running.subtract(moves.later.value);
      const values: string[] = new Array<string>(points.length);
      for (let k = points.length - 1; k >= 0; k--) {
        values[k] = formatDecimal(running.value);
        running.subtract(moves.points[k]!.value);
      }
      return { accountId: a.id, name: a.name, points: points.map((date, k) => ({ date, balance: values[k]! })) };
    });
  }
}

/** The stored rows' sums, grouped by SQLite: the period's parts, then what came after it per account. */
function addStored(parts: CoreParts, tally: Tally, ids: number[], i: InputOf<'getReport'>, daily: boolean): void {
  // The flows across accounts filter the rows by account, unless every stored row is of these accounts.
  const stored = { ids, othersStored: parts.store.accounts.hasOthersThan(ids) };
  for (const part of periodParts(i.from, i.to, daily)) {
    for (const g of parts.store.reports.flows(part, stored)) tally.flow(g.bucket, g.categoryId, g.type, g.income, g.expense, g.count);
    for (const m of parts.store.reports.moves(part, stored)) tally.move(m.accountId, m.bucket, m.net);
  }
  for (const [accountId, net] of parts.store.reports.netAfter(stored, endOfDay(i.to))) tally.later(accountId, net);
}

/** The pending transactions of the report's accounts, one by one: in the period, or after it. */
function addPending(parts: CoreParts, tally: Tally, ids: number[], i: InputOf<'getReport'>): void {
  for (const id of ids) {
    for (const t of parts.view.pendingTransactions(id)) {
      if (t.paymentDate < i.from) continue;
      const amount = parseDecimal(t.amount) ?? ZERO;
      const day = t.paymentDate.slice(0, 10);
      if (day > i.to) {
        tally.later(id, amount);
        continue;
      }
      tally.move(id, day, amount);
      tally.flow(day, t.categoryId, t.type, amount.units > 0n ? amount : ZERO, amount.units < 0n ? amount : ZERO, 1);
    }
  }
}

const compareDecimalText = (a: string, b: string): number => compare(parseDecimal(a)!, parseDecimal(b)!);

/** What a row spent against its budget: its expense less its income. */
const spentOf = (flow: IncomeExpense): Decimal => subtract(parseDecimal(flow.expense)!, parseDecimal(flow.income)!);

/** The budgets of every row against what those rows spent; null when no row has one. */
function budgetTotal(rows: readonly CategoryRow[]): BudgetCell | null {
  const budgeted = rows.filter((r) => r.budget !== null);
  if (budgeted.length === 0) return null;
  const budget = new DecimalSum();
  const spent = new DecimalSum();
  for (const r of budgeted) {
    budget.add(parseDecimal(r.budget!.budget!)!);
    spent.add(spentOf(r));
  }
  return budgetCell(budget.value, spent.value);
}
