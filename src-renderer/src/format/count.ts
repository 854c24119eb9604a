/** Counts as the screens show them: grouped as the language groups thousands ("818,432", "818 432"). */
import type { Locale } from './amount';

const formats = new Map<string, Intl.NumberFormat>();

/** A whole number (a count of records, rows, days) in the language's digits and grouping. */
export function formatCount(n: number, locale: Locale): string {
  let f = formats.get(locale);
  if (!f) formats.set(locale, (f = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 })));
  return f.format(n).replace('-', '\u2212');
}
