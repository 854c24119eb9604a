/**
 * Moving a SQLite data file into an empty PostgreSQL database (`migrate --from file.sqlite --to
 * postgres://...`): every row of every table, ids kept, the identities moved past them (past SQLite's
 * own AUTOINCREMENT counters too, so an id is never given twice), all in one transaction that commits
 * only once the copy is checked:
 *
 * - the rows of each table read back from PostgreSQL are the rows of the file, value for value;
 * - every balance, recomputed by PostgreSQL's trigger from the copied transactions (accounts are copied
 *   with a zero balance), is the file's balance, and the sum of each account's transactions;
 * - the counts and the sums of every money column agree.
 *
 * The file is read in one snapshot; stop the service (or let it idle) while it is copied.
 */
import { existsSync } from 'node:fs';
import type pg from 'pg';
import { POSTGRES } from './dialect';
import { PostgresAdminStore } from './postgres/admin';
import { transaction } from './postgres/connect';
import { TABLES, TABLE_NAMES, columnsOf, type Column, type TableName } from './schema';
import { DataFileError, openDatabase, type Db } from './sqlite/database';

/** A table as the copy moves it (schema.ts): its columns, its money columns (their sums are compared), whether it has an identity. */
interface TableSpec {
  name: TableName;
  columns: [string, Column][];
  money: string[];
  identity: boolean;
}

/** In the order foreign keys need them. */
const TABLE_SPECS: TableSpec[] = TABLE_NAMES.map((name) => ({
  name,
  columns: columnsOf(name),
  money: columnsOf(name)
    .filter(([, c]) => c.money)
    .map(([n]) => n),
  identity: TABLES[name].identity,
}));

/** Rows per INSERT: each column goes as one array parameter. */
const BATCH = 5_000;

export interface CopyReport {
  /** Rows copied, by table. */
  rows: Record<string, number>;
  /** Sums of the money columns in minor units, by `table.column` (the same on both sides). */
  sums: Record<string, number>;
  /** Accounts whose balance was recomputed from its transactions and found equal. */
  balancesChecked: number;
}

type Row = unknown[];

/** The table's columns, as a select or insert lists them. */
function columnList(t: TableSpec): string {
  return t.columns.map(([c]) => c).join(', ');
}

/** The order rows are compared in on both sides: by id, or by every column. */
function rowOrder(t: TableSpec): string {
  return t.identity ? 'id' : columnList(t);
}

function readFile(db: Db): Map<string, Row[]> {
  const tables = new Map<string, Row[]>();
  db.transaction(() => {
    for (const t of TABLE_SPECS) {
      tables.set(
        t.name,
        db
          .prepare(`SELECT ${columnList(t)} FROM ${t.name} ORDER BY ${rowOrder(t)}`)
          .raw()
          .all() as Row[],
      );
    }
  }).deferred();
  return tables;
}

/** SQLite's AUTOINCREMENT counters: ids it has given, even of rows no longer there. */
function sqliteSequences(db: Db): Map<string, number> {
  const rows = db.prepare('SELECT name, seq FROM sqlite_sequence').all() as { name: string; seq: number }[];
  return new Map(rows.map((r) => [r.name, r.seq]));
}

/** A row as compared on both sides: booleans as 0/1, every value as JSON. */
function rowText(row: Row): string {
  return JSON.stringify(row.map((v) => (typeof v === 'boolean' ? Number(v) : v)));
}

async function insertTable(client: pg.ClientBase, t: TableSpec, rows: Row[]): Promise<void> {
  const bool = t.columns.map(([, c]) => c.type === 'flag');
  const balance = t.columns.findIndex(([c]) => c === 'balance_minor');
  const list = columnList(t);
  const arrays = t.columns.map(([, c], i) => `$${i + 1}::${POSTGRES.types[c.type]}[]`).join(', ');
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = rows.slice(start, start + BATCH);
    const values = t.columns.map((_, i) =>
      // Balances start at zero: the trigger adds each copied transaction, and the result is checked.
      batch.map((row) => (i === balance ? 0 : bool[i] ? row[i] === 1 : row[i])),
    );
    await client.query(`INSERT INTO ${t.name} (${list}) SELECT * FROM unnest(${arrays})`, values);
  }
}

