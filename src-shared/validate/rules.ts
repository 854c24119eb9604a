/**
 * The rules of untrusted input at the app's boundaries (IPC, the browser shell's HTTP API, the command
 * line), on valibot: each builder is a valibot schema whose issues carry an error code (the message
 * is the code: src-shared/app-api/errors.ts words it) and whose limits are kept as metadata, so that a
 * form shows the same rule as a hint ("at most 1000 characters", "3 decimal places") as the core
 * enforces. `parse` runs a schema and throws a ValidationError naming the path, the code and its
 * parameters; it never lets a value of the wrong shape through.
 */
import * as v from 'valibot';
import type { ErrorCode, ParamValue } from '../app-api/errors';
import { decimalFromNumber, formatDecimal, parseDecimal } from '../money/decimal';
import { isWallDateTime, readDateTime } from '../wire/datetime';
import { hasForbiddenXmlChar } from '../wire/xml-text';

/** Any schema whose output is T. */
export type Schema<T = unknown> = v.GenericSchema<unknown, T>;
export type Infer<S extends v.GenericSchema> = v.InferOutput<S>;

export class ValidationError extends Error {
  override name = 'ValidationError';
  constructor(
    /** Where in the input: `input.amount`, `input.items[2].name`. */
    readonly path: string,
    readonly code: ErrorCode,
    readonly params: Record<string, ParamValue> = {},
  ) {
    super(`${path}: ${code}`);
  }
}

/** The limits of a field, as a form shows them beside it. */
export interface FieldRules {
  /** Fewest characters (1: must not be empty) and most. */
  minLength?: number;
  maxLength?: number;
  /** A text kept without surrounding white space (a name). */
  trim?: boolean;
  /** Smallest and largest whole number. */
  min?: number;
  max?: number;
  /** Decimals: greater than zero, or at least zero; at most this many decimal places. */
  positive?: boolean;
  nonNegative?: boolean;
  maxScale?: number;
}

const rules = <T>(r: FieldRules) => v.metadata<T, { rules: FieldRules }>({ rules: r });

export interface TextRules {
  min?: number;
  max?: number;
  /** Trim surrounding white space before checking length. */
  trim?: boolean;
  pattern?: RegExp;
  /** The code of a text that does not match the pattern. */
  patternCode?: ErrorCode;
}

export function text(r: TextRules = {}) {
  const { min = 0, max = 10_000, trim = false } = r;
  return v.pipe(
    v.string('notText' satisfies ErrorCode),
    v.transform((s: string) => (trim ? s.trim() : s)),
    v.minLength(min, (min === 1 ? 'required' : 'tooShort') satisfies ErrorCode),
    v.maxLength(max, 'tooLong' satisfies ErrorCode),
    v.check((s: string) => !hasForbiddenXmlChar(s), 'controlCharacters' satisfies ErrorCode),
    v.check((s: string) => !r.pattern || r.pattern.test(s), r.patternCode ?? ('wrongForm' satisfies ErrorCode)),
    rules<string>({ minLength: min, maxLength: max, ...(trim ? { trim: true } : {}) }),
  );
}

export function whole(r: { min?: number; max?: number } = {}) {
  const { min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER } = r;
  return v.pipe(
    v.number('notWholeNumber' satisfies ErrorCode),
    v.safeInteger('notWholeNumber' satisfies ErrorCode),
    v.minValue(min, 'tooSmall' satisfies ErrorCode),
    v.maxValue(max, 'tooLarge' satisfies ErrorCode),
    rules<number>({ min, max }),
  );
}

/** A record id: positive for records the service knows, negative for ones created offline. */
export const id = () =>
  v.pipe(
    whole(),
    v.check((n: number) => n !== 0, 'notId' satisfies ErrorCode),
  );

export const flag = () => v.boolean('notBoolean' satisfies ErrorCode);

