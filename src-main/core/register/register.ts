/**
 * The register: one account's history (or that of every account of one currency) newest first, a page
 * at a time by keyset (keyset.ts), with pending transfers laid over the stored rows as everywhere else.
 *
 * - Running balance: the balance right after a row is the balance now (pending writes included) minus
 *   every row newer than it. The stored part of that is one SUM over the index from the page's first
 *   row to the newest (SQLite adds integers: exact); the rest of the page follows by taking away each
 *   row's amount. Nothing is maintained per row, so a backdated transaction changes nothing stored.
 * - Counterpart: the other side of a transfer. A pending one's is in the same outbox entry; a stored
 *   one's is the transaction on another account with the same moment, type, description and category
 *   and the opposite amount (the service writes both sides so), the nearest by id when several match.
 *   It is looked up on the payment date's index, only for the rows of the page.
 * - A text filter narrows the rows shown; their balances stay those of the whole register.
 */
import { AppError, type Counterpart, type InputOf, type RegisterPage, type RegisterRow } from '../../../src-shared/app-api';
import { DecimalSum, formatDecimal, negate, parseDecimal, subtract, ZERO, type Decimal } from '../../../src-shared/money';
import type { CoreParts } from '../app/core-parts';
import { mostCommonCurrency } from '../insights/currency';
import { transferTypeOf } from '../outbox/learned';
import type { PendingTransaction, ViewAccount } from '../outbox/view-state';
import type { RegisterScope } from '../store/register-queries';
import type { TransactionRow } from '../store/rows';
import { textQuery } from '../store/text-search';
import { mergeSorted } from '../util/merge-sorted';
import { dayBound, isNewer, isOlder, newestFirst, type Boundary, type SortKey } from './keyset';

export const DEFAULT_REGISTER_LIMIT = 100;
const FALLBACK_CURRENCY = 203;

/** A row of the register before its balance and counterpart are known. */
export interface Entry extends SortKey {
  row: TransactionRow;
  pending: PendingTransaction | null;
}

/** The accounts a register covers. */
export interface Scope {
  accounts: ViewAccount[];
  currency: number;
  /** The balance now of all of them together, pending writes included. */
  balance: Decimal;
  /** Their stored rows, as the store reads them (store/register-queries.ts). */
  stored: RegisterScope;
}

export function registerScope(parts: CoreParts, accountId: number | undefined, currency: number | undefined): Scope {
  let accounts: ViewAccount[];
  if (accountId !== undefined) {
    const account = parts.view.account(accountId);
    if (!account) throw new AppError('accountMissing', { id: accountId }, 'accountId');
    accounts = [account];
  } else {
    const all = parts.view.accounts();
    const chosen = currency ?? mostCommonCurrency(all) ?? parts.preferences().lastCurrency ?? FALLBACK_CURRENCY;
    accounts = all.filter((a) => a.currency === chosen);
  }
  const balance = new DecimalSum();
  for (const a of accounts) balance.add(parseDecimal(a.balance) ?? ZERO);
  return {
    accounts,
    currency: accounts[0]?.currency ?? currency ?? FALLBACK_CURRENCY,
    balance: balance.value,
    stored: parts.store.register.scope(accounts.map((a) => a.id)),
  };
}

const entryOfStored = (row: TransactionRow): Entry => ({
  paymentDate: row.paymentDate,
  key: row.key,
  id: row.id,
  outboxId: null,
  row,
  pending: null,
});
const entryOfPending = (t: PendingTransaction): Entry => ({
  paymentDate: t.paymentDate,
  key: t.key,
  id: t.id,
  outboxId: t.entryId,
  row: t,
  pending: t,
});

/** Every pending row of the scope, newest first. */
function pendingEntries(parts: CoreParts, scope: Scope): Entry[] {
  return scope.accounts.flatMap((a) => parts.view.pendingTransactions(a.id).map(entryOfPending)).sort(newestFirst);
}

/** The balance right after `first`, the newest row of a page. */
export function balanceAfter(parts: CoreParts, scope: Scope, first: Entry, pending: readonly Entry[]): Decimal {
  const newer = new DecimalSum();
  newer.add(parts.store.register.newer(scope.stored, first).net);
  for (const p of pending) if (newestFirst(p, first) < 0) newer.add(parseDecimal(p.row.amount) ?? ZERO);
  return subtract(scope.balance, newer.value);
}

/** The other sides of the page's transfers. */
function counterparts(parts: CoreParts, entries: readonly Entry[], transferType: number): Map<string, Counterpart> {
  const out = new Map<string, Counterpart>();
  const name = (id: number) => parts.view.account(id)?.name ?? parts.store.accounts.name(id);
  const pendingByEntry = new Map<number, PendingTransaction[]>();
  for (const list of parts.view.state().pendingTransactions.values()) {
    for (const t of list) pendingByEntry.set(t.entryId, [...(pendingByEntry.get(t.entryId) ?? []), t]);
  }
  for (const e of entries) {
    if (e.row.type !== transferType) continue;
    if (e.pending) {
      const other = pendingByEntry.get(e.pending.entryId)?.find((t) => t.key !== e.key);
      if (other) {
        out.set(e.key, {
          accountId: other.accountId,
          accountName: name(other.accountId),
          transactionId: other.id,
          key: other.key,
          pending: true,
        });
      }
      continue;
    }
    const amount = parseDecimal(e.row.amount);
    if (!amount) continue;
    const other = parts.store.transactions.counterpart(e.row, formatDecimal(negate(amount)));
    if (other) {
      out.set(e.key, {
        accountId: other.accountId,
        accountName: name(other.accountId),
        transactionId: other.id,
        key: other.key,
        pending: false,
      });
    }
  }
  return out;
}

