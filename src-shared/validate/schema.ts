/**
 * A small schema library for validating untrusted input at the app's boundaries (IPC, the browser
 * shell's HTTP API, the command line). A schema parses `unknown` into a typed value or throws a
 * ValidationError that names the offending path; it never lets a value of the wrong shape through.
 */
import { decimalFromNumber, parseDecimal, formatDecimal } from '../money/decimal';
import { isWallDateTime, readDateTime } from '../wire/datetime';
import { hasForbiddenXmlChar } from '../wire/xml-text';

export class ValidationError extends Error {
  override name = 'ValidationError';
  constructor(
    /** Where in the input: `input.amount`, `input.items[2].name`. */
    readonly path: string,
    message: string,
  ) {
    super(`${path}: ${message}`);
  }
}

export interface Schema<T> {
  parse(value: unknown, path?: string): T;
}

export type Infer<S> = S extends Schema<infer T> ? T : never;

const schema = <T>(parse: (value: unknown, path: string) => T): Schema<T> => ({
  parse: (value, path = 'input') => parse(value, path),
});

export interface StringRules {
  min?: number;
  max?: number;
  /** Trim surrounding white space before checking length. */
  trim?: boolean;
  pattern?: RegExp;
  patternMessage?: string;
}

export function string(rules: StringRules = {}): Schema<string> {
  const { min = 0, max = 10_000, trim = false } = rules;
  return schema((value, path) => {
    if (typeof value !== 'string') throw new ValidationError(path, 'must be text');
    const s = trim ? value.trim() : value;
    if (s.length < min) throw new ValidationError(path, min === 1 ? 'must not be empty' : `must be at least ${min} characters`);
    if (s.length > max) throw new ValidationError(path, `must be at most ${max} characters`);
    if (hasForbiddenXmlChar(s)) throw new ValidationError(path, 'must not contain control characters');
    if (rules.pattern && !rules.pattern.test(s)) throw new ValidationError(path, rules.patternMessage ?? 'has the wrong form');
    return s;
  });
}

export function integer(rules: { min?: number; max?: number } = {}): Schema<number> {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = rules;
  return schema((value, path) => {
    if (typeof value !== 'number' || !Number.isSafeInteger(value)) throw new ValidationError(path, 'must be a whole number');
    if (value < min) throw new ValidationError(path, `must be at least ${min}`);
    if (value > max) throw new ValidationError(path, `must be at most ${max}`);
    return value;
  });
}

/** A record id: positive for records the service knows, negative for ones created offline. */
export const id = (): Schema<number> =>
  schema((value, path) => {
    const n = integer().parse(value, path);
    if (n === 0) throw new ValidationError(path, 'must be an id');
    return n;
  });

export const boolean = (): Schema<boolean> =>
  schema((value, path) => {
    if (typeof value !== 'boolean') throw new ValidationError(path, 'must be true or false');
    return value;
  });

export interface DecimalRules {
  /** Strictly greater than zero. */
  positive?: boolean;
  nonNegative?: boolean;
  maxScale?: number;
}

/** A decimal number given as text (`"1520.5"`), returned in canonical form; money never travels as a float. */
export function decimal(rules: DecimalRules = {}): Schema<string> {
  return schema((value, path) => {
    if (typeof value !== 'string') throw new ValidationError(path, 'must be a decimal number as text');
    const d = parseDecimal(value);
    if (!d || /e/i.test(value)) throw new ValidationError(path, 'must be a decimal number such as 1520.50');
    if (rules.positive && d.units <= 0n) throw new ValidationError(path, 'must be greater than zero');
    if (rules.nonNegative && d.units < 0n) throw new ValidationError(path, 'must not be negative');
    if (rules.maxScale !== undefined && d.scale > rules.maxScale) {
      throw new ValidationError(path, `must have at most ${rules.maxScale} decimal places`);
    }
    // The wire carries it as a double: it must read back as the same decimal, or another amount is sent.
    const text = formatDecimal(d);
    const sent = Number(text);
    if (!Number.isFinite(sent) || formatDecimal(decimalFromNumber(sent)) !== text) {
      throw new ValidationError(path, 'has more digits than can be sent exactly');
    }
    return text;
  });
}

