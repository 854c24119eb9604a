/** Transactions (bookings on an account) and templates of them. */
import type { Db } from './database';

export const TRANSACTION_TYPE = { income: 1, expense: 2, transfer: 3 } as const;

export interface NewTransaction {
  accountId: number;
  userId: number;
  createdBy: number;
  paymentDate: string;
  type: number;
  amountMinor: number;
  description: string;
  /** null for none (0 on the wire). */
  categoryId: number | null;
  transferId?: number | null;
}

export interface TransactionRow {
  id: number;
  account_id: number;
  user_id: number;
  created_by: number;
  payment_date: string;
  type: number;
  amount_minor: number;
  description: string;
  category_id: number | null;
}

const COLUMNS = 'id, account_id, user_id, created_by, payment_date, type, amount_minor, description, category_id';
type TransactionTuple = [number, number, number, number, string, number, number, string, number | null];

/** How many transactions TransactionListLast50 returns (interface section 8). */
export const LAST_N = 50;

/** Rows missing from the keep that a list reads one by one; with more, it reads the list whole. */
const MISSES_READ_ONE_BY_ONE = 8;

/** Most accounts whose last list a reader keeps (with its XML, about 15 KB a list of 50). */
const KEPT_LISTS_MAX = 1000;

function sameIds(rows: readonly TransactionRow[], ids: readonly number[]): boolean {
  if (rows.length !== ids.length) return false;
  for (let i = 0; i < ids.length; i++) if (rows[i]!.id !== ids[i]) return false;
  return true;
}

/** Most rows a reader keeps (about 200 bytes each, and what is made of them). */
export const KEPT_ROWS_MAX = 20_000;

/**
 * Transaction rows by id, for a connection that sees committed data only. A stored transaction never
 * changes (no operation edits or deletes one; the link of a transfer's halves is not part of the row),
 * so a kept row stays right until another process changes the file, which empties the keep
 * (`forget`). Kept rows are frozen: what is made of one (its record, its XML) may be kept by identity.
 * Two maps of at most half the limit each: the older is dropped whole when the newer is full.
 */
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

export class TransactionStore {
  private readonly lastStmt;
  private readonly lastIdsStmt;
  private readonly getStmt;
  private readonly insertStmt;
  private readonly linkStmt;
  private readonly kept: KeptRows | undefined;
  private readonly lists = new Map<number, readonly TransactionRow[]>();

  /** `keepRows` only on a connection that never writes: a row written and rolled back must never be kept. */
  constructor(db: Db, keepRows = false) {
    this.kept = keepRows ? new KeptRows() : undefined;
    // The index on (account_id, payment_date DESC, id DESC) holds the ids: answered from the index alone.
    this.lastIdsStmt = db
      .prepare<[number, number], number>('SELECT id FROM transactions WHERE account_id = ? ORDER BY payment_date DESC, id DESC LIMIT ?')
      .pluck();
    // Rows as arrays: better-sqlite3 builds them much faster than objects with named keys, and this
    // list is on the hot path (the object literal below gets one hidden class in V8).
    this.lastStmt = db
      .prepare<[number, number], TransactionTuple>(
        `SELECT ${COLUMNS} FROM transactions WHERE account_id = ? ORDER BY payment_date DESC, id DESC LIMIT ?`,
      )
      .raw();
    this.getStmt = db.prepare<[number], TransactionRow>(`SELECT ${COLUMNS} FROM transactions WHERE id = ?`);
    this.insertStmt = db.prepare<[NewTransaction & { transferId: number | null; now: string }]>(
      `INSERT INTO transactions
         (account_id, user_id, created_by, payment_date, type, amount_minor, description, category_id, transfer_id, created_at)
       VALUES (@accountId, @userId, @createdBy, @paymentDate, @type, @amountMinor, @description, @categoryId, @transferId, @now)`,
    );
    this.linkStmt = db.prepare<[number, number]>('UPDATE transactions SET transfer_id = ? WHERE id = ?');
  }

