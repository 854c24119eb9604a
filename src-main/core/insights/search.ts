/**
 * Search across the whole local history: the stored transactions of every account in the view, and
 * the pending ones laid over them. Every filter is SQL over indexed columns, in the store's search
 * queries (store/search-queries.ts), so that the count, the exact sums and a page are each one query,
 * whatever the history's size; the pending rows are checked here by the same rules.
 *
 * - text: a part of the description, of the category's name or of the amount's text ("120,5" reads as
 *   "120.5"), folded for case and diacritics ("skoda" finds "ŠKODA");
 * - minAmount / maxAmount: inclusive bounds on the amount's size, whichever its sign;
 * - direction: 'in' positive amounts, 'out' negative ones;
 * - from / to: inclusive days of the payment date;
 * - categoryId: that category and all its descendants; 0 transactions without a category.
 * - accountId and accountIds: only those accounts (both given: the ones in both);
 * - excludeTransfers: transfers left out, by the same rule as a report's (so that a drill-down from a
 *   report row lists exactly what the row counted).
 *
 * Newest first: payment date, then id (pending ones, with their temporary negative ids, after stored
 * ones of the same date), then key.
 */
import { AppError, type FoundTransaction, type InputOf, type SearchResult } from '../../../src-shared/app-api';
import { endOfDay } from '../../../src-shared/calendar';
import { compare, DecimalSum, formatDecimal, parseDecimal, ZERO, type Decimal } from '../../../src-shared/money';
import type { CoreParts } from '../app/core-parts';
import { transferTypeOf } from '../outbox/learned';
import type { PendingTransaction, ViewAccount, ViewCategory } from '../outbox/view-state';
import { amountWithin, type AmountBounds } from '../store/amount-units';
import type { TransactionRow } from '../store/rows';
import type { SearchQuery } from '../store/search-queries';
import { textQuery, type TextQuery } from '../store/text-search';
import { mergeSorted } from '../util/merge-sorted';
import { withDescendants } from './category-tree';

export type SearchFilters = Omit<InputOf<'exportTransactionsCsv'>, 'dialect'>;

/** A whole matched transaction with its account. */
export interface Match extends TransactionRow {
  pending: boolean;
  account: ViewAccount;
}

/** A search made ready: what the stored rows must match (the store's query), the pending rows that match, and the names to show. */
interface Prepared {
  stored: SearchQuery;
  pending: PendingTransaction[];
  accounts: Map<number, ViewAccount>;
  categories: Map<number, ViewCategory>;
}

export const DEFAULT_SEARCH_LIMIT = 50;

/** The same order, pending rows (negative temporary ids) after the stored ones of their date. */
function newestFirst(a: TransactionRow, b: TransactionRow): number {
  if (a.paymentDate !== b.paymentDate) return a.paymentDate < b.paymentDate ? 1 : -1;
  return (b.id ?? -Infinity) - (a.id ?? -Infinity);
}

function prepare(parts: CoreParts, f: SearchFilters): Prepared {
  if (f.from && f.to && f.from > f.to) throw new AppError('periodReversed', {}, 'to');
  const bounds = amountBounds(f);
  const accounts = new Map(parts.view.accounts().map((a) => [a.id, a]));
  const categories = new Map(parts.view.categories().map((c) => [c.id, c]));
  const rules: Rules = {
    accountIds: searchedAccounts(parts, f, [...accounts.keys()]),
    categoryIds: f.categoryId === undefined ? null : withDescendants(categories.values(), parts.outbox.resolve(f.categoryId)),
    from: f.from ?? null,
    before: f.to ? endOfDay(f.to) : null,
    leaveOut: f.excludeTransfers ? transferTypeOf(parts.view.learned()) : null,
    text: parts.store.matchedText(
      textQuery(
        f.text,
        [...categories.values()].map((c): [number, string] => [c.id, c.name]),
      ),
    ),
    bounds,
    amounts: bounds.min !== null || bounds.max !== null || bounds.direction !== null ? bounds : null,
  };
  const { accountIds, categoryIds, from, before, leaveOut, text, amounts } = rules;
  return {
    stored: { accounts: accountIds, categories: categoryIds, from, before, leaveOut, text, amounts },
    pending: pendingMatches(parts, rules),
    accounts,
    categories,
  };
}

/** A search's filters, read and checked: what both the stored rows and the pending ones are held to. */
interface Rules {
  accountIds: number[];
  /** The category and its descendants; null for any. */
  categoryIds: number[] | null;
  from: string | null;
  /** The moment after the last day. */
  before: string | null;
  /** The type of the transfers left out. */
  leaveOut: number | null;
  text: TextQuery | null;
  bounds: AmountBounds;
  /** The bounds, when any is given. */
  amounts: AmountBounds | null;
}

function amountBounds(f: SearchFilters): AmountBounds {
  const bounds: AmountBounds = {
    min: f.minAmount === undefined ? null : parseDecimal(f.minAmount)!,
    max: f.maxAmount === undefined ? null : parseDecimal(f.maxAmount)!,
    direction: f.direction ?? null,
  };
  if (bounds.min && bounds.max && compare(bounds.min, bounds.max) > 0) {
    throw new AppError('amountBoundsReversed', {}, 'maxAmount');
  }
  return bounds;
}

