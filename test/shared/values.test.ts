import { describe, expect, it } from 'vitest';
import { WireError, readBoolean, readDateTime, readDouble, readLong, wallToInstant, writeDouble, writeValue } from '../../src-shared/wire';

describe('long', () => {
  it('reads exactly, with sign, spaces and leading zeros', () => {
    expect(readLong(' 0042 ', 'x')).toBe(42);
    expect(readLong('-9007199254740991', 'x')).toBe(-9007199254740991);
    expect(readLong('+7', 'x')).toBe(7);
  });
  it('refuses what a JS number cannot hold exactly instead of rounding it', () => {
    expect(() => readLong('9007199254740993', 'AccountId')).toThrow(/AccountId.*2\^53/);
    expect(() => readLong('9223372036854775807', 'Id')).toThrow(WireError);
    expect(() => readLong('9223372036854775808', 'Id')).toThrow(/64-bit/);
  });
  it('refuses non-integers', () => {
    for (const bad of ['', '1.0', '1e3', '0x10', 'abc', '- 1', '１']) expect(() => readLong(bad, 'Id')).toThrow(/Id must be a long/);
  });
  it('writes only safe integers', () => {
    expect(writeValue('long', 5, 'Id')).toBe('5');
    expect(() => writeValue('long', 2 ** 53, 'Id')).toThrow(WireError);
    expect(() => writeValue('long', 1.5, 'Id')).toThrow(WireError);
  });
});

describe('double', () => {
  it('writes the shortest round-trip text', () => {
    expect(writeDouble(1520.5)).toBe('1520.5');
    expect(writeDouble(0.1 + 0.2)).toBe('0.30000000000000004');
    expect(writeDouble(1e21)).toBe('1E+21');
    expect(writeDouble(-0)).toBe('-0');
    expect([Infinity, -Infinity, NaN].map(writeDouble)).toEqual(['INF', '-INF', 'NaN']);
  });
  it('reads XML Schema spellings', () => {
    expect(readDouble('1520.50', 'x')).toBe(1520.5);
    expect(readDouble('.5', 'x')).toBe(0.5);
    expect(readDouble('1E-7', 'x')).toBe(1e-7);
    expect(readDouble('INF', 'x')).toBe(Infinity);
    expect(readDouble('-INF', 'x')).toBe(-Infinity);
    expect(readDouble('NaN', 'x')).toBeNaN();
  });
  it('round-trips every double through its text', () => {
    for (const n of [0.1, 1 / 3, 2 ** -1074, Number.MAX_VALUE, 123456.789, -98765.4321]) {
      expect(readDouble(writeDouble(n), 'x')).toBe(n);
    }
  });
  it('refuses other text', () => {
    for (const bad of ['', '1,5', 'Infinity', 'inf', '0x1', '1.2.3', '5 kg']) {
      expect(() => readDouble(bad, 'Amount')).toThrow(/Amount must be a number/);
    }
  });
});

describe('boolean', () => {
  it('reads true/false/1/0', () => {
    expect(['true', 'false', '1', '0', ' true '].map((t) => readBoolean(t, 'x'))).toEqual([true, false, true, false, true]);
  });
  it('refuses anything else', () => {
    for (const bad of ['True', 'yes', '', '2']) expect(() => readBoolean(bad, 'IsActive')).toThrow(/IsActive must be a boolean/);
  });
});

describe('dateTime', () => {
  const zone = 'Europe/Prague';
  it('takes input without an offset as is, fractions kept to milliseconds', () => {
    expect(readDateTime('2026-11-21T14:05:00', zone)).toBe('2026-11-21T14:05:00');
    expect(readDateTime('2026-11-21T14:05:00.1234567', zone)).toBe('2026-11-21T14:05:00.123');
    expect(readDateTime('2026-11-21T14:05:00.000', zone)).toBe('2026-11-21T14:05:00');
    expect(readDateTime('2026-11-21T14:05:00.9999', zone)).toBe('2026-11-21T14:05:00.999');
  });
  it('converts input with an offset or Z into the zone', () => {
    expect(readDateTime('2026-11-21T13:05:00Z', zone)).toBe('2026-11-21T14:05:00');
    expect(readDateTime('2026-07-21T13:05:00+00:00', zone)).toBe('2026-07-21T15:05:00');
    expect(readDateTime('2026-11-21T23:30:00-05:00', zone)).toBe('2026-11-22T05:30:00');
    expect(readDateTime('2026-11-21T14:05:00.5+01:00', 'UTC')).toBe('2026-11-21T13:05:00.5');
  });
  it('refuses impossible dates', () => {
    for (const bad of [
      '2026-02-29T00:00:00',
      '2026-13-01T00:00:00',
      '2026-11-21T24:00:00',
      '2026-11-21',
      '21.11.2026 14:05',
      '2026-11-21T14:05:00+15:00',
    ]) {
      expect(readDateTime(bad, zone)).toBeNull();
    }
  });
  it('finds the instant of a wall clock in a zone', () => {
    expect(new Date(wallToInstant('2026-11-21T14:05:00', zone)).toISOString()).toBe('2026-11-21T13:05:00.000Z');
    expect(new Date(wallToInstant('2026-07-21T14:05:00', zone)).toISOString()).toBe('2026-07-21T12:05:00.000Z');
  });
  it('writes only canonical wall-clock values', () => {
    expect(writeValue('dateTime', '2026-11-21T14:05:00.5', 'd')).toBe('2026-11-21T14:05:00.5');
    expect(() => writeValue('dateTime', '2026-11-21T14:05:00Z', 'd')).toThrow(WireError);
  });
});
