/**
 * Totals of stored transactions per month, kept by triggers in the same transaction as every write of a
 * transaction (a pull, a sync's answer, a restore, clearing the copy), in three tables: per month,
 * category, type and account (month_totals); per account and month (account_months); per month,
 * category and type across accounts (month_flows). A report over years reads these rows instead of
 * every transaction: over a million transactions a pass over them all costs some 70 ms a pass on this
 * kind of machine. The finest table still holds about one row for every two transactions of a copy of
 * 100,000, so each read goes to the coarsest table that has its groups (monthGroups).
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

/** A table of totals: the stored transactions' columns it groups by (its primary key). */
interface TotalsTable {
  name: string;
  keys: readonly string[];
}

/** Per month, category, type and account: any report's flows over chosen accounts (migration 3). */
const MONTH_TOTALS: TotalsTable = { name: 'month_totals', keys: ['month', 'category_id', 'type', 'account_id'] };
/** Per account and month: balances, counts and sums by account (migration 4). Some 60 rows a year for 10 accounts. */
const ACCOUNT_MONTHS: TotalsTable = { name: 'account_months', keys: ['account_id', 'month'] };
/** Per month, category and type across all accounts: the flows of a report over every stored row (migration 4). */
const MONTH_FLOWS: TotalsTable = { name: 'month_flows', keys: ['month', 'category_id', 'type'] };

/** The tables kept here from the transactions: a restore rebuilds them rather than copying them. */
export const TOTALS_TABLES: readonly string[] = [MONTH_TOTALS, ACCOUNT_MONTHS, MONTH_FLOWS].map((t) => t.name);

const keyMatch = (t: TotalsTable, row: 'old' | 'new') => t.keys.map((k) => `${k} = ${row}.${k}`).join(' AND ');

/** What a trigger does for a row that comes (`new`) into a table of totals. */
const addRow = (t: TotalsTable, row: 'new') => `
  INSERT INTO ${t.name} (${t.keys.join(', ')}, income, expense, count)
  VALUES (${t.keys.map((k) => `${row}.${k}`).join(', ')}, max(${row}.amount_units, 0), min(${row}.amount_units, 0), 1)
  ON CONFLICT DO UPDATE SET
    income = CASE WHEN income > ${MAX} - excluded.income THEN NULL ELSE income + excluded.income END,
    expense = CASE WHEN expense < ${MIN} - excluded.expense THEN NULL ELSE expense + excluded.expense END,
    count = count + 1;`;
/** What a trigger does for a row that goes (`old`). */
const removeRow = (t: TotalsTable, row: 'old') => `
  UPDATE ${t.name} SET income = income - max(${row}.amount_units, 0), expense = expense - min(${row}.amount_units, 0), count = count - 1
    WHERE ${keyMatch(t, row)};
  DELETE FROM ${t.name} WHERE ${keyMatch(t, row)} AND count = 0;`;

/** A table of totals and the triggers that keep it in the same transaction as every write of a transaction. */
const totalsSchema = (t: TotalsTable, types: Record<string, string>) => `
  CREATE TABLE ${t.name} (
    ${t.keys.map((k) => `${k} ${types[k]} NOT NULL`).join(',\n    ')},
    -- Sums of the positive and of the negative amount_units; NULL once a sum would leave 64 bits.
    income INTEGER,
    expense INTEGER,
    -- Rows counted (those with units).
    count INTEGER NOT NULL,
    PRIMARY KEY (${t.keys.join(', ')})
  ) STRICT, WITHOUT ROWID;
  CREATE TRIGGER ${t.name}_insert AFTER INSERT ON transactions WHEN new.amount_units IS NOT NULL BEGIN ${addRow(t, 'new')} END;
  CREATE TRIGGER ${t.name}_delete AFTER DELETE ON transactions WHEN old.amount_units IS NOT NULL BEGIN ${removeRow(t, 'old')} END;
  CREATE TRIGGER ${t.name}_update_old AFTER UPDATE OF ${t.keys.join(', ')}, amount_units ON transactions
    WHEN old.amount_units IS NOT NULL BEGIN ${removeRow(t, 'old')} END;
  CREATE TRIGGER ${t.name}_update_new AFTER UPDATE OF ${t.keys.join(', ')}, amount_units ON transactions
    WHEN new.amount_units IS NOT NULL BEGIN ${addRow(t, 'new')} END;
`;

const KEY_TYPES = { month: 'TEXT', category_id: 'INTEGER', type: 'INTEGER', account_id: 'INTEGER' };

/** The table, its index and its triggers (migration 3). */
export const MONTH_TOTALS_SCHEMA = `${totalsSchema(MONTH_TOTALS, KEY_TYPES)}
  CREATE INDEX month_totals_by_account ON month_totals (account_id, month, income, expense);
`;

/**
 * The totals per account and month and per month, category and type (migration 4): month_totals holds
 * about as many rows as there are transactions in a copy of 100,000 (two a group), so a report over
 * years read that many; these hold a few thousand whatever the history's size.
 */
export const MONTH_SUMS_SCHEMA = `${totalsSchema(ACCOUNT_MONTHS, KEY_TYPES)}${totalsSchema(MONTH_FLOWS, KEY_TYPES)}`;

