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
 * - Balances: at the end of each day (periods up to 62 days) or month (the last clamped to the period's
 *   end), worked backwards from the account's balance now (pending writes included) by taking away
 *   every later transaction, transfers included.
 *
 * Every sum is exact. SQLite groups and sums, never handing the rows themselves over: whole months of
 * the period from the totals kept per month, category, type and account (store/month-totals.ts); the
 * days of a short period and the parts of months at its ends from the rows, over the indexes by date
 * (integers summed: exact; see store/transaction-sums.ts); the rows after the period's end (for the
 * balances) as one sum per account.
 */
import {
  AppError,
  type BalanceSeries,
  type CategoryReport,
  type CategoryRow,
  type IncomeExpense,
  type InputOf,
} from '../../../src-shared/app-api';
import { addMonths, daysBetween, daysFrom, endOfDay, monthEnd, monthsFrom } from '../../../src-shared/calendar';
import { add, compare, DecimalSum, formatDecimal, parseDecimal, subtract, ZERO, type Decimal } from '../../../src-shared/money';
import type { CoreParts } from '../app/core-parts';
import { transferTypeOf } from '../outbox/learned';
import type { ViewAccount, ViewCategory } from '../outbox/view-state';
import { monthGroups } from '../store/month-totals';
import { groupedSums } from '../store/transaction-sums';
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

/** A part of a report's period: whole months (read from the monthly totals), or a range of dates as SQL and the bucket (day or month) each row falls in. */
interface PeriodPart {
  months?: { first: string; last: string };
  where: string;
  params: Record<string, unknown>;
  bucket: string;
}

/**
 * The period split for SQL. A daily report (a short period) reads its days by date. A monthly one reads
 * its whole months by month (the index that groups without sorting) and the parts of months at either
 * end by date.
 */
function periodParts(from: string, to: string, daily: boolean): PeriodPart[] {
  const dates = (start: string, end: string, bucket: 'day' | 'month', name: string): PeriodPart => ({
    where: `payment_date >= @${name}Start AND payment_date < @${name}End`,
    params: { [`${name}Start`]: start, [`${name}End`]: end },
    bucket: bucket === 'day' ? 'substr(payment_date, 1, 10)' : 'month',
  });
  if (daily) return [dates(from, endOfDay(to), 'day', 'days')];
  const first = from.endsWith('-01') ? from.slice(0, 7) : addMonths(from.slice(0, 7), 1);
  const last = to === monthEnd(to.slice(0, 7)) ? to.slice(0, 7) : addMonths(to.slice(0, 7), -1);
  if (first > last) return [dates(from, endOfDay(to), 'month', 'all')];
  const parts: PeriodPart[] = [{ months: { first, last }, where: '', params: {}, bucket: 'month' }];
  if (`${first}-01` > from) parts.push(dates(from, `${first}-01`, 'month', 'head'));
  const after = `${addMonths(last, 1)}-01`;
  if (after <= to) parts.push(dates(after, endOfDay(to), 'month', 'tail'));
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
  const tally = new Tally(grid, accounts, topLevel(categories), leftOut);
  const ids = accounts.map((a) => a.id);
  addStored(parts, tally, ids, i, grid.daily);
  addPending(parts, tally, ids, i);

  return {
    currency,
    from: i.from,
    to: i.to,
    months: grid.months,
    accountIds: ids,
    includeTransfers,
    total: tally.total.total.view(),
    byMonth: tally.total.months.map((m) => m.view()),
    categories: tally.categoryRows(categories),
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

  /** One row per top-level category, the largest expense first. */
  categoryRows(categories: Map<number, ViewCategory>): CategoryRow[] {
    const rows: CategoryRow[] = [...this.byCategory].map(([categoryId, flow]) => ({
      categoryId,
      name: categoryId === 0 ? null : (categories.get(categoryId)?.name ?? null),
      ...flow.total.view(),
      byMonth: flow.months.map((m) => m.view()),
    }));
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
  const sums = (q: Parameters<typeof groupedSums>[1]) => groupedSums((sql) => parts.store.sql(sql), q);
  const accountIds = { accounts: JSON.stringify(ids) };
  // The flows across accounts filter the rows by account, unless every stored row is of these accounts.
  const onlyThese = parts.store.hasAccountsBeyond(ids);
  const ofAccounts = onlyThese ? '+account_id IN (SELECT value FROM json_each(@accounts)) AND ' : '';
  for (const part of periodParts(i.from, i.to, daily)) {
    if (part.months) {
      // Whole months: the totals kept per month (store/month-totals.ts), not the rows.
      const q = { accounts: onlyThese ? ids : null, ...part.months };
      for (const g of monthGroups((sql) => parts.store.sql(sql), q, 'flows')) {
        tally.flow(g.key[0] as string, g.key[1] as number, g.key[2] as number, g.income, g.expense, g.count);
      }
      for (const g of monthGroups((sql) => parts.store.sql(sql), q, 'balances')) {
        tally.move(g.key[0] as number, g.key[1] as string, add(g.income, g.expense));
      }
      continue;
    }
    const params = { ...accountIds, ...part.params };
    for (const g of sums({ keys: [part.bucket, 'category_id', 'type'], where: `${ofAccounts}${part.where}`, params })) {
      tally.flow(g.key[0] as string, g.key[1] as number, g.key[2] as number, g.income, g.expense, g.count);
    }
    for (const g of sums({
      keys: ['account_id', part.bucket],
      where: `account_id IN (SELECT value FROM json_each(@accounts)) AND ${part.where}`,
      params,
    })) {
      tally.move(g.key[0] as number, g.key[1] as string, add(g.income, g.expense));
    }
  }
  for (const g of sums({
    keys: ['account_id'],
    where: 'account_id IN (SELECT value FROM json_each(@accounts)) AND payment_date >= @after',
    params: { ...accountIds, after: endOfDay(i.to) },
  })) {
    tally.later(g.key[0] as number, add(g.income, g.expense));
  }
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
