/**
 * The fields a record keeps in this app only (the `local` fields of its table, src-shared/records), as a
 * form holds them: each as given or at its default, the ones to save, and the clearing for the next entry.
 * A form draws them with LocalFields.vue; adding a local field to a record's table adds it to its form.
 */
import { reactive } from 'vue';
import type { FieldType } from '../../../src-shared/records/fields';

/** What a form needs of a record's table. */
export interface LocalRecord<L extends string, D extends Record<L, string | boolean>> {
  name: string;
  fields: Readonly<Record<string, { type: FieldType }>>;
  local: readonly L[];
  localDefaults: D;
}

export interface LocalField {
  name: string;
  type: FieldType;
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
  const fields: LocalField[] = record.local.map((name) => ({ name, type: record.fields[name]!.type }));
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
