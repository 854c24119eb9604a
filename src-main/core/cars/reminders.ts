/**
 * A car's reminders and their state, from today's date and the car's latest odometer reading.
 *
 * - The reading: the latest refueling's (by date; on the same day the higher), or a cost's reading of a
 *   later day (or the same day and higher); a record dated after today is not counted (a mistyped year).
 * - due: not done, and its date has come (today is on or after it) or the reading reached its odometer.
 * - soon: not due, and its date is at most REMINDER_SOON.days away or its odometer at most REMINDER_SOON.km.
 * - Done: a reminder that repeats is renewed from the day and reading it was done at (its next date that many
 *   months later, on the same day of the month or the month's last; its next reading that many kilometres
 *   on; what it does not repeat by is dropped); one that does not repeat is closed.
 */
import type { CarReminders, OdometerReading, ReminderState, ReminderView } from '../../../src-shared/app-api';
import { addMonths, daysBetween, monthEnd } from '../../../src-shared/calendar';
import type { CarCostStored } from '../../../src-shared/records/car-cost';
import type { ReminderStored } from '../../../src-shared/records/reminder';
import type { FuelRecord } from '../insights/fuel-stats';

/**
 * What "soon due" means: within 30 days of its date or 1,000 km of its reading, LubeLogger's and Fuelio's
 * usual defaults (a month to book the inspection; about two weeks of ordinary driving).
 */
export const REMINDER_SOON = { days: 30, km: 1000 } as const;

type Reading = Pick<FuelRecord, 'dateOfPurchase' | 'tachometer'>;

/** The latest reading of a car (see the module's rules); null when it has none. */
export function latestReading(
  refuelings: readonly Reading[],
  costs: readonly Pick<CarCostStored, 'date' | 'odometer'>[],
  today: string,
): OdometerReading | null {
  let best: OdometerReading | null = null;
  const offer = (date: string, km: number | null) => {
    if (km === null || date > today) return;
    if (!best || date > best.date || (date === best.date && km > best.km)) best = { km, date };
  };
  for (const r of refuelings) offer(r.dateOfPurchase.slice(0, 10), r.tachometer);
  for (const c of costs) offer(c.date, c.odometer);
  return best;
}

/** A YYYY-MM-DD date `months` later: the same day of the month, or the month's last when it has fewer days. */
export function dateMonthsLater(date: string, months: number): string {
  const month = addMonths(date.slice(0, 7), months);
  const last = monthEnd(month);
  return date.slice(8) > last.slice(8) ? last : `${month}-${date.slice(8)}`;
}

/** A reminder's state today at this reading. */
export function reminderView(r: ReminderStored, today: string, reading: OdometerReading | null): ReminderView {
  const daysLeft = r.dueDate === null ? null : daysBetween(today, r.dueDate);
  const kmLeft = r.dueOdometer === null || reading === null ? null : r.dueOdometer - reading.km;
  let state: ReminderState = 'later';
  if (r.done) state = 'done';
  else if ((daysLeft !== null && daysLeft <= 0) || (kmLeft !== null && kmLeft <= 0)) state = 'due';
  else if ((daysLeft !== null && daysLeft <= REMINDER_SOON.days) || (kmLeft !== null && kmLeft <= REMINDER_SOON.km)) state = 'soon';
  return { ...r, state, daysLeft, kmLeft };
}

export function carReminders(
  carId: number,
  reminders: readonly ReminderStored[],
  today: string,
  reading: OdometerReading | null,
): CarReminders {
  return {
    carId,
    today,
    odometer: reading,
    soon: { ...REMINDER_SOON },
    reminders: reminders.map((r) => reminderView(r, today, reading)),
  };
}

/**
 * A reminder done on `date` at `km` (null: no reading known): renewed when it repeats, by what it repeats by
 * (a reminder every 12 months has no reading to reach any more), else closed. null: it repeats by kilometres
 * and there is no reading to count them from.
 */
export function doneReminder(r: ReminderStored, date: string, km: number | null): ReminderStored | null {
  if (r.everyMonths === null && r.everyKm === null) return { ...r, done: true, lastDone: date };
  // Without a reading of that day, the next one is counted on from the reading it was due at.
  const from = km ?? r.dueOdometer;
  if (r.everyKm !== null && from === null) return null;
  return {
    ...r,
    done: false,
    lastDone: date,
    dueDate: r.everyMonths === null ? null : dateMonthsLater(date, r.everyMonths),
    dueOdometer: r.everyKm === null ? null : from! + r.everyKm,
  };
}
