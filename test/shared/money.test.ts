import { describe, expect, it } from 'vitest';
import {
  add,
  compare,
  currencyDigits,
  currencyLabel,
  decimalFromNumber,
  divideRounded,
  formatDecimal,
  fromMinorUnits,
  parseDecimal,
  sum,
  toMinorUnits,
  toNumber,
} from '../../src-shared/money';

const d = (s: string) => parseDecimal(s)!;

describe('exact decimals', () => {
  it('reads a double as the decimal its shortest text shows', () => {
    expect(formatDecimal(decimalFromNumber(0.1))).toBe('0.1');
    expect(formatDecimal(decimalFromNumber(1e-7))).toBe('0.0000001');
    expect(formatDecimal(decimalFromNumber(1e21))).toBe('1000000000000000000000');
    expect(formatDecimal(decimalFromNumber(-1520.5))).toBe('-1520.5');
    expect(() => decimalFromNumber(NaN)).toThrow(RangeError);
  });
  it('adds without drift where doubles drift', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(formatDecimal(add(decimalFromNumber(0.1), decimalFromNumber(0.2)))).toBe('0.3');
    const tenThousandDimes = sum(Array.from({ length: 10_000 }, () => d('0.1')));
    expect(formatDecimal(tenThousandDimes)).toBe('1000');
    expect(toNumber(sum([d('-0.07'), d('0.01'), d('0.06')]))).toBe(0);
  });
  it('compares and formats', () => {
    expect(compare(d('1.50'), d('1.5'))).toBe(0);
    expect(compare(d('-2'), d('1'))).toBe(-1);
    expect(formatDecimal(d('-0.05'))).toBe('-0.05');
    expect(parseDecimal('1,5')).toBeNull();
  });
  it('converts to minor units only when no decimal would be lost', () => {
    expect(toMinorUnits(d('12.34'), 2)).toBe(1234n);
    expect(toMinorUnits(d('12.345'), 2)).toBeNull();
    expect(toMinorUnits(d('12.3400'), 2)).toBe(1234n);
    expect(toMinorUnits(d('5'), 0)).toBe(5n);
    expect(formatDecimal(fromMinorUnits(-1234n, 2))).toBe('-12.34');
    expect(toNumber(fromMinorUnits(30, 2))).toBe(0.3);
  });
});

describe('currencies', () => {
  it('labels ISO 4217 codes and unknown ones', () => {
    expect(currencyLabel(203)).toBe('CZK');
    expect(currencyLabel(978)).toBe('EUR');
    expect(currencyLabel(999)).toBe('#999');
    expect(currencyDigits(392)).toBe(0);
    expect(currencyDigits(999)).toBe(2);
  });
});

describe('divideRounded', () => {
  it('divides exactly and rounds half away from zero at the given scale', () => {
    const q = (a: string, b: string, places: number) => {
      const r = divideRounded(d(a), d(b), places);
      return r === null ? null : formatDecimal(r);
    };
    expect(q('1500', '40', 3)).toBe('37.500');
    expect(q('2', '3', 3)).toBe('0.667');
    expect(q('1', '8', 2)).toBe('0.13');
    expect(q('-1', '8', 2)).toBe('-0.13');
    expect(q('1', '-8', 2)).toBe('-0.13');
    expect(q('0.1', '0.3', 4)).toBe('0.3333');
    expect(q('5', '0', 3)).toBeNull();
  });
});
