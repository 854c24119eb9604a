/** How the service's command line reads its option values (the table's `read`): each refuses a bad one naming the option. */
import { UsageError, type ValueReader } from '../../src-node/cli';
import { KNOWN_CURRENCIES, parseDecimal } from '../../src-shared/money';
import { parseProxyEntry } from '../server/client-address';

/** A whole number within bounds. */
export function wholeNumber(min: number, max: number): ValueReader<number> {
  return (text, what) => {
    if (!/^-?\d{1,16}$/.test(text)) throw new UsageError(`${what} must be a whole number.`);
    const n = Number(text);
    if (n < min || n > max) throw new UsageError(`${what} must be from ${min} to ${max}.`);
    return n;
  };
}

/** An id: a whole number from 1. */
export const idOption = wholeNumber(1, Number.MAX_SAFE_INTEGER);

/** One of a few names or their numeric codes (`read` or `1`). */
export function codeOption(codes: Readonly<Record<string, number>>): ValueReader<number> {
  return (text, what) => {
    const byName = codes[text.toLowerCase()];
    if (byName !== undefined) return byName;
    if (/^\d+$/.test(text) && Object.values(codes).includes(Number(text))) return Number(text);
    const list = Object.entries(codes)
      .map(([name, code]) => `${name} (${code})`)
      .join(', ');
    throw new UsageError(`${what} must be one of ${list}.`);
  };
}

/** An ISO 4217 currency this service knows, by code (EUR) or number (978). */
export function currencyOption(text: string, what: string): number {
  const upper = text.toUpperCase();
  const known = KNOWN_CURRENCIES.find((c) => c.code === upper || String(c.numeric) === text);
  if (!known) throw new UsageError(`${what} ${JSON.stringify(text)} is not an ISO 4217 currency this service knows.`);
  return known.numeric;
}

/** A decimal as text, exact: the number it becomes must show the same decimal again. */
export function amountOption(text: string, what: string): number {
  const d = parseDecimal(text);
  if (!d || /[eE]/.test(text) || d.units.toString().replace('-', '').length > 15) {
    throw new UsageError(`${what} must be a decimal number of at most 15 digits, such as -1520.50.`);
  }
  return Number(text);
}

/** Addresses and CIDR blocks separated by commas (`127.0.0.1,10.0.0.0/8`). */
export function addressList(text: string, what: string): string[] {
  const entries = text.split(',').map((e) => e.trim());
  const bad = entries.find((e) => parseProxyEntry(e) === null);
  if (bad !== undefined) {
    throw new UsageError(`${what}: ${JSON.stringify(bad)} is not an address or a CIDR block (such as 10.0.0.7, 10.0.0.0/8 or fd00::/8).`);
  }
  return entries;
}
