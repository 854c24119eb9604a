/**
 * The SQL of a record's fields, from its field table (src-shared/records): which column each field is
 * in, a row read back as the record (0/1 columns of flags as booleans), a record given as named
 * parameters (flags as 0/1: SQLite has no booleans), and the pieces of an upsert. The store composes
 * its statements from these, adding the columns it keeps beside a record for its own sake.
 */
import type Database from 'better-sqlite3';
import type { AnyRecord } from '../../../src-shared/records/fields';

/** A row as better-sqlite3 gives it. */
export type Row = Record<string, unknown>;

/** A prepared statement for a SQL text, from the store's cache (one per text and connection). */
export type Prepare = (text: string) => Database.Statement;

export const bool = (v: unknown): boolean => v === 1 || v === 1n;
export const int = (b: boolean): number => (b ? 1 : 0);

/** A field's column and the named parameter (`@<field>`) that gives it. */
export interface Column {
  column: string;
  param: string;
}

/** The columns of these fields. */
export function columnsOf(record: AnyRecord, keys: readonly string[]): Column[] {
  return keys.map((k) => ({ column: record.fields[k]!.column!, param: k }));
}

/** `a, b, c` */
export const columnList = (columns: readonly Column[]): string => columns.map((c) => c.column).join(', ');
/** `@a, @b, @c` */
export const paramList = (columns: readonly Column[]): string => columns.map((c) => `@${c.param}`).join(', ');
/** `a = excluded.a, ...`: an upsert's update of these columns. */
export const updateList = (columns: readonly Column[]): string => columns.map((c) => `${c.column} = excluded.${c.column}`).join(', ');
/** A condition of an upsert's update: one of these columns changes (a row stored as it is stays untouched). */
export const changedCondition = (table: string, columns: readonly Column[]): string =>
  `(${columns.map((c) => `${table}.${c.column}`).join(', ')}) IS NOT (${columns.map((c) => `excluded.${c.column}`).join(', ')})`;

/** A reader of rows as these fields of the record, each from its column. */
export function rowReader<T>(record: AnyRecord, keys: readonly string[]): (row: Row) => T {
  const fields = keys.map((k) => ({ key: k, column: record.fields[k]!.column!, flag: record.fields[k]!.type === 'flag' }));
  return (row) => {
    const out: Row = {};
    for (const f of fields) out[f.key] = f.flag ? bool(row[f.column]) : row[f.column];
    return out as T;
  };
}

/** These fields of a record as named parameters: flags as 0/1, the rest as they are. */
export function rowParams(record: AnyRecord, keys: readonly string[], values: object): Row {
  const source = values as Row;
  const out: Row = {};
  for (const k of keys) out[k] = record.fields[k]!.type === 'flag' ? int(source[k] as boolean) : source[k];
  return out;
}
