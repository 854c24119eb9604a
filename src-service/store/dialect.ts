/**
 * What SQLite and PostgreSQL say differently, as data: the statements (statements.ts) are written once
 * and made into each database's text from these. Whatever is not here is the same SQL in both.
 */
import type { ColumnType } from './schema';

export interface Dialect {
  readonly name: 'SQLite' | 'PostgreSQL';
  /** How each column type is declared. */
  readonly types: Readonly<Record<ColumnType, string>>;
  /** The statement as the driver takes it, from a text with `?` for each parameter in order. */
  parameters(text: string): string;
  /** A flag column as the rows hold it, 0 or 1 (`column` qualified as the statement needs). */
  flag(column: string): string;
  /**
   * The function giving its first argument unless that is null: the name the expression indexes were
   * made with (categories_unique_sibling), which a query must use to be answered from them.
   */
  readonly ifNull: string;
  /** Appended to an INSERT for it to answer the new row's id; '' where the driver tells it (SQLite's lastInsertRowid). */
  readonly returningId: string;
  /**
   * The row lock a write takes on the accounts it books on before reading their balances, appended to
   * the SELECT of them; null where one writer holds the whole database anyway (SQLite).
   */
  readonly bookingLock: string | null;
  /**
   * `column` being one of the ids of one parameter (an array); null where a statement takes no list,
   * and the rows are read one id at a time (SQLite, in-process: a statement costs no round trip).
   */
  inIdList(column: string): string | null;
  /**
   * A parameter with its type spelled out, for where the database cannot infer it (a SELECT list that
   * feeds an INSERT).
   */
  typedParameter(type: ColumnType): string;
  /**
   * Whether an INSERT may stand inside a WITH: a write of rows in several tables (an account and its
   * owner's permission) is then one statement, one round trip.
   */
  readonly insertsInWith: boolean;
  /**
   * The next id of a table's identity, drawn in a statement; null where an id is only ever given by an
   * INSERT (SQLite's AUTOINCREMENT). With it, rows that name each other's ids (a transfer's halves) are
   * written in one statement.
   */
  nextId(table: string): string | null;
}

export const SQLITE: Dialect = {
  name: 'SQLite',
  types: { bigint: 'INTEGER', integer: 'INTEGER', smallint: 'INTEGER', flag: 'INTEGER', double: 'REAL', text: 'TEXT' },
  parameters: (text) => text,
  flag: (column) => column,
  ifNull: 'IFNULL',
  returningId: '',
  bookingLock: null,
  inIdList: () => null,
  typedParameter: () => '?',
  insertsInWith: false,
  nextId: () => null,
};

export const POSTGRES: Dialect = {
  name: 'PostgreSQL',
  types: { bigint: 'bigint', integer: 'integer', smallint: 'smallint', flag: 'boolean', double: 'double precision', text: 'text' },
  parameters: (text) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  },
  // `::int` on a boolean gives 0 or 1.
  flag: (column) => `${column}::int`,
  ifNull: 'COALESCE',
  returningId: ' RETURNING id',
  // The lock an UPDATE of the balance takes: inserts that only reference the account still pass.
  bookingLock: 'FOR NO KEY UPDATE',
  inIdList: (column) => `${column} = ANY(?::bigint[])`,
  typedParameter: (type) => `?::${POSTGRES.types[type]}`,
  insertsInWith: true,
  nextId: (table) => `nextval(pg_get_serial_sequence('${table}', 'id'))`,
};
