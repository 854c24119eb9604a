/**
 * The register's order and its keyset conditions. Newest first: by payment date; on one date the
 * pending rows (waiting in the outbox, newest write first, then by id) before the stored ones; stored
 * ones by id (rows without an id last) and then key. The stored part of that order is exactly the
 * order of the indexes transactions_register (one account) and transactions_by_date (several), read
 * backwards, so that a page is a range scan from a cursor: never an OFFSET, never a sort.
 */
import { endOfDay } from '../../../src-shared/calendar';

/** What places a row in the register's order. */
export interface SortKey {
  paymentDate: string;
  key: string;
  id: number | null;
  /** The outbox entry of a pending row; null for a stored row. */
  outboxId: number | null;
}

/** Negative when `a` comes first (is newer), positive when `b` does. */
export function newestFirst(a: SortKey, b: SortKey): number {
  if (a.paymentDate !== b.paymentDate) return a.paymentDate < b.paymentDate ? 1 : -1;
  const ap = a.outboxId !== null;
  const bp = b.outboxId !== null;
  if (ap !== bp) return ap ? -1 : 1;
  if (ap) return b.outboxId! - a.outboxId! || (b.id ?? 0) - (a.id ?? 0);
  if (a.id !== b.id) {
    if (a.id === null) return 1;
    if (b.id === null) return -1;
    return b.id - a.id;
  }
  return a.key < b.key ? 1 : a.key > b.key ? -1 : 0;
}

/**
 * Where a read starts: after a row (a cursor), or at a date bound (a jump: rows paid before `bound`
 * are older), or at an end of the register.
 */
export type Boundary = { row: SortKey } | { bound: string } | null;

/** The bound of a jump to `date`: its rows and older ones are on or after it. */
export const dayBound = (date: string): { bound: string } => ({ bound: endOfDay(date) });

/** Whether a row lies after the boundary in the newest-first order (older than it). */
export function isOlder(row: SortKey, at: Boundary): boolean {
  if (at === null) return true;
  if ('bound' in at) return row.paymentDate < at.bound;
  return newestFirst(row, at.row) > 0;
}

/** Whether a row lies before the boundary (newer than it). */
export function isNewer(row: SortKey, at: Boundary): boolean {
  if (at === null) return true;
  if ('bound' in at) return row.paymentDate >= at.bound;
  return newestFirst(row, at.row) < 0;
}

export interface Condition {
  sql: string;
  params: Record<string, unknown>;
}

/**
 * Stored rows older (side 'older') or newer than the boundary, as SQL over `transactions` with
 * parameters @<p>d, @<p>i, @<p>k (`p` tells two boundaries of one query apart). Each begins with a range
 * on payment_date, so that the index is entered at the boundary; the rest only sorts out the rows of
 * the boundary's own date.
 */
export function storedSide(at: Boundary, side: 'older' | 'newer', p = 'k'): Condition {
  if (at === null) return { sql: '1', params: {} };
  const [d, i, k] = [`@${p}d`, `@${p}i`, `@${p}k`];
  if ('bound' in at) return { sql: side === 'older' ? `payment_date < ${d}` : `payment_date >= ${d}`, params: { [`${p}d`]: at.bound } };
  const r = at.row;
  if (r.outboxId !== null) {
    // On its date a pending row comes before every stored one.
    return { sql: side === 'older' ? `payment_date <= ${d}` : `payment_date > ${d}`, params: { [`${p}d`]: r.paymentDate } };
  }
  const params = { [`${p}d`]: r.paymentDate, [`${p}i`]: r.id, [`${p}k`]: r.key };
  if (side === 'older') {
    return {
      sql: `payment_date <= ${d} AND (payment_date < ${d} OR (CASE WHEN ${i} IS NULL THEN id IS NULL AND key < ${k} ELSE id IS NULL OR id < ${i} OR (id = ${i} AND key < ${k}) END))`,
      params,
    };
  }
  return {
    sql: `payment_date >= ${d} AND (payment_date > ${d} OR (CASE WHEN ${i} IS NULL THEN id IS NOT NULL OR key > ${k} ELSE id > ${i} OR (id = ${i} AND key > ${k}) END))`,
    params,
  };
}
