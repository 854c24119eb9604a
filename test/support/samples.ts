/**
 * Sample values generated from the catalog, so that tests cover every operation and record without
 * writing any shape twice. Values are chosen to stress the codec: escaping, empty strings, fractions,
 * negative amounts, dateTimes with and without milliseconds, ids near 2^53.
 */
import {
  FLAT_RECORDS,
  OPERATIONS,
  type ApiCategory,
  type Credentials,
  type FieldList,
  type FlatRecordName,
  type OperationName,
  type ParamsOf,
  type ResultOf,
  type WireType,
} from '../../src-shared/catalog';

const STRINGS = ['Wallet', '', 'A & B <c> "q" \'a\'', 'Účet – Kč €', ' padded \t tab ', 'line1\r\nline2', '𝄞 music', ']]> end'];
const DOUBLES = [1520.5, -0.1, 0.30000000000000004, 0, 12345678.99, -42, 1e-7, 1e21, 0.5];
const LONGS = [12, 0, 1, 203, 9007199254740991, -5, 978, 42];
const DATES = ['2026-11-21T14:05:00', '2025-01-01T00:00:00.5', '2024-02-29T23:59:59.123', '0001-01-01T00:00:00'];

export function sampleValue(type: WireType, seed: number): unknown {
  switch (type) {
    case 'long':
      return LONGS[seed % LONGS.length];
    case 'double':
      return DOUBLES[seed % DOUBLES.length];
    case 'boolean':
      return seed % 2 === 0;
    case 'dateTime':
      return DATES[seed % DATES.length];
    case 'string':
      return STRINGS[seed % STRINGS.length];
  }
}

export function sampleFields(fields: FieldList, seed: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  fields.forEach((f, i) => (out[f.name] = sampleValue(f.type, seed + i)));
  return out;
}

export function sampleRecord(record: FlatRecordName, seed: number): Record<string, unknown> {
  return sampleFields(FLAT_RECORDS[record].fields, seed);
}

function sampleCategory(seed: number, depth: number): ApiCategory {
  return {
    Id: 100 + seed,
    Name: STRINGS[(seed % (STRINGS.length - 1)) + 1]!,
    ChildCategories:
      depth === 0 ? null : seed % 3 === 0 ? [] : [sampleCategory(seed * 2 + 1, depth - 1), sampleCategory(seed * 2 + 2, depth - 1)],
  };
}

/** A result of the operation's shape; `size` items for lists (0 gives an empty list). */
export function sampleResult<N extends OperationName>(name: N, seed: number, size = 3): ResultOf<N> {
  const shape = OPERATIONS[name].result;
  switch (shape.kind) {
    case 'list':
      return Array.from({ length: size }, (_, i) => sampleRecord(shape.record, seed + i)) as ResultOf<N>;
    case 'single':
      return sampleRecord(shape.record, seed) as ResultOf<N>;
    case 'categoryTree':
      return {
        FavoritCategories: Array.from({ length: size }, (_, i) => ({ ...sampleCategory(seed + i, 0) })),
        AllCategories: Array.from({ length: size }, (_, i) => sampleCategory(seed + i, 2)),
      } as ResultOf<N>;
    case 'transferPair':
      return {
        Transaction1: sampleRecord('apiTransaction2', seed),
        Transaction2: sampleRecord('apiTransaction2', seed + 1),
      } as ResultOf<N>;
  }
}

export function sampleParams<N extends OperationName>(name: N, seed: number): ParamsOf<N> {
  return sampleFields(OPERATIONS[name].params, seed) as ParamsOf<N>;
}

export const SAMPLE_CREDENTIALS: Credentials = { clientKey: 'demo-key', login: 'jana.nováková', password: 'p&ss<w>rd "x"' };
