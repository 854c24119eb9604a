/**
 * Dates as people type them, in one text field, in the order of their language: a Czech user types
 * 24.11.2026 (or 24. 11. 2026, or 24.11. for this year), an English one 11/24/2026; a time follows after a
 * space (14:05, or 2:05 PM). The order and the separator come from Intl; the ISO form (2026-11-24T14:05)
 * is read in every language. Values are the forms' own: a calendar date "2026-11-24" and a wall-clock
 * time "2026-11-24T14:05".
 */
import type { Locale } from './amount';

type DatePart = 'day' | 'month' | 'year';

export interface DateOrder {
  /** The order of day, month and year in a numeric date of the locale. */
  parts: [DatePart, DatePart, DatePart];
  /** The separator it writes between them, without spaces ("." in Czech, "/" in English). */
  separator: string;
  /** Whether the locale writes a 12-hour clock with AM and PM. */
  hour12: boolean;
}

const orders = new Map<Locale, DateOrder>();

/** The locale's numeric date order and clock, as Intl formats a sample date. */
export function dateOrder(locale: Locale): DateOrder {
  let order = orders.get(locale);
  if (!order) {
    const f = new Intl.DateTimeFormat(locale, { year: 'numeric', month: '2-digit', day: '2-digit', timeZone: 'UTC' });
    const parts = f.formatToParts(new Date(Date.UTC(2026, 10, 24)));
    const fields = parts
      .filter((p): p is Intl.DateTimeFormatPart & { type: DatePart } => p.type === 'day' || p.type === 'month' || p.type === 'year')
      .map((p) => p.type);
    const separator = parts.find((p) => p.type === 'literal')?.value.trim() || '/';
    const hour12 = new Intl.DateTimeFormat(locale, { hour: 'numeric' }).resolvedOptions().hour12 ?? false;
    order = { parts: fields as [DatePart, DatePart, DatePart], separator, hour12 };
    orders.set(locale, order);
  }
  return order;
}

/** The first day of the week in the locale: 1 Monday … 7 Sunday. */
export function firstDayOfWeek(locale: Locale): number {
  const l = new Intl.Locale(locale === 'en' ? 'en-US' : locale) as Intl.Locale & {
    getWeekInfo?: () => { firstDay: number };
    weekInfo?: { firstDay: number };
  };
  return l.getWeekInfo?.().firstDay ?? l.weekInfo?.firstDay ?? (locale === 'en' ? 7 : 1);
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** A calendar date ("2026-11-24") as the locale writes it for typing: "24.11.2026", "11/24/2026". */
export function formatDateInput(date: string, locale: Locale): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(date);
  if (!m) return '';
  const { parts, separator } = dateOrder(locale);
  const value: Record<DatePart, string> = { year: m[1]!, month: m[2]!, day: m[3]! };
  return parts.map((p) => value[p]).join(separator);
}

/** A time of day ("14:05") as the locale writes it: "14:05", "2:05 PM". */
export function formatTimeInput(time: string, locale: Locale): string {
  const m = /^(\d{2}):(\d{2})(?::(\d{2}))?/.exec(time);
  if (!m) return '';
  const seconds = m[3] && m[3] !== '00' ? `:${m[3]}` : '';
  if (!dateOrder(locale).hour12) return `${m[1]}:${m[2]}${seconds}`;
  const h = Number(m[1]);
  return `${h % 12 === 0 ? 12 : h % 12}:${m[2]}${seconds} ${h < 12 ? 'AM' : 'PM'}`;
}

/** A wall-clock time ("2026-11-24T14:05") as the locale writes it for typing: "24.11.2026 14:05". */
export function formatDateTimeInput(wall: string, locale: Locale): string {
  const [date, time] = wall.split('T');
  return date && time ? `${formatDateInput(date, locale)} ${formatTimeInput(time, locale)}` : '';
}

