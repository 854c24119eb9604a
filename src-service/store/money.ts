/**
 * Money at the service's edge: wire doubles in, integer minor units stored, doubles out.
 *
 * An amount is read as the decimal its shortest text shows (0.1 is 0.1) and refused when it has more
 * decimals than the currency's ISO 4217 digits, never rounded. Amounts and balances are limited to 15
 * significant digits, because every decimal of up to 15 digits survives the trip through a double and
 * back exactly; within that limit the stored integers add up exactly in SQLite and in JS.
 */
import { currencyDigits, currencyLabel, decimalFromNumber, toMinorUnits } from '../../src-shared/money';
import { RuleError } from '../errors';

export const MAX_MINOR = 999_999_999_999_999;

const SCALE = [1, 10, 100, 1000, 10_000];

/** An amount in the currency's minor units; a RuleError names `subject` when it cannot be kept exactly. */
export function amountToMinor(amount: number, currency: number, subject: string): number {
  if (!Number.isFinite(amount)) throw new RuleError(`${subject} must be a finite number.`);
  const digits = currencyDigits(currency);
  const minor = toMinorUnits(decimalFromNumber(amount), digits);
  if (minor === null) {
    throw new RuleError(`${subject} ${String(amount)} has more decimal places than ${currencyLabel(currency)} allows (${digits}).`);
  }
  if (minor > BigInt(MAX_MINOR) || minor < -BigInt(MAX_MINOR)) {
    throw new RuleError(`${subject} is larger than the service keeps (15 significant digits).`);
  }
  return Number(minor);
}

/**
 * The double for an amount in minor units. Dividing two exactly representable integers is correctly
 * rounded, so this is the double nearest to the decimal, the same one `toNumber(fromMinorUnits(...))`
 * gives, without BigInt work on the hot path of the lists.
 */
export function minorToAmount(minor: number, currency: number): number {
  const digits = currencyDigits(currency);
  return digits === 0 ? minor : minor / (SCALE[digits] ?? 10 ** digits);
}
