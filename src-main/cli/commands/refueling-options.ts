/**
 * The options that give a refueling's fields, shared by `refuel` (which needs some) and `edit-refuel` (which
 * needs none), derived from the refueling's field table (src-shared/records/refueling.ts) by record-options.ts:
 * one option per field a refueling is written with (those sent and the marks kept here).
 */
import type { ArgOf, RefuelingInput } from '../../../src-shared/app-api';
import { REFUELING } from '../../../src-shared/records/refueling';
import { RecordOptions } from './record-options';

/** The fields a refueling is written with, in the table's order. */
export type RefuelingField = keyof RefuelingInput;
export const REFUELING_FIELDS: readonly RefuelingField[] = [...REFUELING.sent, ...REFUELING.local];

const OPTIONS = new RecordOptions<RefuelingField>(REFUELING.fields, REFUELING_FIELDS);

/** Every field's option, by the option's name (`edit-refuel`: none needed, what is not given keeps its value). */
export const REFUELING_OPTIONS = OPTIONS.all();

/** The options of a new refueling (see RecordOptions.forNew). */
export const newRefuelingOptions = (defaults: Partial<Record<RefuelingField, string>>) => OPTIONS.forNew(defaults);

/** The refueling fields the options given set, each read by its option's table entry. */
export const refuelingFieldsGiven = (options: Readonly<Record<string, unknown>>): Partial<RefuelingInput> =>
  OPTIONS.given(options) as Partial<RefuelingInput>;

/**
 * A new refueling of the fields given: every field without a fallback must be there (the parser asked for the
 * required options; `defaults` were filled in by the command). The core's schema checks each value.
 */
export function newRefueling(given: Partial<RefuelingInput>): ArgOf<'addRefueling'> {
  OPTIONS.complete(given);
  return given as ArgOf<'addRefueling'>;
}
