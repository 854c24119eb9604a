/**
 * Exact decimal money. The wire carries amounts as doubles; each double is read as the decimal its
 * shortest round-trip text shows (0.1 is 0.1, never 0.1000000000000000055...), and all arithmetic is on
 * scaled BigInts, so sums never drift.
 */

/** A decimal number: `units / 10^scale`. */
export interface Decimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL_TEXT = /^([+-]?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/;

/** Reads decimal text (`-12.50`, `1e-7`, `3E+2`); null when it is not a finite decimal. */
export function parseDecimal(text: string): Decimal | null {
  const m = DECIMAL_TEXT.exec(text.trim());
  if (!m) return null;
  const frac = m[3] ?? '';
  const exp = m[4] ? Number(m[4]) : 0;
  if (Math.abs(exp) > 400) return null;
  let units = BigInt(m[2]! + frac);
  let scale = frac.length - exp;
  if (scale < 0) {
    units *= 10n ** BigInt(-scale);
    scale = 0;
  }
  return normalize({ units: m[1] === '-' ? -units : units, scale });
}

/** The exact decimal a finite double's shortest text stands for. */
export function decimalFromNumber(n: number): Decimal {
  if (!Number.isFinite(n)) throw new RangeError('An amount must be a finite number.');
  return parseDecimal(String(n))!;
}

/** Drops trailing zeros of the fraction: 1.50 -> 1.5, 100 stays 100. */
export function normalize(d: Decimal): Decimal {
  let { units, scale } = d;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale -= 1;
  }
  return { units, scale };
}

function rescale(d: Decimal, scale: number): bigint {
  return d.units * 10n ** BigInt(scale - d.scale);
}

export function add(a: Decimal, b: Decimal): Decimal {
  const scale = Math.max(a.scale, b.scale);
  return normalize({ units: rescale(a, scale) + rescale(b, scale), scale });
}

export function negate(a: Decimal): Decimal {
  return { units: -a.units, scale: a.scale };
}

export function sum(values: Iterable<Decimal>): Decimal {
  let total: Decimal = ZERO;
  for (const v of values) total = add(total, v);
  return total;
}

export function compare(a: Decimal, b: Decimal): -1 | 0 | 1 {
  const scale = Math.max(a.scale, b.scale);
  const x = rescale(a, scale);
  const y = rescale(b, scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

export const ZERO: Decimal = { units: 0n, scale: 0 };

/**
 * a / b rounded half away from zero to `places` decimals, kept at that scale (37.500); null when b is
 * zero. Exact: the division is on scaled BigInts.
 */
export function divideRounded(a: Decimal, b: Decimal, places: number): Decimal | null {
  if (b.units === 0n) return null;
  // (a.units / 10^a.scale) / (b.units / 10^b.scale), scaled by 10^places.
  let num = a.units * 10n ** BigInt(b.scale + places);
  let den = b.units * 10n ** BigInt(a.scale);
  if (den < 0n) {
    num = -num;
    den = -den;
  }
  return { units: quotientRounded(num, den), scale: places };
}

/** num / den (den > 0) rounded half away from zero to a whole number. */
function quotientRounded(num: bigint, den: bigint): bigint {
  const magnitude = num < 0n ? -num : num;
  const q = (magnitude * 2n + den) / (2n * den);
  return num < 0n ? -q : q;
}

/** Plain decimal text without exponent: `-1520.5`, `0.07`, `12`. */
export function formatDecimal(d: Decimal): string {
  const negative = d.units < 0n;
  const digits = (negative ? -d.units : d.units).toString().padStart(d.scale + 1, '0');
  const int = digits.slice(0, digits.length - d.scale);
  const frac = digits.slice(digits.length - d.scale);
  return (negative ? '-' : '') + int + (frac ? `.${frac}` : '');
}

/** The double nearest to the decimal (what goes on the wire); exact text round-trips through it. */
export function toNumber(d: Decimal): number {
  return Number(formatDecimal(d));
}

/** Digits after the decimal point that the value needs. */
export function decimalPlaces(d: Decimal): number {
  return normalize(d).scale;
}

/**
 * The value in minor units of a currency with `digits` decimals, or null when it has more decimals than
 * the currency allows (the service refuses such an amount rather than rounding it).
 */
export function toMinorUnits(d: Decimal, digits: number): bigint | null {
  const n = normalize(d);
  if (n.scale > digits) return null;
  return rescale(n, digits);
}

export function fromMinorUnits(minor: bigint | number, digits: number): Decimal {
  return normalize({ units: BigInt(minor), scale: digits });
}

export function subtract(a: Decimal, b: Decimal): Decimal {
  return add(a, negate(b));
}

export function abs(a: Decimal): Decimal {
  return a.units < 0n ? negate(a) : a;
}

/** a × b, exact (the scales add up). */
export function multiply(a: Decimal, b: Decimal): Decimal {
  return normalize({ units: a.units * b.units, scale: a.scale + b.scale });
}

/** The value rounded half away from zero to `places` decimals, kept at that scale (2.50). */
export function roundTo(d: Decimal, places: number): Decimal {
  if (d.scale <= places) return { units: rescale(d, places), scale: places };
  return { units: quotientRounded(d.units, 10n ** BigInt(d.scale - places)), scale: places };
}