/** Fills a table of totals from the stored rows (the migration that creates it); sums beyond 64 bits become NULL. */
function fillTotals(db: Database.Database, t: TotalsTable): void {
  db.aggregate('bookkeeping_units_sum', {
    start: () => 0n,
    step: (total: bigint, units: unknown) => total + BigInt(units as bigint),
    result: (total: bigint) => (total > BigInt(MAX) || total < -BigInt(MAX) - 1n ? null : total),
    safeIntegers: true,
  });
  const keys = t.keys.join(', ');
  db.exec(`
    INSERT INTO ${t.name} (${keys}, income, expense, count)
      SELECT ${keys}, bookkeeping_units_sum(max(amount_units, 0)), bookkeeping_units_sum(min(amount_units, 0)), COUNT(*)
      FROM transactions WHERE amount_units IS NOT NULL
      GROUP BY ${keys};
  `);
}

export const fillMonthTotals = (db: Database.Database): void => fillTotals(db, MONTH_TOTALS);
export const fillMonthSums = (db: Database.Database): void => [ACCOUNT_MONTHS, MONTH_FLOWS].forEach((t) => fillTotals(db, t));

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
 * from their text. Read from the smallest table that has the groups: flows over every stored row from
 * month_flows, over some accounts from month_totals; the rest from account_months.
 */
export function monthGroups(prepare: (sql: string) => Database.Statement, q: MonthQuery, by: 'flows' | 'balances' | 'all'): Group[] {
  const keys = by === 'flows' ? ['month', 'category_id', 'type'] : by === 'balances' ? ['account_id', 'month'] : [];
  const table = by !== 'flows' ? ACCOUNT_MONTHS : q.accounts ? MONTH_TOTALS : MONTH_FLOWS;
  const ofAccounts = (plus: string) => (q.accounts ? ` AND ${plus}account_id IN (SELECT value FROM json_each(@accounts))` : '');
  // Flows of some accounts: month_totals in its own order by month, the accounts only filtered (the unary plus).
  const where = `month BETWEEN @first AND @last${ofAccounts(table === MONTH_TOTALS ? '+' : '')}`;
  const params: Record<string, unknown> = { first: q.first, last: q.last, ...(q.accounts ? { accounts: JSON.stringify(q.accounts) } : {}) };
  const groups = new GroupSet();
  addTotals(prepare, groups, { table: table.name, keys, where, params });
  // Groups whose totals left 64 bits: their rows, summed here.
  const overflowed = prepare(`SELECT ${table.keys.join(', ')} FROM ${table.name} WHERE ${where} AND NOT (${COMPLETE})`)
    .raw(true)
    .all(params) as unknown[][];
  const sameKey = table.keys.map((k) => `${k} = ?`).join(' AND ');
  for (const values of overflowed) {
    const amounts = prepare(`SELECT amount FROM transactions WHERE ${sameKey} AND amount_units IS NOT NULL`)
      .pluck()
      .all(...values) as string[];
    const key = keys.map((k) => values[table.keys.indexOf(k)]);
    for (const amount of amounts) groups.addRow(key, parseDecimal(amount) ?? ZERO);
  }
  // The rows without units, from their text (through their own small index).
  const select = keys.length ? `${keys.join(', ')}, ` : '';
  const odd = prepare(
    `SELECT ${select}amount FROM transactions INDEXED BY transactions_odd_amounts WHERE month BETWEEN @first AND @last${ofAccounts('')} AND amount_units IS NULL`,
  )
    .raw(true)
    .all(params) as unknown[][];
  for (const r of odd) groups.addRow(r.slice(0, keys.length), parseDecimal(String(r[keys.length])) ?? ZERO);
  return groups.groups();
}

const COMPLETE = 'income IS NOT NULL AND expense IS NOT NULL';

/** The complete totals, summed by SQLite per group; if several together leave 64 bits, added up here instead. */
function addTotals(
  prepare: (sql: string) => Database.Statement,
  groups: GroupSet,
  q: { table: string; keys: string[]; where: string; params: Record<string, unknown> },
): void {
  const n = q.keys.length;
  const select = n ? `${q.keys.join(', ')}, ` : '';
  const fromTotals = (rows: unknown[][], unique: boolean) => {
    for (const r of rows) {
      const count = Number(r[n + 2] ?? 0);
      if (count > 0) groups.addTotals(r.slice(0, n), r[n] as bigint, r[n + 1] as bigint, count, unique);
    }
  };
  const read = (sql: string) => prepare(sql).raw(true).safeIntegers(true).all(q.params) as unknown[][];
  try {
    fromTotals(
      read(
        `SELECT ${select}SUM(income), SUM(expense), SUM(count) FROM ${q.table} WHERE ${q.where} AND ${COMPLETE}${n ? ` GROUP BY ${q.keys.join(', ')}` : ''}`,
      ),
      true,
    );
  } catch (e) {
    if (!(e instanceof Error && /integer overflow/i.test(e.message))) throw e;
    groups.clear();
    fromTotals(read(`SELECT ${select}income, expense, count FROM ${q.table} WHERE ${q.where} AND ${COMPLETE}`), false);
  }
}
