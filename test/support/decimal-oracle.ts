/**
 * The arithmetic of the tests' independent oracles (the insights' figures, the write model's balances):
 * decimal text as a BigInt of fixed scale and back, written here apart from the app's money code
 * (src-shared/money), so that a bug there cannot hide in the expected figures.
 */

/** Twelve decimals: beyond anything the tests' amounts have. */
export const SCALE = 12;

/** Decimal text ("-12.5", "0.01", "7") in units of 10^-SCALE; anything else (an exponent, more places) throws. */
export function units(text: string): bigint {
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text);
  if (!m) throw new Error(`Not decimal text: ${JSON.stringify(text)}`);
  const [, sign, int, frac = ''] = m;
  if (frac.length > SCALE) throw new Error(`More than ${SCALE} decimal places: ${text}`);
  const v = BigInt(int!) * 10n ** BigInt(SCALE) + BigInt(frac.padEnd(SCALE, '0'));
  return sign ? -v : v;
}

export function text(v: bigint): string {
  const negative = v < 0n;
  const digits = (negative ? -v : v).toString().padStart(SCALE + 1, '0');
  const frac = digits.slice(-SCALE).replace(/0+$/, '');
  return `${negative ? '-' : ''}${digits.slice(0, -SCALE)}${frac ? `.${frac}` : ''}`;
}

/** An amount of whole cents as text. */
export const cents = (n: number): string => text(BigInt(n) * 10n ** BigInt(SCALE - 2));
