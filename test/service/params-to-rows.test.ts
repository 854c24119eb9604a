/**
 * A write's parameters become the row that keeps them by the record's field table (rowFromParams): each field
 * sent from its parameter (`param`, else its wire name) into the column HOLDS names, as its rule returns it, in
 * the rules' order. The operations' tables of rules cover every field sent (the compiler checks `satisfies`).
 */
import { describe, expect, it } from 'vitest';
import { HOLDS, rowFromParams, type ParamRule } from '../../src-service/operations/records';
import { ACCOUNT } from '../../src-shared/records/account';
import type { AnyRecord, FieldSpec } from '../../src-shared/records/fields';
import { REFUELING } from '../../src-shared/records/refueling';

const cases: [AnyRecord & { sent: readonly string[] }, Readonly<Record<string, string>>][] = [
  [REFUELING, HOLDS.refueling],
  [ACCOUNT, HOLDS.account],
];

describe('a write’s parameters as its row', () => {
  it('put each field sent, from its parameter, in the column that holds it, as its rule made it', () => {
    for (const [record, holds] of cases) {
      const paramOf = (k: string) => {
        const f: FieldSpec = record.fields[k]!;
        return f.param ?? f.wire!;
      };
      const params = Object.fromEntries(record.sent.map((k, i) => [paramOf(k), `value ${i}`]));
      const seen: string[] = [];
      const rules: Record<string, ParamRule> = Object.fromEntries(
        record.sent.map((k) => [k, (value: string, param: string) => (seen.push(param), `${value} of ${param}`)]),
      );
      const row = rowFromParams(record, holds, rules, params) as Record<string, unknown>;
      expect(Object.keys(row).sort(), record.name).toEqual(record.sent.map((k) => holds[k]).sort());
      for (const k of record.sent) expect(row[holds[k]!], `${record.name}.${k}`).toBe(`${params[paramOf(k)]} of ${paramOf(k)}`);
      expect(seen, record.name).toEqual(record.sent.map(paramOf));
    }
  });

  it('give a rule the other parameters, for a rule across fields', () => {
    const row = rowFromParams(
      REFUELING,
      HOLDS.refueling,
      { price: (value: number, _param, p) => value * Number(p.Rate) },
      { Price: 2, Rate: 3 },
    );
    expect(row).toEqual({ price_minor: 6 });
  });
});
