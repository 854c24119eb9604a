/**
 * A reminder of a car (technical inspection, oil change, insurance renewal...), due by a date, by an
 * odometer reading or by both, and repeated every so many months and/or kilometres: kept on this computer
 * only (the local copy's reminders table, carried by backups and safety copies; never queued, never sent).
 * Marking one done renews a repeated reminder from that day and reading, and closes any other
 * (src-main/core/cars/reminders.ts). Labels in cs and en: carCosts.reminderFields.<name>.
 */
import { v } from '../validate';
import { defineRecord, field, type Sent, type Stored } from './fields';
import { description } from './rules';

export const REMINDER_KINDS = ['inspection', 'oilChange', 'insurance', 'service', 'tyres', 'other'] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/** A whole number of a repeat that may be left out. */
const every = (max: number) => v.optional(v.nullable(v.whole({ min: 1, max })), null);

export const REMINDER = defineRecord('reminder', {
  carId: field({ type: 'integer', column: 'car_id', input: v.whole({ min: 1 }), words: 'car', option: 'car' }),
  kind: field({ type: 'text', column: 'kind', input: v.oneOf(...REMINDER_KINDS), words: `kind: ${REMINDER_KINDS.join(', ')}` }),
  // The user's own words; empty: the kind's name is shown.
  title: field({ type: 'text', column: 'title', input: v.text({ max: 100, trim: true }), optional: { fallback: '' } }),
  dueDate: field({
    type: 'date',
    column: 'due_date',
    input: v.optional(v.nullable(v.date()), null),
    nullable: true,
    words: 'day it is due by',
    option: 'due-date',
  }),
  dueOdometer: field({
    type: 'integer',
    column: 'due_odometer',
    input: v.optional(v.nullable(v.whole({ min: 0 })), null),
    nullable: true,
    words: 'odometer reading it is due at, km',
    option: 'due-km',
  }),
  everyMonths: field({
    type: 'integer',
    column: 'every_months',
    input: every(240),
    nullable: true,
    words: 'months it repeats after',
    option: 'every-months',
  }),
  everyKm: field({
    type: 'integer',
    column: 'every_km',
    input: every(1_000_000),
    nullable: true,
    words: 'kilometres it repeats after',
    option: 'every-km',
  }),
  note: field({ type: 'text', column: 'note', input: description(), optional: { fallback: '' } }),
  /** Closed for good (a reminder without a repeat that was done). */
  done: field({ type: 'flag', column: 'done', input: v.flag(), optional: { fallback: false } }),
  /** When it was last marked done (null: never). */
  lastDone: field({ type: 'date', column: 'last_done', nullable: true }),
  id: field({ type: 'id', column: 'id' }),
});

/** A reminder as the local copy keeps it (its kind one of the kinds: the table's CHECK holds it). */
export type ReminderStored = Omit<Stored<typeof REMINDER>, 'kind'> & { kind: ReminderKind };
export type ReminderWrite = Omit<Sent<typeof REMINDER>, 'kind'> & { kind: ReminderKind };