/** A wall-clock dateTime `YYYY-MM-DDTHH:mm[:ss[.fff]]`, returned in canonical form. */
export const dateTime = (): Schema<string> =>
  schema((value, path) => {
    if (typeof value !== 'string') throw new ValidationError(path, 'must be a date and time');
    const withSeconds = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(value) ? `${value}:00` : value;
    const wall = /[zZ]|[+-]\d{2}:\d{2}$/.test(withSeconds) ? null : readDateTime(withSeconds, 'UTC');
    if (wall === null || !isWallDateTime(wall)) throw new ValidationError(path, 'must be a date and time such as 2026-11-21T14:05');
    return wall;
  });

/** A calendar date `YYYY-MM-DD` that exists (no 2026-02-30). */
export const date = (): Schema<string> =>
  schema((value, path) => {
    const m = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
    const [y, mo, d] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
    const real = m !== null && mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
    if (!real) throw new ValidationError(path, 'must be a date such as 2026-11-21');
    return value as string;
  });

export function literal<const T extends readonly (string | number)[]>(...values: T): Schema<T[number]> {
  return schema((value, path) => {
    if (!values.includes(value as T[number])) throw new ValidationError(path, `must be one of ${values.join(', ')}`);
    return value as T[number];
  });
}

export function optional<T>(inner: Schema<T>): Schema<T | undefined> {
  return schema((value, path) => (value === undefined ? undefined : inner.parse(value, path)));
}

export function nullable<T>(inner: Schema<T>): Schema<T | null> {
  return schema((value, path) => (value === null ? null : inner.parse(value, path)));
}

export function array<T>(inner: Schema<T>, rules: { max?: number } = {}): Schema<T[]> {
  const { max = 10_000 } = rules;
  return schema((value, path) => {
    if (!Array.isArray(value)) throw new ValidationError(path, 'must be a list');
    if (value.length > max) throw new ValidationError(path, `must have at most ${max} items`);
    return value.map((item, i) => inner.parse(item, `${path}[${i}]`));
  });
}

export function record<K extends string, T>(keys: Schema<K>, inner: Schema<T>, rules: { max?: number } = {}): Schema<Partial<Record<K, T>>> {
  const { max = 1000 } = rules;
  return schema((value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError(path, 'must be an object');
    const entries = Object.entries(value);
    if (entries.length > max) throw new ValidationError(path, `must have at most ${max} entries`);
    const out: Partial<Record<K, T>> = {};
    for (const [k, v] of entries) out[keys.parse(k, `${path} key`)] = inner.parse(v, `${path}.${k}`);
    return out;
  });
}

type Shape = Record<string, Schema<unknown>>;
type OptionalKeys<S extends Shape> = { [K in keyof S]: undefined extends Infer<S[K]> ? K : never }[keyof S];
type RequiredKeys<S extends Shape> = Exclude<keyof S, OptionalKeys<S>>;
export type ObjectOf<S extends Shape> = { [K in RequiredKeys<S>]: Infer<S[K]> } & { [K in OptionalKeys<S>]?: Infer<S[K]> };

/** An object with exactly these keys: unknown keys are refused, so a typo never passes silently. */
export function object<S extends Shape>(shape: S): Schema<ObjectOf<S>> {
  return schema((value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError(path, 'must be an object');
    for (const key of Object.keys(value)) {
      if (!Object.hasOwn(shape, key)) throw new ValidationError(`${path}.${key}`, 'is not expected');
    }
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(shape)) {
      const parsed = inner.parse((value as Record<string, unknown>)[key], `${path}.${key}`);
      if (parsed !== undefined) out[key] = parsed;
    }
    return out as ObjectOf<S>;
  });
}

/** Any plain object, checked only for shape; its content is validated later by a schema chosen from it. */
export const plainObject = (): Schema<Record<string, unknown>> =>
  schema((value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ValidationError(path, 'must be an object');
    return value as Record<string, unknown>;
  });

/** No input at all (a method called without arguments). */
export const none = (): Schema<void> =>
  schema((value, path) => {
    if (value !== undefined && !(typeof value === 'object' && value !== null && Object.keys(value).length === 0)) {
      throw new ValidationError(path, 'takes no input');
    }
  });
