/** Transactions (bookings on an account) and templates of them. */
import { KeptTransactions } from '../kept-rows';
import { LAST_N, transactionRow, type NewTemplate, type NewTransaction, type TemplateRow, type TransactionRow } from '../rows';
import type { TemplateAccess, TransactionAccess } from '../seam';
import type { Db } from './database';

const COLUMNS = 'id, account_id, user_id, created_by, payment_date, type, amount_minor, description, category_id';
type TransactionTuple = [number, number, number, number, string, number, number, string, number | null];

/** Rows missing from the keep that a list reads one by one; with more, it reads the list whole. */
const MISSES_READ_ONE_BY_ONE = 8;

export class TransactionStore implements TransactionAccess {
  private readonly lastStmt;
  private readonly lastIdsStmt;
  private readonly getStmt;
  private readonly insertStmt;
  private readonly linkStmt;
  private readonly kept: KeptTransactions | undefined;
  /** The rows inserted and not yet handed on (`recordInserts`), for the reader once they are committed. */
  private inserted: TransactionRow[] | undefined;

  /**
   * `keepRows` only on a connection that never writes (a row written and rolled back must never be kept)
   * and is told of every commit that adds rows through `booked`: the serving reader.
   * `recordInserts`: the serving writer, whose inserted rows are taken (`takeInserted`) once committed.
   */
  constructor(db: Db, keepRows = false, recordInserts = false) {
    this.kept = keepRows ? new KeptTransactions(true) : undefined;
    this.inserted = recordInserts ? [] : undefined;
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
    // Positional parameters: better-sqlite3 binds them from the arguments, where named ones cost an
    // object built per row and a lookup per name (the two inserts were a fifth of a transfer's CPU).
    this.insertStmt = db.prepare<[number, number, number, string, number, number, string, number | null, number | null, string]>(
      `INSERT INTO transactions
         (account_id, user_id, created_by, payment_date, type, amount_minor, description, category_id, transfer_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.linkStmt = db.prepare<[number, number]>('UPDATE transactions SET transfer_id = ? WHERE id = ?');
  }

  last(accountId: number, limit = LAST_N): readonly TransactionRow[] {
    const kept = this.kept;
    if (!kept) return this.read(accountId, limit);
    if (limit === LAST_N) {
      const current = kept.currentList(accountId);
      if (current !== undefined) return current;
    }
    // The order from the index; the rows from the keep. A row not kept yet (one just booked, mostly)
    // is read by its id, and when most are missing the list is read whole.
    const ids = this.lastIdsStmt.all(accountId, limit);
    const found = kept.lookup(accountId, ids);
    if ('list' in found) return found.list;
    if (found.missing.length > MISSES_READ_ONE_BY_ONE) return kept.keepList(accountId, kept.add(this.read(accountId, limit)));
    const rows: TransactionRow[] = [];
    for (const [i, id] of ids.entries()) {
      let row = found.rows[i];
      if (row === undefined) {
        row = this.getStmt.get(id);
        if (row === undefined) return kept.keepList(accountId, kept.add(this.read(accountId, limit)));
        kept.add([row]);
      }
      rows.push(row);
    }
    return kept.keepList(accountId, rows);
  }

  /** Forgets the kept rows: another process has changed the file. */
  forgetRows(): void {
    this.kept?.forget();
  }

  /** Rows committed by the serving writer: kept, and put into the kept lists (see KeptTransactions.booked). */
  booked(rows: readonly TransactionRow[]): void {
    this.kept?.booked(rows);
  }

  /** How many inserted rows are recorded now (a savepoint's mark). */
  get insertedCount(): number {
    return this.inserted?.length ?? 0;
  }

  /** Drops the rows recorded since `mark`: their savepoint was rolled back. */
  dropInsertedFrom(mark: number): void {
    if (this.inserted !== undefined) this.inserted.length = mark;
  }

  /** The rows recorded since the last take, handed on (the group committed) or dropped (it did not). */
  takeInserted(): TransactionRow[] {
    const rows = this.inserted ?? [];
    if (this.inserted !== undefined) this.inserted = [];
    return rows;
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
  insert(t: NewTransaction): TransactionRow {
    const row = transactionRow(this.insertId(t, null, new Date().toISOString()), t);
    this.inserted?.push(row);
    return row;
  }

  insertTransfer(first: NewTransaction, second: NewTransaction): [TransactionRow, TransactionRow] {
    // Both halves carry one creation time: one clock reading and one date string per transfer.
    const now = new Date().toISOString();
    const firstId = this.insertId(first, null, now);
    const secondId = this.insertId(second, firstId, now);
    this.linkToTransfer(firstId, firstId);
    const rows: [TransactionRow, TransactionRow] = [transactionRow(firstId, first), transactionRow(secondId, second)];
    this.inserted?.push(...rows);
    return rows;
  }

  private insertId(t: NewTransaction, transferId: number | null, now: string): number {
    const info = this.insertStmt.run(t.accountId, t.userId, t.createdBy, t.paymentDate, t.type, t.amountMinor, t.description, t.categoryId, transferId, now);
    return Number(info.lastInsertRowid);
  }

  /** Marks a transaction as half of the transfer whose first half is `transferId`. */
  private linkToTransfer(id: number, transferId: number): void {
    this.linkStmt.run(transferId, id);
  }
}

export class TemplateStore implements TemplateAccess {
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

  listFor(userId: number): TemplateRow[] {
    return this.listStmt.all(userId);
  }

  insert(t: NewTemplate): number {
    return Number(this.insertStmt.run({ ...t, now: new Date().toISOString() }).lastInsertRowid);
  }
}
