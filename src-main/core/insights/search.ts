/**
 * Search across the whole local history: the stored transactions of every account in the view, and
 * the pending ones laid over them. Dates, accounts and categories narrow the SQL query (indexed); text,
 * amount bounds and direction are checked here, where the text can be folded to lower case beyond ASCII
 * and amounts compared exactly.
 *
 * - text: a part of the description or of the category's name (case-insensitive), or of the amount's
 *   text ("120,5" reads as "120.5");
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
import { abs, compare, DecimalSum, formatDecimal, parseDecimal, ZERO } from '../../../src-shared/money';
import type { CoreParts } from '../app/core-parts';
import { transferTypeOf } from '../outbox/learned';
import type { PendingTransaction, ViewAccount, ViewCategory } from '../outbox/view-state';
import type { TransactionRow } from '../store/rows';
import { mergeSorted } from '../util/merge-sorted';
import { endOfDay } from '../../../src-shared/calendar';
import { withDescendants } from './category-tree';

export type SearchFilters = InputOf<'exportTransactionsCsv'>;

/**
 * A transaction that matched: enough to sort, page and sum. A stored one is read whole (by rowid) only
 * when it is shown or exported; a pending one is already whole.
 */
export interface Hit {
  paymentDate: string;
  id: number | null;
  accountId: number;
  amount: string;
  stored: number | null;
  pending: PendingTransaction | null;
}

/** A whole matched transaction with its account. */
export interface Match extends TransactionRow {
  pending: boolean;
  account: ViewAccount;
}

export interface Matches {
  hits: Hit[];
  accounts: Map<number, ViewAccount>;
  categories: Map<number, ViewCategory>;
}

/** What the text and amount filters look at. */
interface Candidate {
  amount: string;
  categoryId: number;
  description: string | null;
}

export const DEFAULT_SEARCH_LIMIT = 50;

function textMatcher(text: string | undefined, names: Map<number, ViewCategory>): ((t: Candidate) => boolean) | null {
  const needle = text?.trim().toLowerCase();
  if (!needle) return null;
  const amountNeedle = /^-?\d+,\d+$/.test(needle) ? needle.replace(',', '.') : needle;
  const categoryMatches = new Set([...names.values()].filter((c) => c.name.toLowerCase().includes(needle)).map((c) => c.id));
  return (t) => categoryMatches.has(t.categoryId) || t.amount.includes(amountNeedle) || (t.description ?? '').toLowerCase().includes(needle);
}

function amountMatcher(f: SearchFilters): ((t: Candidate) => boolean) | null {
  const min = f.minAmount === undefined ? null : parseDecimal(f.minAmount)!;
  const max = f.maxAmount === undefined ? null : parseDecimal(f.maxAmount)!;
  if (min === null && max === null && !f.direction) return null;
  return (t) => {
    const amount = parseDecimal(t.amount) ?? ZERO;
    if (f.direction === 'in' && amount.units <= 0n) return false;
    if (f.direction === 'out' && amount.units >= 0n) return false;
    const size = abs(amount);
    return (min === null || compare(size, min) >= 0) && (max === null || compare(size, max) <= 0);
  };
}

/**
 * Newest first: by date, then id. Stored rows come from SQL in this order (with the key breaking ties
 * of rows without an id); a pending row's temporary id is negative, so it never ties with a stored one.
 */
function newestFirst(a: Hit, b: Hit): number {
  if (a.paymentDate !== b.paymentDate) return a.paymentDate < b.paymentDate ? 1 : -1;
  return (b.id ?? -Infinity) - (a.id ?? -Infinity);
}

