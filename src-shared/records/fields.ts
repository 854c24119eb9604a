/**
 * A record's fields, written once: for each field, what it is (its type), where the service keeps it (its
 * name on the wire and in the write operations' parameters), where the local copy keeps it (its column),
 * the rule it is written with (valibot, src-shared/validate), its CSV column (export header, the names an
 * import knows it by) and, for a field the service does not have, that it is kept here only. The SQL rows,
 * the wire mapping, the app API's types and input schemas, the CSV columns and the forms are derived from
 * the tables (src-shared/records/<record>.ts, each made by `defineRecord`).
 */
import type { GenericSchema, OptionalSchema } from 'valibot';
import { v } from '../validate';

export type FieldType = 'id' | 'integer' | 'currency' | 'decimal' | 'dateTime' | 'date' | 'text' | 'flag';

/** The value a field of a type holds: decimals and dateTimes as canonical text, never as floats. */
export interface ValueOfType {
  id: number;
  integer: number;
  currency: number;
  decimal: string;
  dateTime: string;
  /** A calendar day, YYYY-MM-DD. */
  date: string;
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
}

export interface FieldSpec {
  type: FieldType;
  /** The service's name of the field in its records; none: not in the service's record (a field of this app, or a write's parameter only). */
  wire?: string;
  /** Its name among the write operations' parameters, where that differs from `wire`. */
  param?: string;
  /** The local copy's column (none: a field of a write only, never stored as such). */
  column?: string;
  /** The rule of the field in a write; none: the user does not write it (ids, the creator, a balance). */
  input?: GenericSchema;
  /** Kept in this app only (never sent): in the record's marks table, with this value until set. */
  local?: { fallback: string | boolean };
  /**
   * The user may leave it out of a new record, which then holds `fallback` (an empty text, a rate of 1): a
   * create's input schema, a row of an import without it and the command line give it; an edit states every
   * field. A local field is always optional (its `local.fallback`).
   */
  optional?: { fallback: string | number | boolean };
  /** How the command line's English names it ("the odometer is missing", `--tachometer <number>  the odometer`); none: its name. */
  words?: string;
  /** Its option on the command line (`--car`), where that differs from its name. */
  option?: string;
  /** The service may leave it out (a transaction listed without ids): null then. */
  nullable?: true;
  /** Written when the record is made, never by an edit (an account's currency, a category's parent). */
  once?: true;
  /**
   * A create's effect, when its answer was lost, is told by this field: a new record the service lists that
   * holds what the write sent in every such field is the one it made (src-main/core/write-kinds, sameFields).
   */
  match?: true;
  csv?: CsvSpec;
}

export type FieldTable = Readonly<Record<string, FieldSpec>>;

type ValueOf<F extends FieldSpec> = F extends { nullable: true } ? ValueOfType[F['type']] | null : ValueOfType[F['type']];
/** The record's values as the table describes them. */
export type ValuesOf<T extends FieldTable> = { -readonly [K in keyof T]: ValueOf<T[K]> };

type KeysWhere<T extends FieldTable, C> = { [K in keyof T]: T[K] extends C ? K : never }[keyof T] & string;
/** The fields the service keeps in its record (they have a wire name). */
export type WireKey<T extends FieldTable> = KeysWhere<T, { wire: string }>;
/** The fields kept in this app only. */
export type LocalKey<T extends FieldTable> = KeysWhere<T, { local: object }>;
/** The fields in the record's own table of the local copy (everything but the marks kept beside it). */
export type StoredKey<T extends FieldTable> = Exclude<KeysWhere<T, { column: string }>, LocalKey<T>>;
/** The fields a user writes that the service keeps: what a write sends. */
export type SentKey<T extends FieldTable> = Exclude<KeysWhere<T, { input: GenericSchema }>, LocalKey<T>>;
/** The fields an edit changes (and merges with the service's record): those sent, but for those written once. */
export type EditedKey<T extends FieldTable> = Exclude<SentKey<T>, KeysWhere<T, { once: true }>>;
/** The fields an import reads from a column. */
export type ImportKey<T extends FieldTable> = KeysWhere<T, { csv: { names: readonly string[] } }>;

export const field = <const F extends FieldSpec>(spec: F): F => spec;

/** The value of a field a new record was given none of; undefined: the field must be given. */
export const fallbackOf = (spec: FieldSpec): string | number | boolean | undefined => spec.optional?.fallback ?? spec.local?.fallback;

export const keysOf = <T extends FieldTable>(table: T, test: (f: FieldSpec) => boolean): (keyof T & string)[] =>
  Object.keys(table).filter((k) => test(table[k]!));

/** A record's field table with the lists of its fields that the mappings work on, in the table's order. */
export interface RecordSpec<N extends string, T extends FieldTable> {
  /** The record's kind ('account'); its marks (local fields) are kept in `<name>_marks`, keyed by `<name>_id`. */
  name: N;
  fields: T;
  stored: StoredKey<T>[];
  wire: WireKey<T>[];
  local: LocalKey<T>[];
  sent: SentKey<T>[];
  edited: EditedKey<T>[];
  imported: ImportKey<T>[];
  /** The fields a create's effect is told by (`match`). */
  matched: (keyof T & string)[];
  /** The marks of a record that has none set. */
  localDefaults: Pick<ValuesOf<T>, LocalKey<T>>;
}

