/**
 * Typed conversion between wire text and values, both ways. Reading never rounds: a `long` that a JS
 * number cannot hold exactly, a malformed number or an impossible date is an error naming the subject.
 */
import type { WireType, WireValueOf } from '../catalog/wire-types';
import { readDateTime, isWallDateTime } from './datetime';
import { WireError } from './errors';

const LONG = /^[+-]?\d+$/;
const DOUBLE = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

export interface ReadOptions {
  /** Zone that dateTimes with an offset are converted into. */
  timeZone: string;
}

function invalid(subject: string, expected: string): WireError {
  return new WireError('invalid-value', `${subject} must be ${expected}.`, subject);
}

export function readLong(text: string, subject: string): number {
  const t = text.trim();
  if (!LONG.test(t)) throw invalid(subject, 'a long (a whole number)');
  const big = BigInt(t);
  if (big < LONG_MIN || big > LONG_MAX) throw invalid(subject, 'a long within the 64-bit range');
  const n = Number(big);
  if (!Number.isSafeInteger(n)) {
    throw new WireError('invalid-value', `${subject} is ${t}, beyond 2^53, which this program cannot hold exactly.`, subject);
  }
  return n;
}

export function readDouble(text: string, subject: string): number {
  const t = text.trim();
  if (t === 'INF' || t === '+INF') return Infinity;
  if (t === '-INF') return -Infinity;
  if (t === 'NaN') return NaN;
  if (!DOUBLE.test(t)) throw invalid(subject, 'a number');
  return Number(t);
}

export function readBoolean(text: string, subject: string): boolean {
  switch (text.trim()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      throw invalid(subject, 'a boolean (true or false)');
  }
}

export function readValue<T extends WireType>(type: T, text: string, subject: string, options: ReadOptions): WireValueOf[T] {
  switch (type) {
    case 'long':
      return readLong(text, subject) as WireValueOf[T];
    case 'double':
      return readDouble(text, subject) as WireValueOf[T];
    case 'boolean':
      return readBoolean(text, subject) as WireValueOf[T];
    case 'dateTime': {
      const wall = readDateTime(text, options.timeZone);
      if (wall === null) throw invalid(subject, 'a dateTime (YYYY-MM-DDThh:mm:ss)');
      return wall as WireValueOf[T];
    }
    default:
      return text as WireValueOf[T];
  }
}

/** The shortest text that reads back to the same double, in XML Schema's spelling. */
export function writeDouble(n: number): string {
  if (Number.isNaN(n)) return 'NaN';
  if (n === Infinity) return 'INF';
  if (n === -Infinity) return '-INF';
  if (Object.is(n, -0)) return '-0';
  const text = String(n);
  return text.includes('e') ? text.replace('e', 'E') : text;
}

/**
 * Writes a value as wire text (not yet XML-escaped). Refuses values that do not fit their type, so
 * that the codec never puts a wrong value on the wire.
 */
export function writeValue(type: WireType, value: unknown, subject: string): string {
  switch (type) {
    case 'long':
      if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw invalid(subject, 'a safe integer');
      return String(value);
    case 'double':
      if (typeof value !== 'number') throw invalid(subject, 'a number');
      return writeDouble(value);
    case 'boolean':
      if (typeof value !== 'boolean') throw invalid(subject, 'a boolean');
      return value ? 'true' : 'false';
    case 'dateTime':
      if (typeof value !== 'string' || !isWallDateTime(value)) throw invalid(subject, 'a wall-clock dateTime');
      return value;
    case 'string':
      if (typeof value !== 'string') throw invalid(subject, 'a string');
      return value;
  }
}