/** The accounts of the view that the filters keep (an account named must be in the view). */
function searchedAccounts(parts: CoreParts, f: SearchFilters, all: number[]): number[] {
  let accountIds = all;
  const only = (ids: readonly number[], field: string) => {
    const wanted = new Set<number>();
    for (const id of ids) {
      const account = parts.view.account(id);
      if (!account) throw new AppError('accountMissing', { id }, field);
      wanted.add(account.id);
    }
    accountIds = accountIds.filter((id) => wanted.has(id));
  };
  if (f.accountId !== undefined) only([f.accountId], 'accountId');
  if (f.accountIds !== undefined) only(f.accountIds, 'accountIds');
  return accountIds;
}

/** The pending transactions the rules keep, newest first. */
function pendingMatches(parts: CoreParts, rules: Rules): PendingTransaction[] {
  const { from, before, leaveOut, text, amounts } = rules;
  const inCategory = rules.categoryIds && new Set(rules.categoryIds);
  const pending: PendingTransaction[] = [];
  for (const accountId of rules.accountIds) {
    for (const t of parts.view.pendingTransactions(accountId)) {
      if (from !== null && t.paymentDate < from) continue;
      if (before !== null && t.paymentDate >= before) continue;
      if (inCategory && !inCategory.has(t.categoryId)) continue;
      if (t.type === leaveOut) continue;
      if (text && !text.matches(t)) continue;
      if (amounts && !amountWithin(t.amount, rules.bounds)) continue;
      pending.push(t);
    }
  }
  return pending.sort(newestFirst);
}

const matchOf = (p: Prepared, row: TransactionRow, pending: boolean): Match => ({
  ...row,
  pending,
  account: p.accounts.get(row.accountId)!,
});

/** Every transaction of the local history that matches, newest first (the export). */
export function searchMatches(parts: CoreParts, f: SearchFilters): { matches: Match[]; categories: Map<number, ViewCategory> } {
  const p = prepare(parts, f);
  const stored = parts.store.search.rows(p.stored, 0, -1);
  const matches = mergeSorted(
    stored.map((r) => matchOf(p, r, false)),
    p.pending.map((r) => matchOf(p, r, true)),
    newestFirst,
  );
  return { matches, categories: p.categories };
}

export function foundTransaction(m: Match, categories: Map<number, ViewCategory>): FoundTransaction {
  return {
    id: m.id,
    accountId: m.accountId,
    paymentDate: m.paymentDate,
    type: m.type,
    amount: m.amount,
    description: m.description,
    categoryId: m.categoryId,
    categoryName: categories.get(m.categoryId)?.name ?? null,
    userId: m.userId,
    userCreatedId: m.userCreatedId,
    pending: m.pending,
    accountName: m.account.name,
    currency: m.account.currency,
  };
}

/**
 * A page of the matches, their count and exact sums per currency. The page needs only the stored rows
 * that can fall on it: it starts at most as many rows before `offset` as there are pending matches.
 */
export function searchPage(parts: CoreParts, input: InputOf<'searchTransactions'>): SearchResult {
  const { offset = 0, limit = DEFAULT_SEARCH_LIMIT, ...filters } = input;
  const p = prepare(parts, filters);

  const sums = new Map<number, { total: DecimalSum; count: number }>();
  const add = (currency: number, amounts: readonly Decimal[], count: number) => {
    let s = sums.get(currency);
    if (!s) sums.set(currency, (s = { total: new DecimalSum(), count: 0 }));
    for (const a of amounts) s.total.add(a);
    s.count += count;
  };
  let storedTotal = 0;
  for (const g of parts.store.search.sumsByAccount(p.stored)) {
    add(p.accounts.get(g.accountId)!.currency, [g.income, g.expense], g.count);
    storedTotal += g.count;
  }
  for (const t of p.pending) add(p.accounts.get(t.accountId)!.currency, [parseDecimal(t.amount) ?? ZERO], 1);

  const pending = p.pending.map((r) => matchOf(p, r, true));
  const s0 = Math.min(Math.max(0, offset - pending.length), storedTotal);
  const stored = parts.store.search.rows(p.stored, s0, limit + pending.length).map((r) => matchOf(p, r, false));
  let start = s0;
  let merged: Match[];
  if (s0 === 0) merged = mergeSorted(stored, pending, newestFirst);
  else {
    const first = stored[0];
    const k = first ? pending.filter((x) => newestFirst(x, first) < 0).length : pending.length;
    merged = mergeSorted(stored, pending.slice(k), newestFirst);
    start = s0 + k;
  }
  const items = merged.slice(offset - start, offset - start + limit);
  return {
    items: items.map((m) => foundTransaction(m, p.categories)),
    total: storedTotal + pending.length,
    offset,
    limit,
    sums: [...sums].sort(([a], [b]) => a - b).map(([currency, s]) => ({ currency, total: formatDecimal(s.total.value), count: s.count })),
  };
}
