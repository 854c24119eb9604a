/**
 * dateTime handling. Inside the code a dateTime is a wall-clock string `YYYY-MM-DDTHH:mm:ss[.fff]`
 * (no offset). Input with an offset or `Z` is converted to the wall clock of a chosen IANA zone; input
 * without one is taken as is. Fractions are kept to milliseconds (truncated, so a value never moves
 * into the next second).
 */
import { WireError, quote } from './errors';

const LEXICAL = /^(-?\d{4,})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(Z|[+-]\d{2}:\d{2})?$/;
const WALL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,3}))?$/;

export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  if (month === 2 && year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)) return 29;
  return DAYS_IN_MONTH[month - 1]!;
}

function isValidWall(w: WallClock): boolean {
  return (
    w.year >= 1 &&
    w.year <= 9999 &&
    w.month >= 1 &&
    w.month <= 12 &&
    w.day >= 1 &&
    w.day <= daysInMonth(w.year, w.month) &&
    w.hour <= 23 &&
    w.minute <= 59 &&
    w.second <= 59
  );
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export function formatWall(w: WallClock): string {
  const base = `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
  if (w.millisecond === 0) return base;
  return `${base}.${pad(w.millisecond, 3).replace(/0+$/, '')}`;
}

/** Milliseconds since the epoch of a wall clock read as UTC (years below 100 included). */
function wallAsUtcMillis(w: WallClock): number {
  const d = new Date(0);
  d.setUTCFullYear(w.year, w.month - 1, w.day);
  d.setUTCHours(w.hour, w.minute, w.second, w.millisecond);
  return d.getTime();
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function zoneFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
      era: 'short',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** True when `timeZone` is an IANA zone name this runtime knows. */
export function isValidTimeZone(timeZone: string): boolean {
  try {
    zoneFormatter(timeZone);
    return true;
  } catch {
    return false;
  }
}

export function localTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** The wall clock of an instant in an IANA zone. */
export function instantToWall(epochMillis: number, timeZone: string): WallClock {
  const parts: Record<string, string> = {};
  for (const p of zoneFormatter(timeZone).formatToParts(new Date(epochMillis))) parts[p.type] = p.value;
  const year = Number(parts.year);
  return {
    year: parts.era === 'BC' ? 1 - year : year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
    millisecond: ((epochMillis % 1000) + 1000) % 1000,
  };
}

/** The instant a wall clock of a zone stands for (the earlier one when a clock change repeats it). */
export function wallToInstant(wallText: string, timeZone: string): number {
  const w = parseWall(wallText);
  const asUtc = wallAsUtcMillis(w);
  // Two passes find the zone's offset at that wall time; a gap (spring forward) lands after it.
  let guess = asUtc;
  for (let i = 0; i < 2; i++) {
    const seen = wallAsUtcMillis(instantToWall(guess, timeZone));
    guess = asUtc - (seen - guess);
  }
  return guess;
}

function parseWall(text: string): WallClock {
  const m = WALL.exec(text);
  if (!m) throw new WireError('invalid-value', `Not a wall-clock dateTime: ${quote(text)}.`);
  return {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6]),
    millisecond: m[7] ? Number(m[7].padEnd(3, '0')) : 0,
  };
}

/**
 * Reads an XML Schema dateTime. Returns the canonical wall-clock string, converted into `timeZone`
 * when the input carries an offset. Returns null for text that is not a valid dateTime.
 */
export function readDateTime(text: string, timeZone: string): string | null {
  const m = LEXICAL.exec(text.trim());
  if (!m) return null;
  const wall: WallClock = {
    year: Number(m[1]),
    month: Number(m[2]),
    day: Number(m[3]),
    hour: Number(m[4]),
    minute: Number(m[5]),
    second: Number(m[6]),
    millisecond: m[7] ? Number(m[7].slice(0, 3).padEnd(3, '0')) : 0,
  };
  if (!isValidWall(wall)) return null;
  const zone = m[8];
  if (!zone) return formatWall(wall);
  const offsetMinutes = zone === 'Z' ? 0 : (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(4, 6)));
  if (Math.abs(offsetMinutes) > 14 * 60) return null;
  const converted = instantToWall(wallAsUtcMillis(wall) - offsetMinutes * 60_000, timeZone);
  return isValidWall(converted) ? formatWall(converted) : null;
}

/** Checks that a string is a canonical wall-clock dateTime (what the codec writes). */
export function isWallDateTime(text: string): boolean {
  // Every dateTime of every record answered passes here: the digits are read in place, not matched out.
  if (!WALL.test(text)) return false;
  const year = digits(text, 0, 4);
  const month = digits(text, 5, 2);
  const day = digits(text, 8, 2);
  return (
    year >= 1 &&
    month >= 1 &&
    month <= 12 &&
    day >= 1 &&
    day <= daysInMonth(year, month) &&
    digits(text, 11, 2) <= 23 &&
    digits(text, 14, 2) <= 59 &&
    digits(text, 17, 2) <= 59
  );
}

/** The number the ASCII digits at `from` spell (already known to be digits). */
function digits(text: string, from: number, count: number): number {
  let n = 0;
  for (let i = from; i < from + count; i++) n = n * 10 + text.charCodeAt(i) - 48;
  return n;
}

/** The wall clock of now in a zone, to the second. */
export function nowWall(timeZone: string): string {
  return formatWall({ ...instantToWall(Date.now(), timeZone), millisecond: 0 });
}
