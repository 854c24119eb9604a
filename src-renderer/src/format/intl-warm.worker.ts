/**
 * Run in a worker at the page's start (format/intl-warm.ts): the page's first Intl object initialises the
 * browser's ICU data for the whole process (20-30 ms on these machines), whichever thread asks first. Asked here,
 * off the page's thread, the page's first number and date formats then cost a fraction of a millisecond.
 */
const sample = new Date(Date.UTC(2026, 0, 31, 12, 0));
for (const locale of ['cs', 'en']) {
  new Intl.NumberFormat(locale, { style: 'currency', currency: 'CZK' }).format(1234.5);
  new Intl.NumberFormat(locale, { maximumFractionDigits: 0 }).format(818432);
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(sample);
  new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(-5, 'minute');
  new Intl.PluralRules(locale).select(3);
}
postMessage('warm');
close();
