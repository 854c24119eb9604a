/**
 * Transactions, by their key: every one the service ever listed or returned (the history grows beyond its
 * last 50). Beside each, for SQL's sake: exact sums (amount_units), grouping (month) and the detail's
 * "changed" (changed_at). A row changes only when a field does.
 */
import { TRANSACTION } from '../../../src-shared/records/transaction';
import type { Accounts } from './accounts';
import { AMOUNT_UNITS, amountUnits } from './amount-units';
import { changedCondition, columnList, columnsOf, paramList, rowParams, rowReader, updateList, type Prepare, type Row } from './record-sql';
import type { TransactionRow } from './rows';
import type { TextQuery } from './text-search';

const TRANSACTION_COLUMNS = columnsOf(TRANSACTION, TRANSACTION.stored);
const UPSERT_TRANSACTION = `INSERT INTO transactions (key, ${columnList(TRANSACTION_COLUMNS)}, amount_units, month, changed_at)
  VALUES (@key, ${paramList(TRANSACTION_COLUMNS)}, @amountUnits, substr(@paymentDate, 1, 7), @changedAt)
  ON CONFLICT (key) DO UPDATE SET ${updateList(TRANSACTION_COLUMNS)}, month = excluded.month, amount_units = excluded.amount_units, changed_at = excluded.changed_at
  WHERE ${changedCondition('transactions', TRANSACTION_COLUMNS)}`;
const readTransaction = rowReader<Omit<TransactionRow, 'key'>>(TRANSACTION, TRANSACTION.stored);
const transactionOf = (r: Row): TransactionRow => ({ key: r.key as string, ...readTransaction(r) });

/** A condition over `transactions` with named parameters, built in the store (register and search queries). */
export interface Condition {
  sql: string;
  params: Record<string, unknown>;
}

/** The newest first order of stored rows (the date indexes read backwards). */
export const NEWEST_FIRST = 'payment_date DESC, id DESC, key DESC';

/**
 * Stored transactions matching a condition, in an order, through an index (an INDEXED BY clause, or '');
 * limit -1: all. The statement of each shape is prepared once.
 */
export function selectTransactions(
  sql: Prepare,
  q: { indexedBy?: string; where: Condition; orderBy: string; limit: number; offset?: number },
): TransactionRow[] {
  const rows = sql(
    `SELECT * FROM transactions ${q.indexedBy ?? ''} WHERE ${q.where.sql} ORDER BY ${q.orderBy} LIMIT @limit OFFSET @offset`,
  ).all({
    ...q.where.params,
    limit: q.limit,
    offset: q.offset ?? 0,
  }) as Row[];
  return rows.map(transactionOf);
}

/** How many stored transactions match a condition, read through an index ('' for the planner's pick). */
export function countTransactions(sql: Prepare, where: Condition, indexedBy = ''): number {
  return sql(`SELECT COUNT(*) FROM transactions ${indexedBy} WHERE ${where.sql}`).pluck().get(where.params) as number;
}

/** An account's transactions, those a text matches. */
const ofAccount = (accountId: number, text: TextQuery | null | undefined): Condition => ({
  sql: text ? `account_id = @accountId AND ${text.sql}` : 'account_id = @accountId',
  params: { accountId, ...text?.params },
});

export class Transactions {
  constructor(
    private readonly sql: Prepare,
    private readonly accounts: Accounts,
  ) {}

  /**
   * Writes transactions the service listed or returned (of accounts the copy holds); returns how many were
   * new or changed. A row that is already stored as it is stays untouched (a pull lists the same last 50
   * every time): its changed_at keeps the moment it last changed.
   */
  upsert(rows: readonly TransactionRow[]): number {
    const stmt = this.sql(UPSERT_TRANSACTION);
    const held = this.accounts.holds();
    const changedAt = new Date().toISOString();
    let changed = 0;
    for (const r of rows) {
      if (!held(r.accountId)) continue;
      changed += stmt.run({
        key: r.key,
        ...rowParams(TRANSACTION, TRANSACTION.stored, r),
        amountUnits: amountUnits(r.amount),
        changedAt,
      }).changes;
    }
    return changed;
  }

  /**
   * Sets every transaction's integer units from its amount again: after a restore, the copy's derived
   * column is not taken on trust from the file (a wrong one would make sums wrong without a trace).
   */
  recomputeAmountUnits(): void {
    this.sql(`UPDATE transactions SET amount_units = ${AMOUNT_UNITS}(amount) WHERE amount_units IS NOT ${AMOUNT_UNITS}(amount)`).run();
  }

  /** How many an account has stored (those the text matches: text-search.ts). */
  count(accountId: number, text?: TextQuery | null): number {
    return countTransactions(this.sql, ofAccount(accountId, text));
  }

  /** An account's transactions newest first (by date, then id), a page at a time (those the text matches). */
  page(accountId: number, offset: number, limit: number, text?: TextQuery | null): TransactionRow[] {
    return selectTransactions(this.sql, { where: ofAccount(accountId, text), orderBy: NEWEST_FIRST, limit, offset });
  }

  /** Every stored transaction of an account (for comparisons and checks). */
  all(accountId: number): TransactionRow[] {
    return this.page(accountId, 0, -1);
  }

  /** A stored transaction by its key, with when this copy last saw it change. */
  byKey(key: string): (TransactionRow & { changedAt: string | null }) | null {
    const r = this.sql('SELECT * FROM transactions WHERE key = ?').get(key) as Row | undefined;
    return r ? { ...transactionOf(r), changedAt: (r.changed_at as string | null) ?? null } : null;
  }

  /**
   * The other side of a stored transfer: the transaction on another account at the same moment, of the
   * same type, description and category, with the opposite amount; the nearest by id when several are.
   */
  counterpart(t: TransactionRow, opposite: string): { key: string; id: number | null; accountId: number } | null {
    const r = this.sql(
      `SELECT key, id, account_id FROM transactions WHERE payment_date = @date AND type = @type AND amount = @amount
         AND description = @description AND category_id = @category AND account_id <> @account AND key <> @key
       ORDER BY abs(IFNULL(id, 0) - IFNULL(@id, 0)), key LIMIT 1`,
    ).get({
      date: t.paymentDate,
      type: t.type,
      amount: opposite,
      description: t.description,
      category: t.categoryId,
      account: t.accountId,
      key: t.key,
      id: t.id,
    }) as { key: string; id: number | null; account_id: number } | undefined;
    return r ? { key: r.key, id: r.id, accountId: r.account_id } : null;
  }

  /** Ids of an account's stored transactions; null when some have none (a service that lists them without ids). */
  ids(accountId: number): number[] | null {
    const ids = this.sql('SELECT id FROM transactions WHERE account_id = ?').pluck().all(accountId) as (number | null)[];
    return ids.includes(null) ? null : (ids as number[]);
  }
}
