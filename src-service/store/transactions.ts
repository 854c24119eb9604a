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

export class TransactionStore {
  private readonly lastStmt;
  private readonly getStmt;
  private readonly insertStmt;
  private readonly linkStmt;

  constructor(db: Db) {
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
  last(accountId: number, limit = LAST_N): TransactionRow[] {
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

  get(id: number): TransactionRow | undefined {
    return this.getStmt.get(id);
  }

  /** Inserts one transaction (the balance follows by trigger). Call inside a transaction. */
  insert(t: NewTransaction): number {
    return Number(this.insertStmt.run({ ...t, transferId: t.transferId ?? null, now: new Date().toISOString() }).lastInsertRowid);
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
