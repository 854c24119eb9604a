/**
 * Periods the statistics and reports cover: presets resolved against today's date, or dates the user
 * picks. Dates are calendar dates (YYYY-MM-DD) on the viewer's wall clock; both ends are included.
 */

import { isCalendarDate } from '../../../src-shared/validate';

export type PeriodPreset = 'all' | 'thisMonth' | 'last3Months' | 'last12Months' | 'thisYear' | 'lastYear' | 'custom';

export interface Period {
  preset: PeriodPreset;
  /** Only for 'custom'; null leaves that end open. */
  from: string | null;
  to: string | null;
}

export interface DateRange {
  from: string | null;
  to: string | null;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Today on the viewer's wall clock. */
export function todayDate(now: Date = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** The first day of the month `back` months before the month of `date`. */
function monthStart(date: string, back: number): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) - back;
  return `${Math.floor(index / 12)}-${pad((index % 12) + 1)}-01`;
}

/**
 * The dates a preset covers on `today`. "Last N months" are calendar months, this one included, so that
 * monthly figures never start with a cut month.
 */
export function presetRange(preset: Exclude<PeriodPreset, 'custom'>, today: string): DateRange {
  const year = Number(today.slice(0, 4));
  switch (preset) {
    case 'all':
      return { from: null, to: null };
    case 'thisMonth':
      return { from: monthStart(today, 0), to: today };
    case 'last3Months':
      return { from: monthStart(today, 2), to: today };
    case 'last12Months':
      return { from: monthStart(today, 11), to: today };
    case 'thisYear':
      return { from: `${year}-01-01`, to: today };
    case 'lastYear':
      return { from: `${year - 1}-01-01`, to: `${year - 1}-12-31` };
  }
}

/** The dates a period covers: a preset's, or the custom ones (swapped when given the wrong way round). */
export function periodRange(period: Period, today: string): DateRange {
  if (period.preset !== 'custom') return presetRange(period.preset, today);
  const { from, to } = period;
  return from && to && from > to ? { from: to, to: from } : { from, to };
}

/** A report needs both ends: an open custom end is closed with the preset's (or today). */
export function closedRange(
  period: Period,
  today: string,
  fallback: Exclude<PeriodPreset, 'custom' | 'all'>,
): { from: string; to: string } {
  const range = periodRange(period, today);
  const preset = presetRange(fallback, today);
  return { from: range.from ?? preset.from!, to: range.to ?? today };
}

const PRESETS: readonly PeriodPreset[] = ['all', 'thisMonth', 'last3Months', 'last12Months', 'thisYear', 'lastYear', 'custom'];
export const isPreset = (text: unknown): text is PeriodPreset => PRESETS.includes(text as PeriodPreset);

/** A period from the address (?period=thisYear or ?from=…&to=…); anything unreadable falls back. */
export function periodFromQuery(query: Record<string, unknown>, allowed: readonly PeriodPreset[], fallback: PeriodPreset): Period {
  const from = isCalendarDate(query.from) ? query.from : null;
  const to = isCalendarDate(query.to) ? query.to : null;
  if (from || to) return { preset: 'custom', from, to };
  const preset = isPreset(query.period) && allowed.includes(query.period) && query.period !== 'custom' ? query.period : fallback;
  return { preset, from: null, to: null };
}

/** The address form of a period: the preset's name, or the custom dates. */
export function periodToQuery(period: Period): Record<string, string> {
  if (period.preset !== 'custom') return { period: period.preset };
  const out: Record<string, string> = {};
  if (period.from) out.from = period.from;
  if (period.to) out.to = period.to;
  return out;
}
