/**
 * A record's fields, written once: for each field, what it is (its type), where the service keeps it (its
 * name on the wire and in the write operation's parameters), where the local copy keeps it (its column),
 * the rule it is written with (valibot, src-shared/validate), its CSV column (export header, the names an
 * import knows it by) and, for a field the service does not have, that it is kept here only. The SQL rows,
 * the wire mapping, the app API's types and input schema, the CSV columns and the forms are derived from
 * the table (src-shared/records/<record>.ts).
 */
import type { GenericSchema } from 'valibot';

export type FieldType = 'id' | 'integer' | 'currency' | 'decimal' | 'dateTime' | 'text' | 'flag';

/** The value a field of a type holds: decimals and dateTimes as canonical text, never as floats. */
export interface ValueOfType {
  id: number;
  integer: number;
  currency: number;
  decimal: string;
  dateTime: string;
  text: string;
  flag: boolean;
}

export interface CsvSpec {
  /** The export's header. */
  header: string;
  /** The header names an import finds the column by (lower case, no diacritics, units or punctuation); none: not imported. */
  names?: readonly string[];
  /** An import needs a column for it. */
  required?: boolean;
  /** The value of a row whose column is missing or empty (none: the value is missing). */
  fallback?: string | boolean;
  /** How the command line's English names it: "the odometer is missing". */
  words?: string;
}

export interface FieldSpec {
  type: FieldType;
  /** The service's name of the field in its records; none: a field of this app only, never sent. */
  wire?: string;
  /** Its name among the write operation's parameters, where that differs from `wire`. */
  param?: string;
  /** The local copy's column. */
  column: string;
  /** The rule of the field in a write; none: the user does not write it (ids, the creator). */
  input?: GenericSchema;
  /** Kept in this app only (never sent): in the record's local table, with this value until set. */
  local?: { fallback: string | boolean };
  csv?: CsvSpec;
}

export type FieldTable = Readonly<Record<string, FieldSpec>>;

/** The record's values as the table describes them. */
export type ValuesOf<T extends FieldTable> = { -readonly [K in keyof T]: ValueOfType[T[K]['type']] };

type KeysWhere<T extends FieldTable, C> = { [K in keyof T]: T[K] extends C ? K : never }[keyof T] & string;
/** The fields the service keeps (they have a wire name). */
export type WireKey<T extends FieldTable> = KeysWhere<T, { wire: string }>;
/** The fields kept in this app only. */
export type LocalKey<T extends FieldTable> = KeysWhere<T, { local: object }>;
/** The fields an import reads from a column. */
export type ImportKey<T extends FieldTable> = KeysWhere<T, { csv: { names: readonly string[] } }>;

export const field = <const F extends FieldSpec>(spec: F): F => spec;

export const keysOf = <T extends FieldTable>(table: T, test: (f: FieldSpec) => boolean): (keyof T & string)[] =>
  Object.keys(table).filter((k) => test(table[k]!)) as (keyof T & string)[];
