/**
 * The arithmetic of the tests' independent oracles: decimal text as a BigInt of fixed scale and back,
 * written here apart from the app's money code, so that a bug there cannot hide in the expected figures.
 */

/** Twelve decimals: beyond anything the tests' amounts have. */
export const SCALE = 12;

export function units(text: string): bigint {
  const negative = text.startsWith('-');
  const [int, frac = ''] = text.replace('-', '').split('.');
  const v = BigInt(int!) * 10n ** BigInt(SCALE) + BigInt((frac + '0'.repeat(SCALE)).slice(0, SCALE));
  return negative ? -v : v;
}

export function text(v: bigint): string {
  const negative = v < 0n;
  const digits = (negative ? -v : v).toString().padStart(SCALE + 1, '0');
  const frac = digits.slice(-SCALE).replace(/0+$/, '');
  return `${negative ? '-' : ''}${digits.slice(0, -SCALE)}${frac ? `.${frac}` : ''}`;
}

/** An amount of whole cents as text. */
export const cents = (n: number): string => text(BigInt(n) * 10n ** BigInt(SCALE - 2));
