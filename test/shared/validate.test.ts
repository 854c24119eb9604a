import { describe, expect, it } from 'vitest';
import { APP_METHODS, APP_METHOD_NAMES, ERRORS, ERROR_CODES } from '../../src-shared/app-api';
import { fieldRules, parse, ValidationError, v, type Schema } from '../../src-shared/validate';
import { caught } from '../support/caught';

/** Parses and expects a refusal at `path` with `code` (and `params`, when given). */
function refuse(schema: Schema, value: unknown, path: string, code: string, params?: Record<string, unknown>): void {
  const e = caught(() => parse(schema, value), ValidationError);
  expect(e.path).toBe(path);
  expect(e.code).toBe(code);
  if (params) expect(e.params).toEqual(params);
}

describe('schemas', () => {
  it('decimals travel as canonical text, never as floats', () => {
    const amount = v.decimal({ positive: true });
    expect(parse(amount, '0010.50')).toBe('10.5');
    refuse(amount, 10.5, 'input', 'notDecimalText');
    refuse(amount, '0', 'input', 'notPositive');
    refuse(amount, '1e3', 'input', 'notDecimal');
    refuse(amount, '12345678901234567.5', 'input', 'tooManyDigits');
    expect(parse(v.decimal({ nonNegative: true }), '0')).toBe('0');
    refuse(v.decimal({ nonNegative: true }), '-1', 'input', 'negative');
    refuse(v.decimal({ maxScale: 3 }), '1.2345', 'input', 'tooManyDecimals', { max: 3 });
  });
  it('dateTimes are wall clock, minutes alone are filled in', () => {
    expect(parse(v.dateTime(), '2026-11-21T14:05')).toBe('2026-11-21T14:05:00');
    refuse(v.dateTime(), '2026-11-21T14:05:00Z', 'input', 'notDateTime');
    refuse(v.dateTime(), '2026-02-30T00:00', 'input', 'notDateTime');
  });
  it('dates are calendar days that exist', () => {
    expect(parse(v.date(), '2024-02-29')).toBe('2024-02-29');
    refuse(v.date(), '2026-02-29', 'input', 'notDate');
    refuse(v.date(), '2026-13-01', 'input', 'notDate');
    refuse(v.date(), '2026-11-21T00:00', 'input', 'notDate');
    refuse(v.date(), 20261121, 'input', 'notDate');
  });
  it('objects refuse unknown keys and name the failing path', () => {
    const s = v.object({ a: v.whole({ min: 1 }), b: v.optional(v.text({ max: 3 })) });
    expect(parse(s, { a: 1 })).toEqual({ a: 1 });
    refuse(s, { a: 1, c: 2 }, 'input.c', 'unexpected');
    refuse(s, { a: 0 }, 'input.a', 'tooSmall', { min: 1 });
    refuse(s, { a: 1, b: 'long' }, 'input.b', 'tooLong', { max: 3 });
    refuse(s, null, 'input', 'notObject');
    refuse(s, [1], 'input', 'notObject');
    refuse(v.list(v.whole(), { max: 2 }), [1, 'x'], 'input[1]', 'notWholeNumber');
    refuse(v.list(v.whole(), { max: 2 }), [1, 2, 3], 'input', 'tooManyItems', { max: 2 });
    refuse(v.oneOf('cs', 'en'), 'de', 'input', 'notOneOf', { values: 'cs, en' });
  });
  it('strings refuse control characters and trim when asked', () => {
    expect(parse(v.text({ min: 1, trim: true }), '  x ')).toBe('x');
    refuse(v.text({ min: 1, trim: true }), '   ', 'input', 'required');
    refuse(v.text(), 'a\u0000', 'input', 'controlCharacters');
  });
  it("a file's bytes are a Uint8Array, neither empty nor over the limit, never base64 text", () => {
    const file = v.bytes({ max: 2 * 2 ** 20 });
    const buffer = Buffer.from('SQLite format 3\0');
    expect(parse(file, buffer)).toBe(buffer);
    expect(parse(file, new Uint8Array(2 * 2 ** 20)).length).toBe(2 * 2 ** 20);
    refuse(file, buffer.toString('base64'), 'input', 'notBytes');
    refuse(file, [1, 2, 3], 'input', 'notBytes');
    refuse(file, new Uint8Array(0), 'input', 'required');
    refuse(file, new Uint8Array(2 * 2 ** 20 + 1), 'input', 'tooManyBytes', { mib: 2 });
  });
  it('ids are non-zero safe integers', () => {
    expect(parse(v.id(), -3)).toBe(-3);
    refuse(v.id(), 0, 'input', 'notId');
    refuse(v.id(), 2 ** 53, 'input', 'notWholeNumber');
    refuse(v.id(), '5', 'input', 'notWholeNumber');
  });
  it('keep their limits where a form reads them as hints', () => {
    expect(fieldRules(APP_METHODS.addRefueling.input, 'description')).toMatchObject({ maxLength: 1000 });
    expect(fieldRules(APP_METHODS.addRefueling.input, 'liter')).toEqual({ positive: true, maxScale: 3 });
    expect(fieldRules(APP_METHODS.addRefueling.input, 'rate')).toEqual({ positive: true, maxScale: 6 });
    expect(fieldRules(APP_METHODS.addRefueling.input, 'tachometer')).toMatchObject({ min: 0 });
    expect(fieldRules(APP_METHODS.addAccount.input, 'name')).toMatchObject({ minLength: 1, maxLength: 100 });
  });
  it('raise only codes the error table has', () => {
    for (const code of ['notText', 'required', 'tooLong', 'notDecimal', 'tooManyDecimals', 'unexpected', 'notObject', 'noInput']) {
      expect(ERROR_CODES).toContain(code);
      expect(ERRORS[code as keyof typeof ERRORS].kind).toBe('invalid-input');
    }
  });
});

describe('app API table', () => {
  it('has an input schema for every method that refuses a non-object garbage argument', () => {
    for (const name of APP_METHOD_NAMES) {
      expect(() => parse(APP_METHODS[name].input, 'garbage')).toThrow(ValidationError);
    }
  });
  it('validates a transfer as the core receives it', () => {
    const t = parse(APP_METHODS.transfer.input, {
      sourceId: 1,
      targetId: -2,
      amount: '100.10',
      paymentDate: '2026-11-21T10:00',
      categoryId: 0,
      description: 'Rent',
    });
    expect(t).toEqual({
      sourceId: 1,
      targetId: -2,
      amount: '100.1',
      paymentDate: '2026-11-21T10:00:00',
      categoryId: 0,
      description: 'Rent',
    });
  });
});
