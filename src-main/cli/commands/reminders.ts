/**
 * `reminders`: a car's reminders (technical inspection, oil change, insurance renewal...) with whether each
 * is due or soon due, and adding, changing, marking done and deleting them; kept on this computer only.
 * The options of a reminder's fields come from its field table (src-shared/records/reminder.ts).
 */
import { UsageError } from '../../../src-node/cli';
import type { AppApi, CarReminders } from '../../../src-shared/app-api';
import { pick } from '../../../src-shared/records/fields';
import { REMINDER, type ReminderWrite } from '../../../src-shared/records/reminder';
import { defineCommand, defineGroup } from '../command';
import { table } from '../format';
import { integerArg } from '../values';
import { RecordOptions } from './record-options';

const OPTIONS = new RecordOptions<keyof ReminderWrite>(REMINDER.fields, REMINDER.sent);
const reminderId = { value: '<id>', description: 'the reminder id', read: integerArg } as const;

const STATE_WORDS = { due: 'DUE', soon: 'soon', later: '', done: 'done' } as const;

export function remindersText(r: CarReminders): string {
  const rows = r.reminders.map((x) => [
    x.id,
    STATE_WORDS[x.state],
    x.title || x.kind,
    x.dueDate === null ? '' : `${x.dueDate} (${x.daysLeft} d)`,
    x.dueOdometer === null ? '' : `${x.dueOdometer} km${x.kmLeft === null ? '' : ` (${x.kmLeft} km)`}`,
    [x.everyMonths ? `${x.everyMonths} months` : '', x.everyKm ? `${x.everyKm} km` : ''].filter(Boolean).join(' / '),
    x.lastDone ?? '',
  ]);
  const reading = r.odometer ? `${r.odometer.km} km on ${r.odometer.date}` : 'none yet';
  return [
    rows.length ? table(['ID', 'STATE', 'WHAT', 'DUE BY DATE', 'DUE AT', 'REPEATS', 'LAST DONE'], rows) : 'No reminders.',
    `Today ${r.today}; latest odometer reading ${reading}. Soon: within ${r.soon.days} days or ${r.soon.km} km.`,
    'Kept on this computer only: never sent to the service.',
  ].join('\n');
}

async function findReminder(core: AppApi, id: number) {
  for (const car of await core.listCars()) {
    const r = (await core.listReminders({ carId: car.carId })).reminders.find((x) => x.id === id);
    if (r) return r;
  }
  throw new UsageError(`There is no reminder ${id} of a car in the list.`);
}

export const reminders = defineGroup('reminders', "A car's reminders by date or odometer, with what is due; kept on this computer only.", [
  defineCommand({
    name: 'reminders list',
    summary: "Lists a car's reminders: DUE (its date came or the odometer reached it), soon (within 30 days or 1,000 km) or later.",
    positionals: [{ value: '<carId>', description: 'the car id', read: integerArg }],
    async run(ctx) {
      const list = await ctx.core.listReminders({ carId: ctx.positionals[0] });
      ctx.out(list, remindersText(list));
    },
  }),
  defineCommand({
    name: 'reminders add',
    summary: 'Adds a reminder, due by a date (--due-date), an odometer reading (--due-km) or both.',
    options: OPTIONS.forNew({}),
    async run(ctx) {
      const given = OPTIONS.given(ctx.options) as ReminderWrite;
      OPTIONS.complete(given);
      const r = await ctx.core.addReminder(given);
      ctx.out(r, `Reminder added (id ${r.id}).`);
    },
  }),
  defineCommand({
    name: 'reminders edit',
    summary: 'Changes a reminder; fields not given keep their values.',
    positionals: [reminderId],
    options: OPTIONS.all(),
    async run(ctx) {
      const [id] = ctx.positionals;
      const r = await findReminder(ctx.core, id);
      const changed = await ctx.core.editReminder({
        ...pick(r, REMINDER.sent),
        ...(OPTIONS.given(ctx.options) as Partial<ReminderWrite>),
        id,
      });
      ctx.out(changed, `Reminder ${id} changed.`);
    },
  }),
  defineCommand({
    name: 'reminders done',
    summary: "Marks a reminder done (default today, at the car's latest reading): one that repeats is renewed from then, any other closed.",
    positionals: [reminderId],
    options: {
      date: { type: 'string', value: '<YYYY-MM-DD>', description: 'the day it was done (default today)' },
      odometer: {
        type: 'string',
        value: '<number>',
        description: "the reading it was done at (default the car's latest)",
        read: integerArg,
      },
    },
    async run(ctx) {
      const [id] = ctx.positionals;
      const r = await ctx.core.completeReminder({ id, date: ctx.options.date, odometer: ctx.options.odometer });
      const next = r.done
        ? 'closed'
        : `next due ${[r.dueDate, r.dueOdometer === null ? null : `at ${r.dueOdometer} km`].filter(Boolean).join(' or ')}`;
      ctx.out(r, `Reminder ${id} done; ${next}.`);
    },
  }),
  defineCommand({
    name: 'reminders delete',
    summary: 'Deletes a reminder.',
    positionals: [reminderId],
    async run(ctx) {
      const [id] = ctx.positionals;
      ctx.out(await ctx.core.removeReminder({ id }), `Reminder ${id} deleted.`);
    },
  }),
]);
