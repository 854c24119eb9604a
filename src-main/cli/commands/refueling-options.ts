/**
 * The options that give a refueling's fields, shared by `refuel` (which needs some) and `edit-refuel` (which
 * needs none), derived from the refueling's field table (src-shared/records/refueling.ts): one option per
 * field a refueling is written with (those sent and the marks kept here), named by the field's `option` or
 * its name, described by its `words` and its rule's limits, its value read by the field's type. A field added
 * to the table is an option of both commands, in their help.
 */
import { UsageError, type OptionSpec, type ValueReader } from '../../../src-node/cli';
import type { ArgOf, RefuelingInput } from '../../../src-shared/app-api';
import { fallbackOf, type FieldSpec, type FieldType } from '../../../src-shared/records/fields';
import { REFUELING } from '../../../src-shared/records/refueling';
import { fieldRules } from '../../../src-shared/validate';
import { booleanArg, currencyArg, integerArg } from '../values';

/** The fields a refueling is written with, in the table's order. */
export type RefuelingField = keyof RefuelingInput;
export const REFUELING_FIELDS: readonly RefuelingField[] = [...REFUELING.sent, ...REFUELING.local];

const spec = (field: RefuelingField): FieldSpec => REFUELING.fields[field];
const optionName = (field: RefuelingField): string => spec(field).option ?? field;

/** A value's placeholder in help, and how its text is read, by the field's type (the core's schema checks the rest). */
const PLACEHOLDER: Record<FieldType, string> = {
  id: '<id>',
  integer: '<number>',
  currency: '<CZK|203>',
  decimal: '<decimal>',
  dateTime: '<YYYY-MM-DDTHH:mm>',
  date: '<YYYY-MM-DD>',
  text: '<text>',
  flag: '<yes|no>',
};
const READER: Partial<Record<FieldType, ValueReader>> = { id: integerArg, integer: integerArg, currency: currencyArg, flag: booleanArg };

/** "the odometer", "the litres, at most 3 decimals", "the currency, as its code (CZK) or ISO 4217 number (203)". */
function describe(field: RefuelingField): string {
  const f = spec(field);
  const rules = f.input ? fieldRules(f.input) : {};
  const limits = [
    ...(f.type === 'currency' ? ['as its code (CZK) or ISO 4217 number (203)'] : []),
    ...(rules.maxScale !== undefined ? [`at most ${rules.maxScale} decimals`] : []),
    ...(f.type === 'text' && rules.maxLength !== undefined ? [`at most ${rules.maxLength} characters`] : []),
  ];
  return [`the ${f.words ?? field}`, ...limits].join(', ');
}

function option(field: RefuelingField): OptionSpec {
  const type = spec(field).type;
  const read = READER[type];
  return { type: 'string', value: PLACEHOLDER[type], description: describe(field), ...(read ? { read } : {}) };
}

/** Every field's option, by the option's name (`edit-refuel`: none needed, what is not given keeps its value). */
export const REFUELING_OPTIONS: Readonly<Record<string, OptionSpec>> = Object.fromEntries(
  REFUELING_FIELDS.map((field) => [optionName(field), option(field)]),
);

/** A fallback as help says it: "(default 1)", "(default none)". */
const shown = (value: string | number | boolean): string =>
  value === '' ? 'none' : value === true ? 'yes' : value === false ? 'no' : String(value);

/**
 * The options of a new refueling: each field that has a fallback, or a default `defaults` names (what the
 * command fills in), may be left out and says so; every other is required.
 */
export function newRefuelingOptions(defaults: Partial<Record<RefuelingField, string>>): Readonly<Record<string, OptionSpec>> {
  return Object.fromEntries(
    REFUELING_FIELDS.map((field) => {
      const o = option(field);
      const fallback = fallbackOf(spec(field));
      const given = defaults[field] ?? (fallback === undefined ? undefined : shown(fallback));
      return [
        optionName(field),
        given === undefined ? { ...o, required: true } : { ...o, description: `${o.description} (default ${given})` },
      ];
    }),
  );
}

/** The refueling fields the options given set, each read by its option's table entry. */
export function refuelingFieldsGiven(options: Readonly<Record<string, unknown>>): Partial<RefuelingInput> {
  const out: Record<string, unknown> = {};
  for (const field of REFUELING_FIELDS) {
    const value = options[optionName(field)];
    if (value !== undefined) out[field] = value;
  }
  return out;
}

/**
 * A new refueling of the fields given: every field without a fallback must be there (the parser asked for the
 * required options; `defaults` were filled in by the command). The core's schema checks each value.
 */
export function newRefueling(given: Partial<RefuelingInput>): ArgOf<'addRefueling'> {
  for (const field of REFUELING_FIELDS) {
    if (given[field] === undefined && fallbackOf(spec(field)) === undefined) {
      throw new UsageError(`Option --${optionName(field)} is required.`);
    }
  }
  return given as ArgOf<'addRefueling'>;
}