/** What the user sees as the pattern to type: "dd.mm.yyyy", "mm/dd/yyyy" (+ " hh:mm" or " h:mm AM"). */
export function inputPattern(locale: Locale, withTime: boolean, words: Record<DatePart, string>): string {
  const { parts, separator, hour12 } = dateOrder(locale);
  const date = parts.map((p) => words[p]).join(separator);
  return withTime ? `${date} ${hour12 ? 'h:mm AM' : 'hh:mm'}` : date;
}

export type DateInputProblem = 'empty' | 'invalid';
export type DateInputParse = { ok: true; value: string } | { ok: false; reason: DateInputProblem };

function realDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(year, month, 0)).getUTCDate();
}

const ISO = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T\s]+(.*))?$/;

/** Day, month and year in the locale's order; the year may be left out (this year) or given with two digits. */
function readDate(text: string, locale: Locale, today: Date): { date: string; rest: string } | null {
  const iso = ISO.exec(text);
  let day: number;
  let month: number;
  let year: number;
  let rest: string;
  if (iso) {
    [year, month, day] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
    rest = iso[4] ?? '';
  } else {
    // Numbers separated by dots, slashes or dashes, each maybe followed by spaces ("24. 11. 2026").
    const m = /^(\d{1,4})\s*[./-]\s*(\d{1,2})(?:\s*[./-]\s*(\d{2}|\d{4})?)?\.?(?:[,\s]+(.*))?$/.exec(text);
    if (!m) return null;
    const { parts } = dateOrder(locale);
    const values: Partial<Record<DatePart, string>> = {};
    const given = [m[1], m[2], m[3]];
    // The year comes last in both languages' orders; without it the two numbers are day and month.
    const order = parts.filter((p) => p !== 'year');
    values[order[0]!] = given[0];
    values[order[1]!] = given[1];
    values.year = given[2];
    if (values.day!.length > 2) return null;
    day = Number(values.day);
    month = Number(values.month);
    year = values.year === undefined ? today.getFullYear() : values.year.length === 2 ? 2000 + Number(values.year) : Number(values.year);
    rest = m[4] ?? '';
  }
  if (year < 1 || !realDate(year, month, day)) return null;
  return { date: `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}`, rest: rest.trim() };
}

/** "14:05", "14.05", "14", "2:05 PM", "2:05pm", "2 PM", with optional seconds: "14:05:30". */
function readTime(text: string): string | null {
  const m = /^(\d{1,2})(?:[:.](\d{2}))?(?:[:.](\d{2}))?\s*(?:(a|p)\.?\s*m\.?)?$/i.exec(text);
  if (!m) return null;
  let h = Number(m[1]);
  const min = Number(m[2] ?? '0');
  const sec = m[3] === undefined ? null : Number(m[3]);
  const meridiem = m[4]?.toLowerCase();
  if (meridiem) {
    if (h < 1 || h > 12) return null;
    h = (h % 12) + (meridiem === 'p' ? 12 : 0);
  }
  if (h > 23 || min > 59 || (sec !== null && sec > 59)) return null;
  return `${pad(h)}:${pad(min)}${sec !== null && sec !== 0 ? `:${pad(sec)}` : ''}`;
}

/** Reads a calendar date typed in the locale's order (or ISO): "2026-11-24". */
export function parseDateInput(text: string, locale: Locale, today: Date = new Date()): DateInputParse {
  const s = text.trim();
  if (!s) return { ok: false, reason: 'empty' };
  const read = readDate(s, locale, today);
  return read && !read.rest ? { ok: true, value: read.date } : { ok: false, reason: 'invalid' };
}

/** Reads a date and a time typed in the locale's order (or ISO): "2026-11-24T14:05". Without a time, midnight. */
export function parseDateTimeInput(text: string, locale: Locale, today: Date = new Date()): DateInputParse {
  const s = text.trim();
  if (!s) return { ok: false, reason: 'empty' };
  const read = readDate(s, locale, today);
  if (!read) return { ok: false, reason: 'invalid' };
  const time = read.rest ? readTime(read.rest) : '00:00';
  return time ? { ok: true, value: `${read.date}T${time}` } : { ok: false, reason: 'invalid' };
}
