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
import { LAST_N, type TransactionRow } from './rows';

/** Most rows kept (about 200 bytes each, and what is made of them). */
const KEPT_ROWS_MAX = 20_000;

/** Most accounts whose last list is kept (with its XML, about 15 KB a list of 50). */
const KEPT_LISTS_MAX = 1000;

/** Whether `a` comes before `b` in a last list: PaymentDate descending, then Id descending (the index's order). */
function before(a: TransactionRow, b: TransactionRow): boolean {
  return a.payment_date > b.payment_date || (a.payment_date === b.payment_date && a.id > b.id);
}

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

  /**
   * `toldOfCommits`: every commit that adds transactions is told through `booked` (SQLite: they are all
   * this process's group commits, and a commit of another process empties the keep), so a kept last list
   * stays the account's last list and is answered without asking the index. Otherwise (PostgreSQL, where
   * other instances book too) a list is answered only when the index names the same ids.
   */
  constructor(private readonly toldOfCommits = false) {}

  /** The account's last list (of LAST_N) when the keep knows it to be current; else undefined. */
  currentList(accountId: number): readonly TransactionRow[] | undefined {
    return this.toldOfCommits ? this.lists.get(accountId) : undefined;
  }

  /**
   * Rows just committed (nothing else may come here): kept, and put into the kept last lists of their
   * accounts. The last LAST_N of a list's rows and the new one are the last LAST_N of all the account's
   * rows and the new one; a list shorter than LAST_N holds all of its account's rows.
   */
  booked(rows: readonly TransactionRow[]): void {
    for (const booked of rows) {
      const row = Object.freeze({ ...booked });
      this.rows.add(row);
      const list = this.lists.get(row.account_id);
      if (list === undefined) continue;
      let at = 0;
      while (at < list.length && !before(row, list[at]!)) at += 1;
      if (at >= LAST_N) continue;
      const next = [...list.slice(0, at), row, ...list.slice(at, LAST_N - 1)];
      this.lists.set(row.account_id, Object.freeze(next));
    }
  }

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

  /**
   * The list of `ids` (as `lookup` left it) made of the rows the keep had and those just read from
   * committed data for the ones it lacked (kept from now on), kept as the account's last list; undefined
   * when a row is in neither (gone meanwhile).
   */
  complete(
    accountId: number,
    ids: readonly number[],
    had: readonly (TransactionRow | undefined)[],
    read: TransactionRow[],
  ): readonly TransactionRow[] | undefined {
    const byId = new Map<number, TransactionRow>();
    for (const row of this.add(read)) byId.set(row.id, row);
    const rows: TransactionRow[] = [];
    for (const [i, id] of ids.entries()) {
      const row = had[i] ?? byId.get(id);
      if (row === undefined) return undefined;
      rows.push(row);
    }
    return this.keepList(accountId, rows);
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
