/**
 * Totals of stored transactions per month, category, type and account, kept by triggers in the same
 * transaction as every write of a transaction (a pull, a sync's answer, a restore, clearing the copy).
 * A report over years reads these few thousand rows instead of every transaction: over a million
 * transactions a pass over them all costs some 70 ms a pass on this kind of machine, these a few.
 *
 * Only rows with integer units (amount-units.ts) are counted here; the rare others are summed from their
 * text in code. A sum that would leave SQLite's 64 bits becomes NULL instead of failing the write: that
 * group is then summed from its rows in code. Nothing here is ever taken from a file (a restore
 * rebuilds it through the same triggers), so a wrong total cannot be brought in.
 */
import type Database from 'better-sqlite3';
import { parseDecimal, ZERO } from '../../../src-shared/money';
import { GroupSet, type Group } from './transaction-sums';

const MAX = '9223372036854775807';
const MIN = '(-9223372036854775807 - 1)';

/** What a trigger does for a row that comes (`new`) or goes (`old`). */
const addRow = (row: 'new') => `
  INSERT INTO month_totals (month, category_id, type, account_id, income, expense, count)
  VALUES (${row}.month, ${row}.category_id, ${row}.type, ${row}.account_id, max(${row}.amount_units, 0), min(${row}.amount_units, 0), 1)
  ON CONFLICT DO UPDATE SET
    income = CASE WHEN income > ${MAX} - excluded.income THEN NULL ELSE income + excluded.income END,
    expense = CASE WHEN expense < ${MIN} - excluded.expense THEN NULL ELSE expense + excluded.expense END,
    count = count + 1;`;
const removeRow = (row: 'old') => `
  UPDATE month_totals SET income = income - max(${row}.amount_units, 0), expense = expense - min(${row}.amount_units, 0), count = count - 1
    WHERE month = ${row}.month AND category_id = ${row}.category_id AND type = ${row}.type AND account_id = ${row}.account_id;
  DELETE FROM month_totals
    WHERE month = ${row}.month AND category_id = ${row}.category_id AND type = ${row}.type AND account_id = ${row}.account_id AND count = 0;`;

/** The table, its index and its triggers (migration 3). */
export const MONTH_TOTALS_SCHEMA = `
  CREATE TABLE month_totals (
    month TEXT NOT NULL,
    category_id INTEGER NOT NULL,
    type INTEGER NOT NULL,
    account_id INTEGER NOT NULL,
    -- Sums of the positive and of the negative amount_units; NULL once a sum would leave 64 bits.
    income INTEGER,
    expense INTEGER,
    -- Rows counted (those with units).
    count INTEGER NOT NULL,
    PRIMARY KEY (month, category_id, type, account_id)
  ) STRICT, WITHOUT ROWID;
  CREATE INDEX month_totals_by_account ON month_totals (account_id, month, income, expense);
  CREATE TRIGGER month_totals_insert AFTER INSERT ON transactions WHEN new.amount_units IS NOT NULL BEGIN ${addRow('new')} END;
  CREATE TRIGGER month_totals_delete AFTER DELETE ON transactions WHEN old.amount_units IS NOT NULL BEGIN ${removeRow('old')} END;
  CREATE TRIGGER month_totals_update_old AFTER UPDATE OF account_id, month, category_id, type, amount_units ON transactions
    WHEN old.amount_units IS NOT NULL BEGIN ${removeRow('old')} END;
  CREATE TRIGGER month_totals_update_new AFTER UPDATE OF account_id, month, category_id, type, amount_units ON transactions
    WHEN new.amount_units IS NOT NULL BEGIN ${addRow('new')} END;
`;

/** Fills the totals from the stored rows (the migration that creates them); sums beyond 64 bits become NULL. */
export function fillMonthTotals(db: Database.Database): void {
  db.aggregate('bookkeeping_units_sum', {
    start: () => 0n,
    step: (total: bigint, units: unknown) => total + BigInt(units as bigint),
    result: (total: bigint) => (total > BigInt(MAX) || total < -BigInt(MAX) - 1n ? null : total),
    safeIntegers: true,
  });
  db.exec(`
    INSERT INTO month_totals (month, category_id, type, account_id, income, expense, count)
      SELECT month, category_id, type, account_id,
             bookkeeping_units_sum(max(amount_units, 0)), bookkeeping_units_sum(min(amount_units, 0)), COUNT(*)
      FROM transactions WHERE amount_units IS NOT NULL
      GROUP BY month, category_id, type, account_id;
  `);
}

