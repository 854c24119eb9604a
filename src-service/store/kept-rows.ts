/**
 * Transaction rows kept by a reader of committed data, and the last list of each account made of them.
 *
 * A stored transaction never changes (no operation edits or deletes one; the link of a transfer's halves
 * is not part of the row), so a kept row stays right until someone changes stored rows behind the
 * service's back, which empties the keep (`forget`). Kept rows are frozen: what is made of one (its
 * record, its XML) may be kept by identity. A list of the last 50 reads its ids from the index and takes
 * the rows from the keep; the same ids as last time give the very same frozen list.
 *
 * Only a reader of committed data may keep rows: a row written and rolled back must never be kept.
 */
import type { TransactionRow } from './rows';

/** Most rows kept (about 200 bytes each, and what is made of them). */
export const KEPT_ROWS_MAX = 20_000;

/** Most accounts whose last list is kept (with its XML, about 15 KB a list of 50). */
const KEPT_LISTS_MAX = 1000;

function sameIds(rows: readonly TransactionRow[], ids: readonly number[]): boolean {
  if (rows.length !== ids.length) return false;
  for (let i = 0; i < ids.length; i++) if (rows[i]!.id !== ids[i]) return false;
  return true;
}

/** Rows by id in two maps of at most half the limit each: the older is dropped whole when the newer is full. */
class KeptRows {
  private young = new Map<number, TransactionRow>();
  private old = new Map<number, TransactionRow>();

  get(id: number): TransactionRow | undefined {
    const row = this.young.get(id);
    if (row !== undefined) return row;
    const aged = this.old.get(id);
    if (aged !== undefined) this.add(aged);
    return aged;
  }

  add(row: TransactionRow): void {
    if (this.young.size >= KEPT_ROWS_MAX / 2) {
      this.old = this.young;
      this.young = new Map();
    }
    this.young.set(row.id, row);
  }

  forget(): void {
    this.young = new Map();
    this.old = new Map();
  }
}

/** What the keep holds of a list: the very list answered last time, or the rows it has (with the ids it lacks). */
export type KeptLookup = { list: readonly TransactionRow[] } | { rows: (TransactionRow | undefined)[]; missing: number[] };

export class KeptTransactions {
  private readonly rows = new KeptRows();
  private readonly lists = new Map<number, readonly TransactionRow[]>();
  /** Counts the times the keep was emptied: a reader that began before one must not keep what it read. */
  epoch = 0;

  /** The list of `ids` (an account's last, newest first) as far as the keep holds it. */
  lookup(accountId: number, ids: readonly number[]): KeptLookup {
    const previous = this.lists.get(accountId);
    if (previous !== undefined && sameIds(previous, ids)) return { list: previous };
    const rows: (TransactionRow | undefined)[] = [];
    const missing: number[] = [];
    for (const id of ids) {
      const row = this.rows.get(id);
      rows.push(row);
      if (row === undefined) missing.push(id);
    }
    if (missing.length === 0) return { list: this.keepList(accountId, rows as TransactionRow[]) };
    return { rows, missing };
  }

  /** Keeps rows read from committed data (frozen) and returns them. */
  add(rows: TransactionRow[]): TransactionRow[] {
    for (const row of rows) this.rows.add(Object.freeze(row));
    return rows;
  }

  /** The account's list, made of kept (frozen) rows, kept as the account's last list. */
  keepList(accountId: number, rows: TransactionRow[]): readonly TransactionRow[] {
    const list = Object.freeze(rows);
    if (this.lists.size >= KEPT_LISTS_MAX) this.lists.clear();
    this.lists.set(accountId, list);
    return list;
  }

  /** Forgets everything: stored rows were changed behind the service's back. */
  forget(): void {
    this.epoch += 1;
    this.rows.forget();
    this.lists.clear();
  }
}
