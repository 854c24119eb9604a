/**
 * Amounts as whole ten-thousandths, so that SQLite can sum them exactly: SUM over INTEGER is exact
 * (it fails on overflow rather than rounding), SUM over the decimal TEXT would go through doubles.
 * Every currency has at most 4 decimals, so every amount the service accepts fits; an amount that does
 * not (more decimals, or beyond ±10^14, which only a foreign service could send) keeps NULL units and
 * is summed from its text in code (see transaction-sums.ts).
 */
import type Database from 'better-sqlite3';
import { abs, compare, formatDecimal, normalize, parseDecimal, ZERO, type Decimal } from '../../../src-shared/money';

export const AMOUNT_SCALE = 4;
/** |units| below 10^18: one row always fits in SQLite's 64-bit INTEGER. */
const LIMIT = 10n ** 18n;

/** The amount in ten-thousandths, or null when it has more than 4 decimals or is too large. */
export function amountUnits(text: string): bigint | null {
  const d = parseDecimal(text);
  if (!d) return null;
  const n = normalize(d);
  if (n.scale > AMOUNT_SCALE) return null;
  const units = n.units * 10n ** BigInt(AMOUNT_SCALE - n.scale);
  return units < LIMIT && units > -LIMIT ? units : null;
}

/** Ten-thousandths as a decimal (not normalized: sums add it as it is, and text normalizes). */
export function unitsDecimal(units: bigint): Decimal {
  return { units, scale: AMOUNT_SCALE };
}

/** The smallest number of ten-thousandths that is not below `d` (a bound on amounts that have units). */
function ceilUnits(d: Decimal): bigint {
  const shift = AMOUNT_SCALE - d.scale;
  if (shift >= 0) return d.units * 10n ** BigInt(shift);
  const div = 10n ** BigInt(-shift);
  const q = d.units / div;
  return d.units > q * div ? q + 1n : q;
}

/** The largest number of ten-thousandths that is not above `d`. */
function floorUnits(d: Decimal): bigint {
  return -ceilUnits({ units: -d.units, scale: d.scale });
}

/** Bounds on an amount's size (inclusive, whichever its sign) and its direction: 'in' positive, 'out' negative. */
export interface AmountBounds {
  min: Decimal | null;
  max: Decimal | null;
  direction: 'in' | 'out' | null;
}

/** Whether an amount (decimal text) is within the bounds, exactly. */
export function amountWithin(text: string, b: AmountBounds): boolean {
  const amount = parseDecimal(text) ?? ZERO;
  if (b.direction === 'in' && amount.units <= 0n) return false;
  if (b.direction === 'out' && amount.units >= 0n) return false;
  const size = abs(amount);
  return (b.min === null || compare(size, b.min) >= 0) && (b.max === null || compare(size, b.max) <= 0);
}

/** SQL functions registered on every store connection: the units of an amount, and the bound check for the rare amounts without units. */
export const AMOUNT_UNITS = 'bookkeeping_amount_units';
export const AMOUNT_WITHIN = 'bookkeeping_amount_within';

export function registerAmountFunctions(db: Database.Database): void {
  db.function(AMOUNT_UNITS, { deterministic: true, safeIntegers: true }, (amount: unknown) => amountUnits(String(amount)));
  db.function(AMOUNT_WITHIN, { deterministic: true }, (amount: unknown, bounds: unknown) => {
    const b = JSON.parse(String(bounds)) as { min: string | null; max: string | null; direction: AmountBounds['direction'] };
    return amountWithin(String(amount), {
      min: b.min === null ? null : parseDecimal(b.min),
      max: b.max === null ? null : parseDecimal(b.max),
      direction: b.direction,
    })
      ? 1
      : 0;
  });
}

/**
 * The bounds as SQL over `transactions`: on the integer units (indexed; exact, since whole units compare
 * with the bounds rounded inwards exactly as the amounts do), and for a row without units by its text.
 */
export function amountCondition(b: AmountBounds): { sql: string; params: Record<string, unknown> } {
  const low = b.min === null ? 0n : ceilUnits(b.min);
  const high = b.max === null ? LIMIT : floorUnits(b.max);
  const units =
    b.direction === 'in'
      ? 'amount_units > 0 AND amount_units BETWEEN @amountLow AND @amountHigh'
      : b.direction === 'out'
        ? 'amount_units < 0 AND amount_units BETWEEN -@amountHigh AND -@amountLow'
        : '(amount_units BETWEEN @amountLow AND @amountHigh OR amount_units BETWEEN -@amountHigh AND -@amountLow)';
  const text = JSON.stringify({ min: b.min && formatDecimal(b.min), max: b.max && formatDecimal(b.max), direction: b.direction });
  return {
    sql: `(CASE WHEN amount_units IS NULL THEN ${AMOUNT_WITHIN}(amount, @amountBounds) ELSE ${units} END)`,
    params: { amountLow: low, amountHigh: high, amountBounds: text },
  };
}
