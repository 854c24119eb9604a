/**
 * Calendar arithmetic on the app's text dates (YYYY-MM-DD, YYYY-MM, and dateTimes that start
 * with a date). Dates are wall-clock days, so UTC arithmetic is used only to count days, never to
 * shift them by a time zone.
 */

const MS_PER_DAY = 86_400_000;

/** Date.UTC reads years 0-99 as 1900-1999; setUTCFullYear does not. */
function utc(year: number, monthIndex: number, day: number): Date {
  const d = new Date(0);
  d.setUTCFullYear(year, monthIndex, day);
  return d;
}

const dayNumber = (date: string): number =>
  utc(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))).getTime() / MS_PER_DAY;

const dateOfDay = (day: number): string => new Date(day * MS_PER_DAY).toISOString().slice(0, 10);

/** A bound above every dateTime of the day (they read YYYY-MM-DDTHH:mm:ss and sort as text). */
export function endOfDay(date: string): string {
  return `${date}T24:00:00`;
}

/** Days from one date to another: 0 for the same day. */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to) - dayNumber(from);
}

/** Every date from `from` to `to`, both included. */
export function daysFrom(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = dayNumber(from), end = dayNumber(to); d <= end; d++) out.push(dateOfDay(d));
  return out;
}

/** The last day of a YYYY-MM month. */
export function monthEnd(month: string): string {
  return utc(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)
    .toISOString()
    .slice(0, 10);
}

/** Every YYYY-MM from the month of `from` to that of `to`, both included (each a date or a month). */
export function monthsFrom(from: string, to: string): string[] {
  const out: string[] = [];
  let year = Number(from.slice(0, 4));
  let month = Number(from.slice(5, 7));
  const end = to.slice(0, 7);
  for (;;) {
    const m = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
    if (m > end) return out;
    out.push(m);
    month = month === 12 ? 1 : month + 1;
    if (month === 1) year++;
  }
}

/** The YYYY-MM `by` months after `month` (before it when negative). */
export function addMonths(month: string, by: number): string {
  const index = Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1 + by;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}
