/**
 * The service's tables, written once for both stores: each column with what it holds, in the order the
 * migrations create them (sqlite/migrations.ts and postgres/migrations.ts write the same tables out in each
 * database's terms; test/service/schema.test.ts checks that both still agree with this). The rows the
 * operations see (rows.ts), the statements of both stores (statements.ts) and the copy of a data file
 * into PostgreSQL (copy.ts) are made from it; how each database names a type is its dialect's
 * (dialect.ts).
 */
import { identifier, literalFunction } from './object-literal';

/** What a column holds. Flags are 0/1 in the rows whichever the store (PostgreSQL keeps them as booleans). */
export type ColumnType = 'bigint' | 'integer' | 'smallint' | 'flag' | 'double' | 'text';

export interface Column {
  readonly type: ColumnType;
  readonly nullable?: true;
  /** An amount in the currency's minor units (the copy compares their sums). */
  readonly money?: true;
}

export interface Table {
  /** Rows have an `id` the database gives (SQLite AUTOINCREMENT, a PostgreSQL identity). */
  readonly identity: boolean;
  readonly columns: Readonly<Record<string, Column>>;
}

const key = { type: 'bigint' } as const;
const optionalKey = { type: 'bigint', nullable: true } as const;
const integer = { type: 'integer' } as const;
const flag = { type: 'flag' } as const;
const double = { type: 'double' } as const;
const text = { type: 'text' } as const;
const minor = { type: 'bigint', money: true } as const;

/** In the order foreign keys need them. */
export const TABLES = {
  client_apps: { identity: true, columns: { id: key, key_hash: text, label: text, enabled: flag, created_at: text } },
  users: { identity: true, columns: { id: key, login: text, login_key: text, password_hash: text, currency: integer, created_at: text } },
  accounts: {
    identity: true,
    columns: {
      id: key,
      owner_id: key,
      name: text,
      description: text,
      currency: integer,
      type: integer,
      is_active: flag,
      is_hidden: flag,
      locked: flag,
      ord: key,
      balance_minor: minor,
      created_at: text,
    },
  },
  account_permissions: { identity: false, columns: { account_id: key, user_id: key, permission: { type: 'smallint' } } },
  categories: { identity: true, columns: { id: key, user_id: key, parent_id: optionalKey, name: text, name_key: text, created_at: text } },
  transactions: {
    identity: true,
    columns: {
      id: key,
      account_id: key,
      user_id: key,
      created_by: key,
      payment_date: text,
      type: integer,
      amount_minor: minor,
      description: text,
      category_id: optionalKey,
      transfer_id: optionalKey,
      created_at: text,
    },
  },
  templates: {
    identity: true,
    columns: {
      id: key,
      user_id: key,
      created_by: key,
      account_id: key,
      type: integer,
      amount_minor: minor,
      description: text,
      category_id: optionalKey,
      ord: key,
      created_at: text,
    },
  },
  refuelings: {
    identity: true,
    columns: {
      id: key,
      user_id: key,
      car_id: key,
      created_by: key,
      date_of_purchase: text,
      tachometer: key,
      liter: double,
      price_minor: minor,
      description: text,
      currency: integer,
      rate: double,
      created_at: text,
      updated_at: text,
    },
  },
} as const satisfies Record<string, Table>;

type Tables = typeof TABLES;
export type TableName = keyof Tables;
export type ColumnName<T extends TableName> = keyof Tables[T]['columns'] & string;

type ValueOf<C extends Column> = (C['type'] extends 'text' ? string : number) | (C extends { nullable: true } ? null : never);

/** These columns of a table as a row holds them. */
export type RowOf<T extends TableName, K extends ColumnName<T> = ColumnName<T>> = {
  -readonly [P in K]: ValueOf<Tables[T]['columns'][P] & Column>;
};

export const TABLE_NAMES = Object.keys(TABLES) as TableName[];

export function columnsOf(table: TableName): [string, Column][] {
  return Object.entries(TABLES[table].columns);
}

/** A column of a table as a statement reads it. */
export interface Selected {
  readonly table: TableName;
  readonly name: string;
  readonly type: ColumnType;
}

/**
 * The columns a statement reads, in order, and the row each tuple of them becomes: an object of those
 * columns, always of one shape (object-literal.ts).
 */
export interface Selection<R> {
  readonly columns: readonly Selected[];
  /** The row of a tuple of the columns' values, in their order. */
  readonly fromTuple: (tuple: readonly unknown[]) => R;
  /** The same row of an object holding (at least) these columns. */
  readonly pick: (values: R) => R;
}

function makeSelection<R>(columns: readonly Selected[]): Selection<R> {
  const names = columns.map((c) => identifier(c.name));
  return {
    columns,
    fromTuple: literalFunction(
      ['t'],
      names.map((n, i) => [n, `t[${i}]`]),
    ),
    pick: literalFunction(
      ['o'],
      names.map((n) => [n, `o.${n}`]),
    ),
  };
}

/** These columns of one table. */
export function select<T extends TableName, K extends ColumnName<T>>(table: T, names: readonly K[]): Selection<RowOf<T, K>> {
  const columns = TABLES[table].columns as Record<string, Column>;
  return makeSelection(names.map((name) => ({ table, name, type: columns[name]!.type })));
}

/** The names of every column of a table but these, in the table's order. */
export function columnsBut<T extends TableName, E extends ColumnName<T>>(table: T, except: readonly E[]): Exclude<ColumnName<T>, E>[] {
  return Object.keys(TABLES[table].columns).filter((name) => !(except as readonly string[]).includes(name)) as Exclude<ColumnName<T>, E>[];
}

/** Every column of one table but these. */
export function selectAllBut<T extends TableName, E extends ColumnName<T>>(
  table: T,
  except: readonly E[],
): Selection<RowOf<T, Exclude<ColumnName<T>, E>>> {
  return select(table, columnsBut(table, except));
}

/** The columns of both, in order: a row of a join. */
export function joined<A, B>(a: Selection<A>, b: Selection<B>): Selection<A & B> {
  return makeSelection([...a.columns, ...b.columns]);
}
