/**
 * The register's order. Newest first: by payment date; on one date the pending rows (waiting in the
 * outbox, newest write first, then by id) before the stored ones; stored ones by id (rows without an id
 * last) and then key. The stored part of that order is exactly the order of the indexes the store reads
 * a page through (store/register-queries.ts: its keyset conditions), so that a page is a range scan from
 * a cursor: never an OFFSET, never a sort.
 */
import { endOfDay } from '../../../src-shared/calendar';
import type { Boundary, SortKey } from '../store/register-queries';

export type { Boundary, SortKey } from '../store/register-queries';

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
