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
 * Every sum is exact. The stored rows are read in one pass over the accounts' index from the period's
 * start on: the rows after the period's end are needed for the balances anyway.
 */
import { AppError, type BalanceSeries, type CategoryReport, type CategoryRow, type IncomeExpense, type InputOf } from '../../../src-shared/app-api';
import { compare, DecimalSum, formatDecimal, parseDecimal, subtract, ZERO, type Decimal } from '../../../src-shared/money';
import type { CoreParts } from '../app/core-parts';
import { transferTypeOf } from '../outbox/learned';
import type { ViewAccount, ViewCategory } from '../outbox/view-state';
import { daysBetween, daysFrom, monthEnd, monthsFrom } from '../../../src-shared/calendar';
import { ancestry } from './category-tree';


/** Daily balance points up to this many days, month ends beyond. */
const DAILY_UP_TO = 62;
/** A hundred years of months: beyond that a report is a mistake, not a question. */
const MAX_MONTHS = 1200;
const FALLBACK_CURRENCY = 203;

class Flow {
  private readonly income = new DecimalSum();
  private readonly expense = new DecimalSum();
  private count = 0;

  add(amount: Decimal): void {
    if (amount.units > 0n) this.income.add(amount);
    else if (amount.units < 0n) this.expense.subtract(amount);
    this.count++;
  }

  view(): IncomeExpense {
    const income = this.income.value;
    const expense = this.expense.value;
    return { income: formatDecimal(income), expense: formatDecimal(expense), net: formatDecimal(subtract(income, expense)), count: this.count };
  }
}

/** A total and one per month. */
class MonthlyFlow {
  readonly total = new Flow();
  readonly months: Flow[];

  constructor(months: number) {
    this.months = Array.from({ length: months }, () => new Flow());
  }

  add(month: number, amount: Decimal): void {
    this.total.add(amount);
    this.months[month]!.add(amount);
  }
}

function mostCommonCurrency(accounts: readonly ViewAccount[]): number | null {
  const counts = new Map<number, number>();
  for (const a of accounts) counts.set(a.currency, (counts.get(a.currency) ?? 0) + 1);
  let best: [number, number] | null = null;
  for (const [currency, n] of counts) if (!best || n > best[1] || (n === best[1] && currency < best[0])) best = [currency, n];
  return best?.[0] ?? null;
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

function chosenAccounts(parts: CoreParts, all: readonly ViewAccount[], currency: number, ids: readonly number[] | undefined): ViewAccount[] {
  if (ids === undefined) return all.filter((a) => a.currency === currency);
  const chosen = new Map<number, ViewAccount>();
  for (const id of ids) {
    const a = parts.view.account(id);
    if (!a) throw new AppError('invalid-input', `Account ${id} does not exist.`, 'accountIds');
    if (a.currency !== currency) throw new AppError('invalid-input', `Account ${a.name} is not in the report's currency.`, 'accountIds');
    chosen.set(a.id, a);
  }
  return [...chosen.values()];
}

export function categoryReport(parts: CoreParts, i: InputOf<'getReport'>): CategoryReport {
  if (i.from > i.to) throw new AppError('invalid-input', 'The period must not end before it starts.', 'to');
  const months = monthsFrom(i.from, i.to);
  if (months.length > MAX_MONTHS) throw new AppError('invalid-input', `A report covers at most ${MAX_MONTHS / 12} years.`, 'to');

  const all = parts.view.accounts();
  const currency = i.currency ?? mostCommonCurrency(all) ?? parts.preferences().lastCurrency ?? FALLBACK_CURRENCY;
  const accounts = chosenAccounts(parts, all, currency, i.accountIds);
  const includeTransfers = i.includeTransfers ?? false;
  const transferType = transferTypeOf(parts.view.learned());

  const daily = daysBetween(i.from, i.to) < DAILY_UP_TO;
  const points = daily ? daysFrom(i.from, i.to) : months.map((m) => (monthEnd(m) < i.to ? monthEnd(m) : i.to));
  const pointOf = new Map((daily ? points : months).map((key, index) => [key, index]));
  const pointKey = daily ? 10 : 7;
  const monthOf = new Map(months.map((m, index) => [m, index]));

  const categories = new Map(parts.view.categories().map((c) => [c.id, c]));
  const top = topLevel(categories);
  const total = new MonthlyFlow(months.length);
  const byCategory = new Map<number, MonthlyFlow>();
  const flows = new Map(accounts.map((a) => [a.id, { later: new DecimalSum(), points: points.map(() => new DecimalSum()) }]));

  const count = (accountId: number, paymentDate: string, type: number, amountText: string, categoryId: number) => {
    const amount = parseDecimal(amountText) ?? ZERO;
    const flow = flows.get(accountId)!;
    const day = paymentDate.slice(0, 10);
    if (day > i.to) {
      flow.later.add(amount);
      return;
    }
    flow.points[pointOf.get(day.slice(0, pointKey))!]!.add(amount);
    if (type === transferType && !includeTransfers) return;
    const month = monthOf.get(day.slice(0, 7))!;
    total.add(month, amount);
    const categoryTop = top(categoryId);
    let row = byCategory.get(categoryTop);
    if (!row) byCategory.set(categoryTop, (row = new MonthlyFlow(months.length)));
    row.add(month, amount);
  };

  const ids = accounts.map((a) => a.id);
  for (const [accountId, paymentDate, type, amount, categoryId] of parts.store.reportRows(ids, i.from)) count(accountId, paymentDate, type, amount, categoryId);
  for (const id of ids) {
    for (const t of parts.view.pendingTransactions(id)) if (t.paymentDate >= i.from) count(id, t.paymentDate, t.type, t.amount, t.categoryId);
  }

  const rows: CategoryRow[] = [...byCategory].map(([categoryId, flow]) => ({
    categoryId,
    name: categoryId === 0 ? null : (categories.get(categoryId)?.name ?? null),
    ...flow.total.view(),
    byMonth: flow.months.map((m) => m.view()),
  }));
  rows.sort((a, b) => compareDecimalText(b.expense, a.expense) || compareDecimalText(b.income, a.income) || a.categoryId - b.categoryId);

  const balances: BalanceSeries[] = accounts.map((a) => {
    const flow = flows.get(a.id)!;
    const running = new DecimalSum();
    running.add(parseDecimal(a.balance) ?? ZERO);
    running.subtract(flow.later.value);
    const values: string[] = new Array<string>(points.length);
    for (let k = points.length - 1; k >= 0; k--) {
      values[k] = formatDecimal(running.value);
      running.subtract(flow.points[k]!.value);
    }
    return { accountId: a.id, name: a.name, points: points.map((date, k) => ({ date, balance: values[k]! })) };
  });

  return {
    currency,
    from: i.from,
    to: i.to,
    months,
    accountIds: ids,
    includeTransfers,
    total: total.total.view(),
    byMonth: total.months.map((m) => m.view()),
    categories: rows,
    balances,
    currencies: [...new Set(all.map((a) => a.currency))].sort((a, b) => a - b),
  };
}

const compareDecimalText = (a: string, b: string): number => compare(parseDecimal(a)!, parseDecimal(b)!);