  /** The newest transactions of an account: PaymentDate descending, then Id descending. */
  last(accountId: number, limit = LAST_N): readonly TransactionRow[] {
    const kept = this.kept;
    if (!kept) return this.read(accountId, limit);
    // The order from the index; the same ids as the list answered last time: that very (frozen) list,
    // so that what was made of it may be kept by its identity too.
    const ids = this.lastIdsStmt.all(accountId, limit);
    const previous = this.lists.get(accountId);
    if (previous !== undefined && sameIds(previous, ids)) return previous;
    const list = Object.freeze(this.keptRows(kept, accountId, limit, ids));
    if (this.lists.size >= KEPT_LISTS_MAX) this.lists.clear();
    this.lists.set(accountId, list);
    return list;
  }

  /** The rows of `ids` from the keep; a row not kept yet (one just booked, mostly) is read by its id, and when most are missing the list is read whole. */
  private keptRows(kept: KeptRows, accountId: number, limit: number, ids: number[]): TransactionRow[] {
    const rows: TransactionRow[] = [];
    let misses = 0;
    for (const id of ids) {
      let row = kept.get(id);
      if (row === undefined) {
        if (++misses > MISSES_READ_ONE_BY_ONE) break;
        row = this.getStmt.get(id);
        if (row === undefined) break;
        kept.add(Object.freeze(row));
      }
      rows.push(row);
    }
    if (rows.length === ids.length) return rows;
    const read = this.read(accountId, limit);
    for (const row of read) kept.add(Object.freeze(row));
    return read;
  }

  /** Forgets the kept rows: another process has changed the file. */
  forgetRows(): void {
    this.kept?.forget();
    this.lists.clear();
  }

  private read(accountId: number, limit: number): TransactionRow[] {
    return this.lastStmt.all(accountId, limit).map((r) => ({
      id: r[0],
      account_id: r[1],
      user_id: r[2],
      created_by: r[3],
      payment_date: r[4],
      type: r[5],
      amount_minor: r[6],
      description: r[7],
      category_id: r[8],
    }));
  }

  /** Inserts one transaction (the balance follows by trigger). Call inside a transaction. */
  insert(t: NewTransaction): number {
    return Number(this.insertStmt.run({ ...t, transferId: t.transferId ?? null, now: new Date().toISOString() }).lastInsertRowid);
  }

  /** Inserts one transaction and returns its row as stored (the values bound, and its new id). */
  insertRow(t: NewTransaction): TransactionRow {
    return {
      id: this.insert(t),
      account_id: t.accountId,
      user_id: t.userId,
      created_by: t.createdBy,
      payment_date: t.paymentDate,
      type: t.type,
      amount_minor: t.amountMinor,
      description: t.description,
      category_id: t.categoryId,
    };
  }

  /** Marks a transaction as half of the transfer whose first half is `transferId`. */
  linkToTransfer(id: number, transferId: number): void {
    this.linkStmt.run(transferId, id);
  }
}

export interface NewTemplate {
  userId: number;
  createdBy: number;
  accountId: number;
  type: number;
  amountMinor: number;
  description: string;
  categoryId: number | null;
  ord: number;
}

export interface TemplateRow {
  id: number;
  user_id: number;
  created_by: number;
  account_id: number;
  currency: number;
  type: number;
  amount_minor: number;
  description: string;
  category_id: number | null;
  ord: number;
}

export class TemplateStore {
  private readonly listStmt;
  private readonly insertStmt;

  constructor(db: Db) {
    // The currency comes along because a template's amount is in its account's minor units.
    this.listStmt = db.prepare<[number], TemplateRow>(
      `SELECT t.id, t.user_id, t.created_by, t.account_id, a.currency, t.type, t.amount_minor, t.description,
              t.category_id, t.ord
       FROM templates t JOIN accounts a ON a.id = t.account_id
       WHERE t.user_id = ? ORDER BY t.ord, t.id`,
    );
    this.insertStmt = db.prepare<[NewTemplate & { now: string }]>(
      `INSERT INTO templates (user_id, created_by, account_id, type, amount_minor, description, category_id, ord, created_at)
       VALUES (@userId, @createdBy, @accountId, @type, @amountMinor, @description, @categoryId, @ord, @now)`,
    );
  }

  /** A user's templates by Ord then Id. */
  listFor(userId: number): TemplateRow[] {
    return this.listStmt.all(userId);
  }

  insert(t: NewTemplate): number {
    return Number(this.insertStmt.run({ ...t, now: new Date().toISOString() }).lastInsertRowid);
  }
}
