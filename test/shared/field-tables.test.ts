/**
 * What the record field tables (src-shared/records) and the write-kind table (src-shared/app-api/write-kinds.ts)
 * derive: a create may leave out an optional field, which then holds its fallback; an edit states every field;
 * every kind of write has its app method, its input schema from its record's table, and its definition in the
 * core's write-kind table, which agrees with the shared one on what it edits and whose marks it carries.
 */
import { describe, expect, it } from 'vitest';
import { passingValue } from '../../src-main/core/files/refueling-import';
import { WRITE_KINDS } from '../../src-main/core/write-kinds';
import { APP_METHODS, OUTBOX_KINDS, WRITE_INPUT_SCHEMAS, WRITES } from '../../src-shared/app-api';
import { RECORDS } from '../../src-shared/records';
import { fallbackOf, type FieldSpec } from '../../src-shared/records/fields';
import { REFUELING } from '../../src-shared/records/refueling';
import { TRANSFER } from '../../src-shared/records/transaction';
import { parse, ValidationError } from '../../src-shared/validate';

const TABLES = [...Object.values(RECORDS), TRANSFER];
const optionalFields = TABLES.flatMap((r) =>
  Object.entries(r.fields as Record<string, FieldSpec>)
    .filter(([, f]) => f.optional !== undefined)
    .map(([name, f]) => ({ record: r.name, name, f })),
);

/** A value for every field a kind's schema takes. */
const SAMPLE: Record<string, unknown> = {
  carId: 1,
  dateOfPurchase: '2026-11-21T14:05:00',
  tachometer: 120500,
  liter: '41.27',
  price: '1650.8',
  currency: 203,
  rate: '25.5',
  description: 'Shell',
  partial: true,
};

function refusal(run: () => unknown): ValidationError {
  try {
    run();
  } catch (e) {
    if (e instanceof ValidationError) return e;
    throw e;
  }
  throw new Error('the input passed');
}

describe('optional fields', () => {
  it('are in the tables (the refueling has some), and the fallback of each passes its own rule', () => {
    expect(optionalFields.map((o) => `${o.record}.${o.name}`)).toEqual(expect.arrayContaining(['refueling.description', 'refueling.rate']));
    for (const { record, name, f } of optionalFields) {
      expect(parse(f.input!, f.optional!.fallback), `${record}.${name}`).toBe(f.optional!.fallback);
    }
  });

  it('may be left out of a create, which then holds the fallback, but not out of an edit, which states every field', () => {
    for (const kind of OUTBOX_KINDS) {
      const { record, edit } = WRITES[kind];
      for (const name of Object.keys(record.fields)) {
        const f = (record.fields as Record<string, FieldSpec>)[name]!;
        if (!f.optional || !(record as { sent: readonly string[] }).sent.includes(name)) continue;
        const given = Object.fromEntries(
          Object.keys(SAMPLE)
            .filter((k) => k !== name && k in (record.fields as object))
            .map((k) => [k, SAMPLE[k]]),
        );
        const input = edit ? { ...given, id: 3 } : given;
        if (edit) expect(refusal(() => parse(WRITE_INPUT_SCHEMAS[kind], input)).path, `${kind}.${name}`).toBe(`input.${name}`);
        else {
          expect((parse(WRITE_INPUT_SCHEMAS[kind], input) as Record<string, unknown>)[name], `${kind}.${name}`).toBe(f.optional.fallback);
        }
      }
    }
  });

  it('and the marks: a row of an import without them holds their fallbacks; anything else is required', () => {
    for (const name of [...REFUELING.sent, ...REFUELING.local]) {
      const f: FieldSpec = REFUELING.fields[name];
      expect(fallbackOf(f) !== undefined, name).toBe(f.optional !== undefined || f.local !== undefined);
    }
  });
});

describe('the values an import puts in place of a refused one', () => {
  it("pass each field's rule, for every field a refueling is written with", () => {
    for (const name of [...REFUELING.sent, ...REFUELING.local]) {
      const f: FieldSpec = REFUELING.fields[name];
      const value = passingValue(f, 978);
      expect(() => parse(f.input!, value), `${name}: ${String(value)}`).not.toThrow();
    }
  });
});

describe('the write-kind table', () => {
  it('gives every kind its app method, whose input is the kind’s schema from its record’s table', () => {
    for (const kind of OUTBOX_KINDS) {
      expect(APP_METHODS[kind].input, kind).toBe(WRITES[kind].input);
      expect(WRITE_INPUT_SCHEMAS[kind], kind).toBe(WRITES[kind].input);
    }
  });

  it("agrees with the core's write kinds on every kind, what it edits and whose marks it carries", () => {
    expect(Object.keys(WRITE_KINDS).sort()).toEqual([...OUTBOX_KINDS].sort());
    for (const kind of OUTBOX_KINDS) {
      const core = WRITE_KINDS[kind];
      const shared = WRITES[kind];
      expect(core.edit !== null, kind).toBe(shared.edit);
      if (core.edit) expect(core.edit.fields, kind).toEqual(shared.record.edited);
      if (core.marks) expect(core.marks, kind).toBe(shared.record);
      else expect(shared.record.local, kind).toEqual([]);
    }
  });
});
