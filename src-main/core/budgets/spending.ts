/**
 * What was spent per month and category over the accounts of one currency: expense − income, transfers
 * left out, waiting writes included. The stored rows come as the report's do, from the totals kept per
 * month (store/month-totals.ts through store/report-queries.ts: a few thousand rows a year whatever the
 * history's size), never row by row; the waiting transactions of the accounts are added one by one.
 */
import { DecimalSum, parseDecimal, ZERO, type Decimal } from '../../../src-shared/money';
import type { CoreParts } from '../app/core-parts';
import { transferTypeOf } from '../outbox/learned';

/** Spent per month (YYYY-MM) and category (each its own, not yet rolled up to those above it). */
export type Spending = Map<string, Map<number, Decimal>>;

export function monthlySpending(parts: CoreParts, currency: number, months: readonly string[]): Spending {
  const sums = new Map<string, Map<number, DecimalSum>>(months.map((m) => [m, new Map()]));
  const leftOut = transferTypeOf(parts.view.learned());
  const add = (month: string, categoryId: number, type: number, income: Decimal, expense: Decimal) => {
    const byCategory = sums.get(month);
    if (!byCategory || type === leftOut) return;
    let sum = byCategory.get(categoryId);
    if (!sum) byCategory.set(categoryId, (sum = new DecimalSum()));
    // Expense is the negative amounts' sum: spent = −expense − income.
    sum.subtract(expense);
    sum.subtract(income);
  };
  const ids = parts.view
    .accounts()
    .filter((a) => a.currency === currency)
    .map((a) => a.id);
  if (ids.length > 0 && months.length > 0) {
    const accounts = { ids, othersStored: parts.store.accounts.hasOthersThan(ids) };
    const part = { months: { first: months[0]!, last: months.at(-1)! } };
    for (const g of parts.store.reports.flows(part, accounts)) add(g.bucket, g.categoryId, g.type, g.income, g.expense);
  }
  for (const id of ids) {
    for (const t of parts.view.pendingTransactions(id)) {
      const amount = parseDecimal(t.amount) ?? ZERO;
      const positive = amount.units > 0n;
      add(t.paymentDate.slice(0, 7), t.categoryId, t.type, positive ? amount : ZERO, positive ? ZERO : amount);
    }
  }
  return new Map([...sums].map(([m, byCategory]) => [m, new Map([...byCategory].map(([id, s]) => [id, s.value]))]));
}
