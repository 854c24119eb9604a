/**
 * The fields a form draws from its record's field table (src-shared/records) with TableFields.vue, as the
 * form holds them: the marks it keeps in this app only (the `local` fields: each as given or at its default,
 * saved where given or changed), and the fields it sends that need no control of their own (each as given,
 * else its fallback or empty). Adding such a field to a record's table adds it to the record's form.
 */
import { reactive } from 'vue';
import { fallbackOf, type FieldSpec, type FieldType } from '../../../src-shared/records/fields';

/** What a form needs of a record's table. */
export interface LocalRecord<L extends string, D extends Record<L, string | boolean>> {
  name: string;
  fields: Readonly<Record<string, FieldSpec>>;
  local: readonly L[];
  localDefaults: D;
}

/** A field TableFields.vue draws: a mark (`local`) or a field sent; `required` when it has no fallback. */
export interface TableField {
  name: string;
  type: FieldType;
  local: boolean;
  required: boolean;
}

export function useLocalFields<L extends string, D extends Record<L, string | boolean>>(
  record: LocalRecord<L, D>,
  initial: Partial<Record<L, unknown>>,
) {
  /** The marks a value carries. */
  const given = (value: Partial<Record<L, unknown>>): Partial<D> =>
    Object.fromEntries(record.local.filter((k) => value[k] !== undefined).map((k) => [k, value[k]])) as Partial<D>;
  const start = given(initial);
  /** Each mark as given, or its default. */
  const values = reactive({ ...record.localDefaults, ...start }) as D;
  const fields: TableField[] = record.local.map((name) => ({ name, type: record.fields[name]!.type, local: true, required: false }));
  return {
    values,
    fields,
    /** The marks to save: all of them where the form was given them, else those the user changed. */
    toSave(): Partial<D> {
      const out: Partial<D> = {};
      for (const k of record.local) if (k in start || values[k] !== record.localDefaults[k]) out[k] = values[k];
      return out;
    },
    /** The form's field `name` (one of the record's local fields) changed to `value`. */
    set(name: string, value: string | boolean): void {
      if ((record.local as readonly string[]).includes(name)) (values as Record<string, string | boolean>)[name] = value;
    },
    /** Back to the defaults, for the next entry. */
    reset(): void {
      Object.assign(values, record.localDefaults);
    },
  };
}

type Value = string | number | boolean;

/** A field's value as typed in its text field: a whole number where the field holds one (else the text, which its rule refuses). */
function fromControl(type: FieldType, value: string | boolean): Value {
  if (typeof value === 'boolean' || !['id', 'integer', 'currency'].includes(type)) return value;
  return /^-?\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : value;
}

/** Fields a form sends and draws from the table: `keys`, each as given in `initial`, else its fallback or empty. */
export function useSentFields<K extends string>(
  record: { fields: Readonly<Record<string, FieldSpec>> },
  keys: readonly K[],
  initial: Partial<Record<K, unknown>>,
) {
  const spec = (k: K) => record.fields[k]!;
  const empty = (k: K): Value => fallbackOf(spec(k)) ?? (spec(k).type === 'flag' ? false : '');
  const values = reactive(Object.fromEntries(keys.map((k) => [k, (initial[k] as Value | undefined) ?? empty(k)]))) as Record<K, Value>;
  const fields: TableField[] = keys.map((name) => ({
    name,
    type: spec(name).type,
    local: false,
    required: fallbackOf(spec(name)) === undefined,
  }));
  return {
    values,
    fields,
    /** The form's field `name` (one of `keys`) changed to `value`. */
    set(name: string, value: string | boolean): void {
      if ((keys as readonly string[]).includes(name)) values[name as K] = fromControl(spec(name as K).type, value);
    },
    /** Back to the fallbacks, for the next entry. */
    reset(): void {
      for (const k of keys) values[k] = empty(k);
    },
  };
}
