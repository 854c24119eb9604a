import { describe, expect, it } from 'vitest';
import { APP_METHODS, APP_METHOD_NAMES } from '../../src-shared/app-api';
import { ValidationError, v } from '../../src-shared/validate';

function refuse(fn: () => unknown, path: string): void {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).path).toBe(path);
    return;
  }
  throw new Error('expected a ValidationError');
}

describe('schemas', () => {
  it('decimals travel as canonical text, never as floats', () => {
    const amount = v.decimal({ positive: true });
    expect(amount.parse('0010.50')).toBe('10.5');
    refuse(() => amount.parse(10.5), 'input');
    refuse(() => amount.parse('0'), 'input');
    refuse(() => amount.parse('1e3'), 'input');
    refuse(() => amount.parse('12345678901234567.5'), 'input');
    expect(v.decimal({ nonNegative: true }).parse('0')).toBe('0');
  });
  it('dateTimes are wall clock, minutes alone are filled in', () => {
    expect(v.dateTime().parse('2026-11-21T14:05')).toBe('2026-11-21T14:05:00');
    refuse(() => v.dateTime().parse('2026-11-21T14:05:00Z'), 'input');
    refuse(() => v.dateTime().parse('2026-02-30T00:00'), 'input');
  });
  it('dates are calendar days that exist', () => {
    expect(v.date().parse('2024-02-29')).toBe('2024-02-29');
    refuse(() => v.date().parse('2026-02-29'), 'input');
    refuse(() => v.date().parse('2026-13-01'), 'input');
    refuse(() => v.date().parse('2026-11-21T00:00'), 'input');
    refuse(() => v.date().parse(20261121), 'input');
  });
  it('objects refuse unknown keys and name the failing path', () => {
    const s = v.object({ a: v.integer({ min: 1 }), b: v.optional(v.string({ max: 3 })) });
    expect(s.parse({ a: 1 })).toEqual({ a: 1 });
    refuse(() => s.parse({ a: 1, c: 2 }), 'input.c');
    refuse(() => s.parse({ a: 0 }), 'input.a');
    refuse(() => s.parse({ a: 1, b: 'long' }), 'input.b');
    refuse(() => s.parse(null), 'input');
    refuse(() => s.parse([1]), 'input');
  });
  it('strings refuse control characters and trim when asked', () => {
    expect(v.string({ min: 1, trim: true }).parse('  x ')).toBe('x');
    refuse(() => v.string({ min: 1, trim: true }).parse('   '), 'input');
    refuse(() => v.string().parse('a\u0000'), 'input');
  });
  it('ids are non-zero safe integers', () => {
    expect(v.id().parse(-3)).toBe(-3);
    refuse(() => v.id().parse(0), 'input');
    refuse(() => v.id().parse(2 ** 53), 'input');
    refuse(() => v.id().parse('5'), 'input');
  });
});

describe('app API table', () => {
  it('has an input schema for every method that refuses a non-object garbage argument', () => {
    for (const name of APP_METHOD_NAMES) {
      expect(() => APP_METHODS[name].input.parse('garbage')).toThrow(ValidationError);
    }
  });
  it('validates a transfer as the core receives it', () => {
    const t = APP_METHODS.transfer.input.parse({
      sourceId: 1, targetId: -2, amount: '100.10', paymentDate: '2026-11-21T10:00', categoryId: 0, description: 'Rent',
    });
    expect(t).toEqual({ sourceId: 1, targetId: -2, amount: '100.1', paymentDate: '2026-11-21T10:00:00', categoryId: 0, description: 'Rent' });
  });
});
