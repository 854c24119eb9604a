/**
 * Dates and times. Records carry wall-clock text without an offset ("2026-11-21T14:05:00"), the time the
 * service's zone showed; it is displayed as written, never shifted by the viewer's zone. The core's own times
 * (the last sync, when an outbox entry was made) are instants: written as the core's zone's wall clock (the
 * machine's, AppStatus.timeZone) or with an offset, they are shown, and measured from now, in the viewer's zone,
 * which in the browser shell need not be the machine's.
 */
import { wallToInstant } from '../../../src-shared/wire/datetime';
import type { Locale } from './amount';
import { formatDateInput, formatDateTimeInput } from './date-input';

const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;

/** The wall clock as a Date whose UTC fields hold it (so formatting with timeZone UTC shows it unchanged). */
export function wallAsUtcDate(text: string): Date | null {
  const m = WALL.exec(text);
  if (!m) return null;
  const d = new Date(0);
  d.setUTCFullYear(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  d.setUTCHours(Number(m[4]), Number(m[5]), Number(m[6] ?? 0), Number((m[7] ?? '0').padEnd(3, '0')));
  return d;
}

const formats = new Map<string, Intl.DateTimeFormat>();
function dateFormat(locale: Locale, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = locale + JSON.stringify(options);
  let f = formats.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, options);
    formats.set(key, f);
  }
  return f;
}

/** 'day': a day spelled out ("November 1, 2026"), where a name must hold the day's number as a word (a calendar's day). */
export type WallStyle = 'date' | 'time' | 'dateTime' | 'long' | 'day';

const STYLES: Record<WallStyle, Intl.DateTimeFormatOptions> = {
  date: { dateStyle: 'medium' },
  time: { timeStyle: 'short' },
  dateTime: { dateStyle: 'medium', timeStyle: 'short' },
  long: { dateStyle: 'full', timeStyle: 'short' },
  day: { dateStyle: 'long' },
};

/**
 * A record's wall-clock date/time for display; unreadable text is shown as it is. A date, and a date with its time,
 * read as they are typed (one format per language for the fields and the screens: "24.11.2026 14:05",
 * "11/24/2026 2:05 PM"); the time alone and the long form (a tooltip's, a detail's) as Intl writes them.
 */
export function formatWall(text: string, locale: Locale, style: WallStyle = 'dateTime'): string {
  const d = wallAsUtcDate(text);
  if (!d) return text;
  if (style === 'date') return formatDateInput(text, locale);
  // To the minute, as the fields show it.
  if (style === 'dateTime') return formatDateTimeInput(text.slice(0, 16), locale);
  return dateFormat(locale, { ...STYLES[style], timeZone: 'UTC' }).format(d);
}

/**
 * The milliseconds of an instant: text with an offset ("...Z", "...+01:00") as it says; a wall clock without one
 * as the clock of `zone`, the zone that wrote it (the core's), not the viewer's. NaN when it cannot be read.
 */
export function instantMillis(text: string, zone: string): number {
  if (!WALL.test(text)) return Date.parse(text);
  try {
    return wallToInstant(text, zone);
  } catch {
    return NaN;
  }
}

/** An instant (see instantMillis; `zone` the zone of a wall clock without offset) in the viewer's zone. */
export function formatInstant(text: string, locale: Locale, zone: string, style: WallStyle = 'dateTime'): string {
  const ms = instantMillis(text, zone);
  if (Number.isNaN(ms)) return text;
  // The viewer's wall clock of the instant, written as a record's is.
  return style === 'date' || style === 'dateTime'
    ? formatWall(nowForInput(new Date(ms)), locale, style)
    : dateFormat(locale, STYLES[style]).format(new Date(ms));
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** Now on the viewer's wall clock, as a datetime-local input wants it ("2026-11-21T14:05"). */
export function nowForInput(now: Date = new Date()): string {
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}T${pad(now.getHours())}:${pad(now.getMinutes())}`;
}

/** A record's wall clock for a datetime-local input: minutes, or seconds when it has them. */
export function wallForInput(text: string): string {
  const m = WALL.exec(text);
  if (!m) return '';
  const base = `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}`;
  return m[6] && m[6] !== '00' ? `${base}:${m[6]}` : base;
}

/** "5 minutes ago" for an instant (as formatInstant reads it; "now" under 45 seconds), or null when it cannot be read. */
export function relativeTime(text: string, locale: Locale, zone: string, now: number = Date.now()): string | null {
  const ms = instantMillis(text, zone);
  if (Number.isNaN(ms)) return null;
  const seconds = Math.round((ms - now) / 1000);
  const rtf = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const abs = Math.abs(seconds);
  if (abs < 45) return rtf.format(0, 'second');
  if (abs < 45 * 60) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 22 * 3600) return rtf.format(Math.round(seconds / 3600), 'hour');
  return rtf.format(Math.round(seconds / 86400), 'day');
}

/** A calendar date (YYYY-MM-DD) for display; unreadable text is shown as it is. */
export function formatDate(date: string, locale: Locale): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) ? formatWall(`${date}T00:00`, locale, 'date') : date;
}

/** A month (YYYY-MM) for display: "Nov 2026", "lis 2026"; `long` spells the month out. */
export function formatMonth(month: string, locale: Locale, long = false): string {
  const d = /^\d{4}-\d{2}$/.test(month) ? wallAsUtcDate(`${month}-01T00:00`) : null;
  return d ? dateFormat(locale, { month: long ? 'long' : 'short', year: 'numeric', timeZone: 'UTC' }).format(d) : month;
}