export function defineRecord<const N extends string, const T extends FieldTable>(name: N, fields: T): RecordSpec<N, T> {
  const local = keysOf(fields, (f) => f.local !== undefined) as LocalKey<T>[];
  const sent = keysOf(fields, (f) => f.input !== undefined && f.local === undefined) as SentKey<T>[];
  return {
    name,
    fields,
    stored: keysOf(fields, (f) => f.column !== undefined && f.local === undefined) as StoredKey<T>[],
    wire: keysOf(fields, (f) => f.wire !== undefined) as WireKey<T>[],
    local,
    sent,
    edited: sent.filter((k) => !fields[k]!.once) as unknown as EditedKey<T>[],
    imported: keysOf(fields, (f) => f.csv?.names !== undefined) as ImportKey<T>[],
    matched: keysOf(fields, (f) => f.match === true),
    localDefaults: Object.fromEntries(local.map((k) => [k, fields[k]!.local!.fallback])) as Pick<ValuesOf<T>, LocalKey<T>>,
  };
}

/** Any record's table, for the types and functions that take one. */
export interface AnyRecord {
  name: string;
  fields: FieldTable;
}
type FieldsOf<R extends AnyRecord> = R['fields'];
/** Every field of a record, its marks included. */
export type Values<R extends AnyRecord> = ValuesOf<FieldsOf<R>>;
/** What the record's own table holds. */
export type Stored<R extends AnyRecord> = Pick<Values<R>, StoredKey<FieldsOf<R>>>;
/** The marks this app keeps of a record. */
export type Locals<R extends AnyRecord> = Pick<Values<R>, LocalKey<FieldsOf<R>>>;
/** What a write of the record sends (and the outbox keeps). */
export type Sent<R extends AnyRecord> = Pick<Values<R>, SentKey<FieldsOf<R>>>;
/** What an edit of the record sends. */
export type Edited<R extends AnyRecord> = Pick<Values<R>, EditedKey<FieldsOf<R>>>;

/** A record that may have marks: what storing them needs. */
export interface MarkedRecord extends AnyRecord {
  local: readonly string[];
  localDefaults: object;
}

/** The marks table of a record, and its key column. */
export const marksTable = (record: AnyRecord): string => `${record.name}_marks`;
export const marksKey = (record: AnyRecord): string => `${record.name}_id`;

/** These fields of a record. */
export function pick<T extends object, K extends keyof T>(record: T, keys: readonly K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  for (const k of keys) out[k] = record[k];
  return out;
}

type SchemaOf<F> = F extends { input: infer S extends GenericSchema } ? S : never;
type Entries<T extends FieldTable, K extends keyof T> = { [P in K]: SchemaOf<T[P]> };
type LocalEntries<T extends FieldTable> = { [P in LocalKey<T>]: ReturnType<typeof v.optional<SchemaOf<T[P]>>> };
/** A create's entry: an optional field given its fallback when left out. */
type CreateEntry<F> = F extends { optional: { fallback: infer D extends string | number | boolean } }
  ? OptionalSchema<SchemaOf<F>, D>
  : SchemaOf<F>;
type CreateEntries<T extends FieldTable, K extends keyof T> = { [P in K]: CreateEntry<T[P]> };

/**
 * The input schema entries of a write of the record: these fields (those sent), and the marks as optional
 * fields (a write sets those given on its record in the same transaction, and never sends them). Every field
 * is required: an edit states the whole record.
 */
export function inputEntries<N extends string, T extends FieldTable, K extends SentKey<T>>(
  record: RecordSpec<N, T>,
  keys: readonly K[],
): Entries<T, K> & LocalEntries<T> {
  const entries: Record<string, unknown> = {};
  for (const k of keys) entries[k] = record.fields[k]!.input;
  for (const k of record.local) entries[k] = v.optional(record.fields[k]!.input!);
  return entries as Entries<T, K> & LocalEntries<T>;
}

/** The input schema entries of a new record: as inputEntries, but an optional field left out holds its fallback. */
export function createEntries<N extends string, T extends FieldTable, K extends SentKey<T>>(
  record: RecordSpec<N, T>,
  keys: readonly K[],
): CreateEntries<T, K> & LocalEntries<T> {
  const entries: Record<string, unknown> = inputEntries(record, keys);
  for (const k of keys) {
    const f = record.fields[k]!;
    if (f.optional) entries[k] = v.optional(f.input!, f.optional.fallback);
  }
  return entries as CreateEntries<T, K> & LocalEntries<T>;
}

/** A write's marks apart from what it sends. */
export function splitLocals<L extends string, D extends object, I extends object>(
  record: { local: readonly L[]; localDefaults: D },
  input: I,
): { sent: Omit<I, L>; locals: Partial<D> } {
  const sent = { ...input } as Record<string, unknown>;
  const locals: Record<string, unknown> = {};
  for (const k of record.local) {
    if (k in sent) {
      if (sent[k] !== undefined) locals[k] = sent[k];
      delete sent[k];
    }
  }
  return { sent: sent as Omit<I, L>, locals: locals as Partial<D> };
}