export interface MonthQuery {
  /** Only these accounts, or every account. */
  accounts: readonly number[] | null;
  /** Whole months, YYYY-MM, both included. */
  first: string;
  last: string;
}

/**
 * Income, expense and count per group of the stored rows of whole months: by (month, category, type)
 * across the accounts ('flows'), by (account, month) ('balances'), or all together ('all'). Exact: the
 * totals' integers, the groups whose totals left 64 bits summed from their rows, the rows without units
 * from their text.
 */
export function monthGroups(prepare: (sql: string) => Database.Statement, q: MonthQuery, by: 'flows' | 'balances' | 'all'): Group[] {
  const keys = by === 'flows' ? ['month', 'category_id', 'type'] : by === 'balances' ? ['account_id', 'month'] : [];
  // By month across accounts: the table's own order; per account: its index by account (the accounts then filter by it).
  const perAccount = by === 'balances' || (by === 'all' && q.accounts !== null);
  const index = perAccount ? ' INDEXED BY month_totals_by_account' : '';
  const where = `month BETWEEN @first AND @last${q.accounts ? ` AND ${perAccount ? '' : '+'}account_id IN (SELECT value FROM json_each(@accounts))` : ''}`;
  const params: Record<string, unknown> = { first: q.first, last: q.last, ...(q.accounts ? { accounts: JSON.stringify(q.accounts) } : {}) };
  const groups = new GroupSet();
  const fromTotals = (rows: unknown[][], unique: boolean) => {
    for (const r of rows) {
      const count = Number(r[keys.length + 2] ?? 0);
      if (count > 0) groups.addTotals(r.slice(0, keys.length), r[keys.length] as bigint, r[keys.length + 1] as bigint, count, unique);
    }
  };
  const list = keys.join(', ');
  const select = list ? `${list}, ` : '';
  const fromRows = (rows: unknown[][]) => {
    for (const r of rows) groups.addRow(r.slice(0, keys.length), parseDecimal(String(r[keys.length])) ?? ZERO);
  };

  const complete = `income IS NOT NULL AND expense IS NOT NULL`;
  try {
    fromTotals(
      prepare(
        `SELECT ${select}SUM(income), SUM(expense), SUM(count) FROM month_totals${index} WHERE ${where} AND ${complete}${list ? ` GROUP BY ${list}` : ''}`,
      )
        .raw(true)
        .safeIntegers(true)
        .all(params) as unknown[][],
      true,
    );
  } catch (e) {
    if (!(e instanceof Error && /integer overflow/i.test(e.message))) throw e;
    // The totals of several accounts together leave 64 bits: added up here instead.
    groups.clear();
    fromTotals(
      prepare(`SELECT ${select}income, expense, count FROM month_totals${index} WHERE ${where} AND ${complete}`)
        .raw(true)
        .safeIntegers(true)
        .all(params) as unknown[][],
      false,
    );
  }
  // Groups whose totals left 64 bits: their rows, summed here.
  const overflowed = prepare(`SELECT month, category_id, type, account_id FROM month_totals WHERE ${where} AND NOT (${complete})`)
    .raw(true)
    .all(params) as [string, number, number, number][];
  for (const [month, category, type, account] of overflowed) {
    const amounts = prepare(
      'SELECT amount FROM transactions WHERE month = ? AND category_id = ? AND type = ? AND account_id = ? AND amount_units IS NOT NULL',
    )
      .pluck()
      .all(month, category, type, account) as string[];
    const key = by === 'flows' ? [month, category, type] : by === 'balances' ? [account, month] : [];
    fromRows(amounts.map((amount) => [...key, amount]));
  }
  // The rows without units, from their text (through their own small index).
  fromRows(
    prepare(
      `SELECT ${select}amount FROM transactions INDEXED BY transactions_odd_amounts WHERE ${where.replace('+account_id', 'account_id')} AND amount_units IS NULL`,
    )
      .raw(true)
      .all(params) as unknown[][],
  );
  return groups.groups();
}
