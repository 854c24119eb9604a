/**
 * The options that give a record's fields on the command line, derived from its field table
 * (src-shared/records): one option per field a record is written with, named by the field's `option` or its
 * name, described by its `words` and its rule's limits, its value read by the field's type. A field added to
 * a table is an option of the commands that write the record, in their help. The refueling's commands
 * (refueling-options.ts), `car-cost` and `reminders` are built on it.
 */
import { UsageError, type OptionSpec, type ValueReader } from '../../../src-node/cli';
import { fallbackOf, type FieldSpec, type FieldTable, type FieldType } from '../../../src-shared/records/fields';
import { fieldRules } from '../../../src-shared/validate';
import { booleanArg, currencyArg, integerArg } from '../values';

/** A value's placeholder in help, by the field's type (the core's schema checks the rest). */
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

/** A fallback as help says it: "(default 1)", "(default none)". */
const shown = (value: string | number | boolean): string =>
  value === '' ? 'none' : value === true ? 'yes' : value === false ? 'no' : String(value);

/** A record's fields written on the command line: its table and which of its fields, in the table's order. */
export class RecordOptions<F extends string> {
  constructor(
    private readonly fields: FieldTable,
    readonly written: readonly F[],
  ) {}

  private spec(field: F): FieldSpec {
    return this.fields[field]!;
  }

  optionName(field: F): string {
    return this.spec(field).option ?? field;
  }

  /** "the odometer", "the litres, at most 3 decimals", "the currency, as its code (CZK) or ISO 4217 number (203)". */
  private describe(field: F): string {
    const f = this.spec(field);
    const rules = f.input ? fieldRules(f.input) : {};
    const limits = [
      ...(f.type === 'currency' ? ['as its code (CZK) or ISO 4217 number (203)'] : []),
      ...(rules.maxScale !== undefined ? [`at most ${rules.maxScale} decimals`] : []),
      ...(f.type === 'text' && rules.maxLength !== undefined ? [`at most ${rules.maxLength} characters`] : []),
      ...(f.nullable ? ['"none" for none'] : []),
    ];
    return [`the ${f.words ?? field}`, ...limits].join(', ');
  }

  private option(field: F): OptionSpec {
    const f = this.spec(field);
    const plain = READER[f.type];
    // A field that may hold nothing takes "none" for it.
    const read: ValueReader | undefined = f.nullable
      ? (text, what) => (text.trim().toLowerCase() === 'none' ? null : plain ? plain(text, what) : text)
      : plain;
    return { type: 'string', value: PLACEHOLDER[f.type], description: this.describe(field), ...(read ? { read } : {}) };
  }

  /** Every field's option, by the option's name (an edit: none needed, what is not given keeps its value). */
  all(): Readonly<Record<string, OptionSpec>> {
    return Object.fromEntries(this.written.map((field) => [this.optionName(field), this.option(field)]));
  }

  /**
   * The options of a new record: each field that has a fallback, may hold nothing, or has a default
   * `defaults` names (what the command fills in) may be left out and says so; every other is required.
   */
  forNew(defaults: Partial<Record<F, string>>): Readonly<Record<string, OptionSpec>> {
    return Object.fromEntries(
      this.written.map((field) => {
        const o = this.option(field);
        const fallback = fallbackOf(this.spec(field));
        const given = defaults[field] ?? (fallback === undefined ? (this.spec(field).nullable ? 'none' : undefined) : shown(fallback));
        return [
          this.optionName(field),
          given === undefined ? { ...o, required: true } : { ...o, description: `${o.description} (default ${given})` },
        ];
      }),
    );
  }

  /** The fields the options given set, each read by its option's table entry. */
  given(options: Readonly<Record<string, unknown>>): Partial<Record<F, unknown>> {
    const out: Partial<Record<F, unknown>> = {};
    for (const field of this.written) {
      const value = options[this.optionName(field)];
      if (value !== undefined) out[field] = value;
    }
    return out;
  }

  /** Every field without a fallback (nor one that may hold nothing) is there; the core's schema checks each value. */
  complete(given: Partial<Record<F, unknown>>): void {
    for (const field of this.written) {
      const f = this.spec(field);
      if (given[field] === undefined && fallbackOf(f) === undefined && !f.nullable) {
        throw new UsageError(`Option --${this.optionName(field)} is required.`);
      }
    }
  }
}
