/** Counts as the screens show them: grouped as the language groups thousands ("818,432", "818 432"). */
import type { Locale } from './amount';

const formats = new Map<string, Intl.NumberFormat>();

function countFormat(locale: Locale): Intl.NumberFormat {
  let f = formats.get(locale);
  if (!f) formats.set(locale, (f = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 })));
  return f;
}

/** A whole number (a count of records, rows, days) in the language's digits and grouping. */
export function formatCount(n: number, locale: Locale): string {
  return countFormat(locale).format(n).replace('-', '\u2212');
}

/**
 * Makes the language's count format before its first use, in a task of its own: where the opening's worker could
 * not make the first Intl objects (format/intl-warm.ts), the page's first number format initialises ICU (20-30 ms),
 * which would otherwise fall into the task that draws the first screen's rows; after the worker it costs ~0.1 ms.
 */
export function prepareCountFormat(locale: Locale): void {
  countFormat(locale);
}
