/** The exact decimal helpers the statistics and reports are built on. */
import { describe, expect, it } from 'vitest';
import { abs, DecimalSum, formatDecimal, multiply, parseDecimal, roundTo, subtract, type Decimal } from '../../src-shared/money';

const d = (s: string): Decimal => parseDecimal(s)!;
const f = formatDecimal;

describe('multiply, subtract, abs', () => {
  it('multiplies exactly, scales adding up', () => {
    expect(f(multiply(d('60.15'), d('25.3')))).toBe('1521.795');
    expect(f(multiply(d('0.1'), d('0.2')))).toBe('0.02');
    expect(f(multiply(d('-1.5'), d('4')))).toBe('-6');
    expect(f(multiply(d('123456789012345678.9'), d('10')))).toBe('1234567890123456789');
  });

  it('subtracts and takes the size', () => {
    expect(f(subtract(d('0.3'), d('0.1')))).toBe('0.2');
    expect(f(subtract(d('1'), d('1.25')))).toBe('-0.25');
    expect(f(abs(d('-120.5')))).toBe('120.5');
    expect(f(abs(d('7')))).toBe('7');
  });
});

describe('roundTo', () => {
  it('rounds half away from zero and keeps the scale', () => {
    expect(f(roundTo(d('1521.795'), 2))).toBe('1521.80');
    expect(f(roundTo(d('-1521.795'), 2))).toBe('-1521.80');
    expect(f(roundTo(d('2.5'), 0))).toBe('3');
    expect(f(roundTo(d('-2.5'), 0))).toBe('-3');
    expect(f(roundTo(d('2.4999'), 0))).toBe('2');
    expect(f(roundTo(d('0.004'), 2))).toBe('0.00');
    expect(f(roundTo(d('7'), 3))).toBe('7.000');
    expect(f(roundTo(d('0.0005'), 3))).toBe('0.001');
  });
});

describe('DecimalSum', () => {
  it('sums exactly across scales where doubles drift', () => {
    const s = new DecimalSum();
    for (const x of ['0.1', '0.2', '0.7', '-0.05', '1e2', '3']) s.add(d(x));
    expect(f(s.value)).toBe('103.95');
    const pair = new DecimalSum();
    pair.add(d('0.1'));
    pair.add(d('0.2'));
    expect(f(pair.value)).toBe('0.3');
    expect(0.1 + 0.2).not.toBe(0.3);
    s.subtract(d('103.95'));
    expect(f(s.value)).toBe('0');
  });

  it('agrees with a plain BigInt sum of minor units over many random amounts', () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const s = new DecimalSum();
    let cents = 0n;
    for (let i = 0; i < 5000; i++) {
      const c = BigInt(Math.floor(random() * 2_000_000) - 1_000_000);
      cents += c;
      s.add({ units: c, scale: 2 });
    }
    expect(s.value).toEqual(parseDecimal(f({ units: cents, scale: 2 })));
  });
});