async function readBack(client: pg.ClientBase, t: TableSpec): Promise<Row[]> {
  const select = t.columns.map(([name, c]) => (c.type === 'flag' ? POSTGRES.flag(name) : name)).join(', ');
  const result = await client.query({ text: `SELECT ${select} FROM ${t.name} ORDER BY ${rowOrder(t)}`, rowMode: 'array' });
  return result.rows as Row[];
}

function sumOf(rows: Row[], index: number): number {
  let sum = 0n;
  for (const row of rows) sum += BigInt(row[index] as number);
  return Number(sum);
}

export class CopyError extends DataFileError {
  override name = 'CopyError';
}

export async function copyToPostgres(file: string, url: string): Promise<CopyReport> {
  if (!existsSync(file)) throw new DataFileError(`Cannot open the data file: ${file} does not exist.`);
  const db = openDatabase(file);
  let tables: Map<string, Row[]>;
  let sequences: Map<string, number>;
  try {
    tables = readFile(db);
    sequences = sqliteSequences(db);
  } finally {
    db.close();
  }
  const admin = await PostgresAdminStore.open(url);
  const client = admin.connection;
  try {
    return await transaction(client, async () => {
      const counts = await client.query<{ n: number }>(
        `SELECT ${TABLE_SPECS.map((t) => `(SELECT count(*) FROM ${t.name})`).join(' + ')} AS n`,
      );
      if (counts.rows[0]!.n > 0) throw new CopyError('The database already holds bookkeeping data: migrate copies into an empty one.');
      for (const t of TABLE_SPECS) await insertTable(client, t, tables.get(t.name)!);
      for (const t of TABLE_SPECS.filter((t) => t.identity)) {
        const rows = tables.get(t.name)!;
        const highest = Math.max(sequences.get(t.name) ?? 0, rows.length ? (rows[rows.length - 1]![0] as number) : 0);
        // The next id given is past every id the file ever gave.
        await client.query(`SELECT setval(pg_get_serial_sequence($1, 'id'), $2, $3)`, [t.name, Math.max(highest, 1), highest > 0]);
      }
      return verify(client, tables);
    });
  } finally {
    await admin.close();
  }
}

async function verify(client: pg.ClientBase, tables: Map<string, Row[]>): Promise<CopyReport> {
  const report: CopyReport = { rows: {}, sums: {}, balancesChecked: 0 };
  for (const t of TABLE_SPECS) {
    const source = tables.get(t.name)!;
    const copied = await readBack(client, t);
    if (copied.length !== source.length) {
      throw new CopyError(`${t.name}: ${copied.length} rows in the database, ${source.length} in the file.`);
    }
    report.rows[t.name] = copied.length;
    for (const column of t.money) {
      const i = t.columns.findIndex(([c]) => c === column);
      const [there, here] = [sumOf(copied, i), sumOf(source, i)];
      if (there !== here) throw new CopyError(`${t.name}.${column}: the sum is ${there} in the database, ${here} in the file.`);
      report.sums[`${t.name}.${column}`] = there;
    }
    const at = copied.findIndex((row, k) => rowText(row) !== rowText(source[k]!));
    if (at >= 0) throw new CopyError(`${t.name}: row ${at + 1} differs from the file's.`);
  }
  // The balances were recomputed from the copied transactions; the row comparison above checked them
  // against the file's. Each must also be the sum of its account's transactions.
  const { rows } = await client.query<{ id: number }>(
    `SELECT a.id FROM accounts a LEFT JOIN (SELECT account_id, sum(amount_minor) AS s FROM transactions GROUP BY account_id) t ON t.account_id = a.id
     WHERE a.balance_minor <> COALESCE(t.s, 0)`,
  );
  if (rows.length > 0) throw new CopyError(`Account ${rows[0]!.id}: its balance is not the sum of its transactions.`);
  report.balancesChecked = report.rows.accounts ?? 0;
  return report;
}