/** A file's bytes (a backup), not empty and at most `max` of them: a Uint8Array (a Node Buffer is one too). */
export function bytes(r: { max: number }) {
  return v.pipe(
    v.custom<Uint8Array>((x) => x instanceof Uint8Array, 'notBytes' satisfies ErrorCode),
    v.check((b: Uint8Array) => b.length > 0, 'required' satisfies ErrorCode),
    v.rawCheck<Uint8Array>(({ dataset, addIssue }) => {
      if (dataset.typed && dataset.value.length > r.max) addIssue({ message: 'tooManyBytes' satisfies ErrorCode, expected: String(r.max) });
    }),
  );
}

export interface DecimalRules {
  /** Strictly greater than zero. */
  positive?: boolean;
  nonNegative?: boolean;
  maxScale?: number;
}

/** A decimal number given as text (`"1520.5"`), returned in canonical form; money never travels as a float. */
export function decimal(r: DecimalRules = {}) {
  return v.pipe(
    v.string('notDecimalText' satisfies ErrorCode),
    v.check((s: string) => parseDecimal(s) !== null && !/e/i.test(s), 'notDecimal' satisfies ErrorCode),
    v.check((s: string) => !r.positive || parseDecimal(s)!.units > 0n, 'notPositive' satisfies ErrorCode),
    v.check((s: string) => !r.nonNegative || parseDecimal(s)!.units >= 0n, 'negative' satisfies ErrorCode),
    v.rawCheck<string>(({ dataset, addIssue }) => {
      if (r.maxScale !== undefined && dataset.typed && parseDecimal(dataset.value)!.scale > r.maxScale) {
        addIssue({ message: 'tooManyDecimals' satisfies ErrorCode, expected: String(r.maxScale) });
      }
    }),
    v.transform((s: string) => formatDecimal(parseDecimal(s)!)),
    // The wire carries it as a double: it must read back as the same decimal, or another amount is sent.
    v.check((s: string) => {
      const sent = Number(s);
      return Number.isFinite(sent) && formatDecimal(decimalFromNumber(sent)) === s;
    }, 'tooManyDigits' satisfies ErrorCode),
    rules<string>({
      ...(r.positive ? { positive: true } : {}),
      ...(r.nonNegative ? { nonNegative: true } : {}),
      ...(r.maxScale === undefined ? {} : { maxScale: r.maxScale }),
    }),
  );
}

/** A wall-clock dateTime `YYYY-MM-DDTHH:mm[:ss[.fff]]`, returned in canonical form. */
export const dateTime = () =>
  v.pipe(
    v.string('notDateTime' satisfies ErrorCode),
    v.transform((s: string) => {
      const withSeconds = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(s) ? `${s}:00` : s;
      const wall = /[zZ]|[+-]\d{2}:\d{2}$/.test(withSeconds) ? null : readDateTime(withSeconds, 'UTC');
      return wall !== null && isWallDateTime(wall) ? wall : '';
    }),
    v.check((s: string) => s !== '', 'notDateTime' satisfies ErrorCode),
  );

