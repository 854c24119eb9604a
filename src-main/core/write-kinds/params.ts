/** A write operation's parameters from a record's fields, by its field table (src-shared/records). */
import { parseDecimal, toNumber } from '../../../src-shared/money';
import type { AnyRecord } from '../../../src-shared/records/fields';

/** These fields of `values` as parameters: each by its parameter name (else its wire name), decimals as numbers. */
export function paramsOf(record: AnyRecord, keys: readonly string[], values: object): Record<string, unknown> {
  const source = values as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const f = record.fields[k]!;
    out[f.param ?? f.wire!] = f.type === 'decimal' ? toNumber(parseDecimal(source[k] as string)!) : source[k];
  }
  return out;
}

/** The parameter that names the record an edit changes (Id_Account, Id_Category, Id_CarFuel). */
export function idParam(record: AnyRecord, id: number): Record<string, number> {
  const f = record.fields.id!;
  return { [f.param ?? f.wire!]: id };
}