/**
 * Register rows of entries (newest first), the first one's balance given. Consecutive entries follow
 * each other in the register unless `gaps` (a filtered page), where the rows between two shown ones are
 * taken away too: one SUM over the index between them.
 */
export function registerRows(
  parts: CoreParts,
  entries: readonly Entry[],
  firstBalance: Decimal,
  gaps: { scope: Scope; pending: readonly Entry[] } | null = null,
): RegisterRow[] {
  const transferType = transferTypeOf(parts.view.learned());
  const categories = new Map(parts.view.categories().map((c) => [c.id, c.name]));
  const sides = counterparts(parts, entries, transferType);
  let balance = firstBalance;
  return entries.map((e, n) => {
    const t = e.row;
    if (n > 0) {
      balance = subtract(
        balance,
        gaps ? between(parts, gaps.scope, gaps.pending, e, entries[n - 1]!) : (parseDecimal(entries[n - 1]!.row.amount) ?? ZERO),
      );
    }
    return {
      key: e.key,
      id: t.id,
      accountId: t.accountId,
      accountName: parts.view.account(t.accountId)?.name ?? parts.store.accounts.name(t.accountId) ?? '',
      paymentDate: t.paymentDate,
      type: t.type,
      amount: t.amount,
      description: t.description,
      categoryId: t.categoryId,
      categoryName: categories.get(t.categoryId) ?? null,
      pending: e.pending !== null,
      outboxId: e.outboxId,
      balance: formatDecimal(balance),
      transfer: t.type === transferType,
      counterpart: sides.get(e.key) ?? null,
    };
  });
}

/** The sum of the rows newer than `row` up to and including `upTo` (a newer row). */
function between(parts: CoreParts, scope: Scope, pending: readonly Entry[], row: Entry, upTo: Entry): Decimal {
  const sum = new DecimalSum();
  // upTo itself is stored (counted by the store's sum) or pending (counted with the pending ones below).
  sum.add(parts.store.register.between(scope.stored, row, upTo));
  for (const p of pending) if (newestFirst(p, row) < 0 && newestFirst(p, upTo) >= 0) sum.add(parseDecimal(p.row.amount) ?? ZERO);
  return sum.value;
}

export function registerPage(parts: CoreParts, input: InputOf<'listRegister'>): RegisterPage {
  const scope = registerScope(parts, input.accountId, input.currency);
  const limit = input.limit ?? DEFAULT_REGISTER_LIMIT;
  const categoryNames = parts.view.categories().map((c): [number, string] => [c.id, c.name]);
  // The trigram index asked once for the page, its balances and its counts: the search screen's way (text-search.ts).
  const text = parts.store.matchedText(textQuery(input.text, categoryNames));
  const allPending = pendingEntries(parts, scope);
  const pending = text ? allPending.filter((e) => text.matches(e.row)) : allPending;

  const direction = input.at !== undefined ? 'older' : (input.direction ?? 'older');
  const at: Boundary = input.at !== undefined ? dayBound(input.at) : input.after ? { row: input.after } : null;
  let entries: Entry[];
  let more: boolean;
  if (direction === 'older') {
    const stored = parts.store.register.rows(scope.stored, at, 'older', limit + 1, text).map(entryOfStored);
    const merged = mergeSorted(
      stored,
      pending.filter((p) => isOlder(p, at)),
      newestFirst,
    );
    entries = merged.slice(0, limit);
    more = merged.length > limit;
  } else {
    const stored = parts.store.register.rows(scope.stored, at, 'newer', limit + 1, text).map(entryOfStored);
    const oldestFirst = (a: Entry, b: Entry) => newestFirst(b, a);
    const merged = mergeSorted(stored, pending.filter((p) => isNewer(p, at)).reverse(), oldestFirst);
    entries = merged.slice(0, limit).reverse();
    more = merged.length > limit;
  }

  const first = entries[0];
  const rows = first
    ? registerRows(parts, entries, balanceAfter(parts, scope, first, allPending), text ? { scope, pending: allPending } : null)
    : [];
  let total: number | null = null;
  let position: number | null = null;
  if (input.counts) {
    total = parts.store.register.count(scope.stored, null, text) + pending.length;
    const top: Boundary = first ? { row: first } : at;
    // Rows newer than the page's first one: from the monthly totals, unless a text narrows them.
    const storedAbove =
      top === null
        ? 0
        : 'row' in top && !text
          ? parts.store.register.newer(scope.stored, top.row).count
          : parts.store.register.count(scope.stored, top, text);
    position = top === null ? (direction === 'older' ? 0 : total) : storedAbove + pending.filter((p) => isNewer(p, top)).length;
  }
  return {
    rows,
    more,
    total,
    position,
    currency: scope.currency,
    balance: formatDecimal(scope.balance),
    accountIds: scope.accounts.map((a) => a.id),
  };
}