/** Whether a text is a calendar date `YYYY-MM-DD` that exists (no 2026-02-30). */
export function isCalendarDate(value: unknown): value is string {
  const m = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(value) : null;
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

export const date = () =>
  v.pipe(
    v.string('notDate' satisfies ErrorCode),
    v.check((s: string) => isCalendarDate(s), 'notDate' satisfies ErrorCode),
  );

export const oneOf = <const T extends readonly [string, ...string[]]>(...values: T) => v.picklist(values, 'notOneOf' satisfies ErrorCode);

export function list<S extends v.GenericSchema>(inner: S, r: { max?: number } = {}) {
  return v.pipe(v.array(inner, 'notList' satisfies ErrorCode), v.maxLength(r.max ?? 10_000, 'tooManyItems' satisfies ErrorCode));
}

export function map<K extends v.GenericSchema<string, string>, S extends v.GenericSchema>(keys: K, inner: S, r: { max?: number } = {}) {
  return v.pipe(v.record(keys, inner, 'notObject' satisfies ErrorCode), v.maxEntries(r.max ?? 1000, 'tooManyEntries' satisfies ErrorCode));
}

/**
 * An object with exactly these keys: unknown keys are refused, so a typo never passes silently; a list is no
 * object. Its input type is the keys' (an optional one may be left out), as a caller gives it.
 */
export const object = <E extends v.ObjectEntries>(entries: E) =>
  v.pipe(
    v.custom<v.InferInput<v.StrictObjectSchema<E, undefined>>>(
      (x) => typeof x === 'object' && x !== null && !Array.isArray(x),
      'notObject' satisfies ErrorCode,
    ),
    v.strictObject(entries, 'notObject' satisfies ErrorCode),
  );

/** Any plain object, checked only for shape; its content is validated later by a schema chosen from it. */
export const plainObject = () => v.record(v.string(), v.unknown(), 'notObject' satisfies ErrorCode);

/** No input at all (a method called without arguments). */
export const none = () => v.union([v.undefined(), v.strictObject({})], 'noInput' satisfies ErrorCode);

export const optional = v.optional;
export const nullable = v.nullable;

/** The parameters an issue's text needs, read from the rule that raised it. */
function paramsOf(code: ErrorCode, issue: v.BaseIssue<unknown>): Record<string, ParamValue> {
  const requirement = typeof issue.requirement === 'number' ? issue.requirement : Number(issue.expected);
  switch (code) {
    case 'tooShort':
    case 'tooSmall':
      return { min: requirement };
    case 'tooLong':
    case 'tooLarge':
    case 'tooManyItems':
    case 'tooManyEntries':
    case 'tooManyDecimals':
      return { max: requirement };
    case 'tooManyBytes':
      return { mib: Math.floor(requirement / 2 ** 20) };
    case 'notOneOf':
      return { values: (issue.expected ?? '').replace(/[()"]/g, '').split(' | ').join(', ') };
    default:
      return {};
  }
}

const pathText = (base: string, issue: v.BaseIssue<unknown>): string =>
  (issue.path ?? []).reduce((p, item) => (typeof item.key === 'number' ? `${p}[${item.key}]` : `${p}.${String(item.key)}`), base);

/** The first issue of a failed parse as a ValidationError. */
export function issueError(issue: v.BaseIssue<unknown>, base = 'input'): ValidationError {
  // A strict object's key it does not know, or a key it needs that is missing: said of that key.
  const unexpected = issue.type === 'strict_object' && issue.expected === 'never';
  const missing = issue.type === 'strict_object' && issue.received === 'undefined' && (issue.path?.length ?? 0) > 0;
  const code = (unexpected ? 'unexpected' : missing ? 'required' : issue.message) as ErrorCode;
  return new ValidationError(pathText(base, issue), code, paramsOf(code, issue));
}

/** Parses `value` or throws a ValidationError for its first problem; `path` names the input in it. */
export function parse<S extends v.GenericSchema>(schema: S, value: unknown, path = 'input'): v.InferOutput<S> {
  const result = v.safeParse(schema, value, { abortEarly: true });
  if (result.success) return result.output;
  throw issueError(result.issues[0], path);
}

type Node = {
  entries?: Record<string, unknown>;
  wrapped?: unknown;
  pipe?: (Node & { kind: string; type: string; metadata?: { rules?: FieldRules } })[];
};

/** The schema of one field of an object schema (the object's own, a list's or a pipe's looked into). */
export function fieldSchema(schema: v.GenericSchema, field: string): v.GenericSchema {
  const s = schema as unknown as Node;
  const entries = s.entries ?? s.pipe?.find((item) => item.entries)?.entries;
  const found = entries?.[field];
  if (!found) throw new Error(`The schema has no field ${field}.`);
  return found as v.GenericSchema;
}

/** The limits of one field of an object schema (optional and nullable wrappers looked through). */
export function fieldRules(schema: v.GenericSchema, field?: string): FieldRules {
  let s = (field === undefined ? schema : fieldSchema(schema, field)) as unknown as Node;
  while (s.wrapped) s = s.wrapped;
  const out: FieldRules = {};
  for (const item of s.pipe ?? []) if (item.type === 'metadata' && item.metadata?.rules) Object.assign(out, item.metadata.rules);
  return out;
}