/** Every transaction of the local history that matches, newest first (the search and the export). */
export function searchMatches(parts: CoreParts, f: SearchFilters): Matches {
  if (f.from && f.to && f.from > f.to) throw new AppError('invalid-input', 'The period must not end before it starts.', 'to');
  if (f.minAmount !== undefined && f.maxAmount !== undefined && compare(parseDecimal(f.minAmount)!, parseDecimal(f.maxAmount)!) > 0) {
    throw new AppError('invalid-input', 'The smallest amount must not be above the largest.', 'maxAmount');
  }
  const accounts = new Map(parts.view.accounts().map((a) => [a.id, a]));
  let accountIds = [...accounts.keys()];
  const only = (ids: readonly number[], field: string) => {
    const wanted = new Set<number>();
    for (const id of ids) {
      const account = parts.view.account(id);
      if (!account) throw new AppError('not-found', `Account ${id} does not exist.`, field);
      wanted.add(account.id);
    }
    accountIds = accountIds.filter((id) => wanted.has(id));
  };
  if (f.accountId !== undefined) only([f.accountId], 'accountId');
  if (f.accountIds !== undefined) only(f.accountIds, 'accountIds');
  const leaveOut = f.excludeTransfers ? transferTypeOf(parts.view.learned()) : null;
  const categories = new Map(parts.view.categories().map((c) => [c.id, c]));
  const categoryIds = f.categoryId === undefined ? null : withDescendants(categories.values(), parts.outbox.resolve(f.categoryId));
  const inCategory = categoryIds && new Set(categoryIds);
  const from = f.from ?? null;
  const before = f.to ? endOfDay(f.to) : null;

  const text = textMatcher(f.text, categories);
  const checks = [text, amountMatcher(f)].filter((c) => c !== null);
  const matches = (t: Candidate) => checks.every((check) => check(t));

  const stored: Hit[] = [];
  for (const [rowid, paymentDate, id, accountId, amount, categoryId, description] of parts.store.searchRows({ accountIds, categoryIds, from, before, withText: text !== null, leaveOutType: leaveOut })) {
    if (matches({ amount, categoryId, description })) stored.push({ paymentDate, id, accountId, amount, stored: rowid, pending: null });
  }
  const pending: Hit[] = [];
  for (const accountId of accountIds) {
    for (const t of parts.view.pendingTransactions(accountId)) {
      if (from !== null && t.paymentDate < from) continue;
      if (before !== null && t.paymentDate >= before) continue;
      if (inCategory && !inCategory.has(t.categoryId)) continue;
      if (t.type === leaveOut) continue;
      if (matches(t)) pending.push({ paymentDate: t.paymentDate, id: t.id, accountId, amount: t.amount, stored: null, pending: t });
    }
  }
  return { hits: mergeSorted(stored, pending.sort(newestFirst), newestFirst), accounts, categories };
}

/** The whole transactions of some hits, in their order. */
export function readMatches(parts: CoreParts, hits: readonly Hit[], accounts: Map<number, ViewAccount>): Match[] {
  const rows = parts.store.transactionsByRowid(hits.filter((h) => h.stored !== null).map((h) => h.stored!));
  let next = 0;
  return hits.map((h) => {
    const row = h.pending ?? rows[next++]!;
    return { ...row, pending: h.pending !== null, account: accounts.get(h.accountId)! };
  });
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

export function searchPage(parts: CoreParts, input: InputOf<'searchTransactions'>): SearchResult {
  const { offset = 0, limit = DEFAULT_SEARCH_LIMIT, ...filters } = input;
  const { hits, accounts, categories } = searchMatches(parts, filters);
  const sums = new Map<number, { total: DecimalSum; count: number }>();
  for (const h of hits) {
    const currency = accounts.get(h.accountId)!.currency;
    let s = sums.get(currency);
    if (!s) sums.set(currency, (s = { total: new DecimalSum(), count: 0 }));
    s.total.add(parseDecimal(h.amount) ?? ZERO);
    s.count++;
  }
  return {
    items: readMatches(parts, hits.slice(offset, offset + limit), accounts).map((m) => foundTransaction(m, categories)),
    total: hits.length,
    offset,
    limit,
    sums: [...sums]
      .sort(([a], [b]) => a - b)
      .map(([currency, s]) => ({ currency, total: formatDecimal(s.total.value), count: s.count })),
  };
}
