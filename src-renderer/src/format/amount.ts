/**
 * Amounts as the screens show and accept them. Money travels as canonical decimal text ("-1520.5");
 * these helpers format it with Intl (which formats decimal strings exactly, never through a float)
 * and read what a person types, in Czech ("1 234,50") or English ("1,234.50") habits.
 */
import { currencyDigits, currencyInfo, divideRounded, formatDecimal, normalize, parseDecimal } from '../../../src-shared/money';

export type Locale = 'cs' | 'en';

export type AmountParse = { ok: true; value: string } | { ok: false; reason: AmountProblem };
export type AmountProblem = 'empty' | 'invalid' | 'too-many-decimals';

/** Spaces of every kind and apostrophes people use to group thousands. */
const GROUPING_SPACES = /[\s\u00a0\u202f\u2009'’]/g;
const MINUS_SIGNS = /^[-\u2212\u2013]/;

function groupsOfThree(groups: string[]): boolean {
  return groups.length > 1 && /^\d{1,3}$/.test(groups[0]!) && groups.slice(1).every((g) => /^\d{3}$/.test(g));
}

/**
 * Reads an amount a person typed. Rules: white space and apostrophes group thousands; when both "," and
 * "." occur the last one is the decimal mark; several of the same mark are grouping; one "," is the
 * decimal mark except in English where ",ddd" groups thousands; one "." is always the decimal mark.
 * `maxDigits` refuses more decimals than the currency has (the service would refuse them too).
 */
export function parseAmountInput(text: string, locale: Locale, maxDigits?: number): AmountParse {
  let s = text.replace(GROUPING_SPACES, '');
  if (s === '') return { ok: false, reason: 'empty' };
  let sign = '';
  if (MINUS_SIGNS.test(s)) {
    sign = '-';
    s = s.slice(1);
  } else if (s.startsWith('+')) s = s.slice(1);
  if (!/^[\d.,]+$/.test(s) || !/\d/.test(s)) return { ok: false, reason: 'invalid' };

  const lastComma = s.lastIndexOf(',');
  const lastDot = s.lastIndexOf('.');
  let intPart: string;
  let frac = '';
  if (lastComma >= 0 && lastDot >= 0) {
    const mark = lastComma > lastDot ? ',' : '.';
    const group = mark === ',' ? '.' : ',';
    const at = s.lastIndexOf(mark);
    intPart = s.slice(0, at);
    frac = s.slice(at + 1);
    if (intPart.includes(mark) || !groupsOfThree(intPart.split(group))) return { ok: false, reason: 'invalid' };
    intPart = intPart.split(group).join('');
  } else if (lastComma >= 0 || lastDot >= 0) {
    const mark = lastComma >= 0 ? ',' : '.';
    const parts = s.split(mark);
    const groupsThousands = parts.length > 2 || (mark === ',' && locale === 'en' && parts.length === 2 && groupsOfThree(parts));
    if (groupsThousands) {
      if (!groupsOfThree(parts)) return { ok: false, reason: 'invalid' };
      intPart = parts.join('');
    } else {
      intPart = parts[0]!;
      frac = parts[1]!;
    }
  } else {
    intPart = s;
  }
  if (!/^\d*$/.test(intPart) || !/^\d*$/.test(frac) || intPart + frac === '') return { ok: false, reason: 'invalid' };
  const decimal = parseDecimal(`${sign}${intPart || '0'}${frac ? `.${frac}` : ''}`);
  if (!decimal) return { ok: false, reason: 'invalid' };
  if (maxDigits !== undefined && decimal.scale > maxDigits) return { ok: false, reason: 'too-many-decimals' };
  // "-0" is zero.
  return { ok: true, value: decimal.units === 0n ? '0' : formatDecimal(decimal) };
}

/** -1, 0 or 1 for canonical decimal text (0 for text that is not a number). */
export function signOf(amount: string): -1 | 0 | 1 {
  const d = parseDecimal(amount);
  if (!d || d.units === 0n) return 0;
  return d.units < 0n ? -1 : 1;
}

export function negateAmount(amount: string): string {
  const d = parseDecimal(amount);
  if (!d) return amount;
  return d.units === 0n ? '0' : formatDecimal({ units: -d.units, scale: d.scale });
}

export function absAmount(amount: string): string {
  return signOf(amount) < 0 ? negateAmount(amount) : amount;
}

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(
  locale: string,
  minDigits: number,
  maxDigits: number,
  signDisplay: 'auto' | 'exceptZero',
  grouping: boolean,
): Intl.NumberFormat {
  const key = `${locale}|${minDigits}|${maxDigits}|${signDisplay}|${grouping}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, {
      minimumFractionDigits: minDigits,
      maximumFractionDigits: maxDigits,
      signDisplay,
      useGrouping: grouping,
    });
    numberFormats.set(key, f);
  }
  return f;
}

export interface FormatOptions {
  /** Show "+" on positive amounts (transactions), not on balances. */
  signed?: boolean;
  /** Decimals to show; the currency's minor digits when a currency is given, else as many as the value has. */
  digits?: number;
  grouping?: boolean;
}

/**
 * Decimal text formatted for a locale, exactly: `-1234.5` with CZK -> "−1 234,50". Never shows fewer
 * decimals than the value has (a value is never rounded for display). Minus is the typographic U+2212.
 */
export function formatAmount(amount: string, locale: Locale, currency: number | null, options: FormatOptions = {}): string {
  const d = parseDecimal(amount);
  if (!d) return amount;
  const want = options.digits ?? (currency === null ? d.scale : currencyDigits(currency));
  const digits = Math.max(want, d.scale);
  const text = numberFormat(locale, digits, digits, options.signed ? 'exceptZero' : 'auto', options.grouping ?? true).format(
    formatDecimal(d) as `${number}`,
  );
  return text.replace('-', '\u2212');
}

/** A piece of an amount as the locale writes it with its currency: the currency's sign, or the rest. */
export interface MoneyPart {
  text: string;
  currency: boolean;
}

const currencyFormats = new Map<string, Intl.NumberFormat>();
function currencyFormat(
  locale: Locale,
  code: string,
  minDigits: number,
  maxDigits: number,
  signDisplay: 'auto' | 'exceptZero',
): Intl.NumberFormat {
  const key = `${locale}|${code}|${minDigits}|${maxDigits}|${signDisplay}`;
  let f = currencyFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: code,
      currencyDisplay: 'symbol',
      minimumFractionDigits: minDigits,
      maximumFractionDigits: maxDigits,
      signDisplay,
    });
    currencyFormats.set(key, f);
  }
  return f;
}

/** Intl's parts of a decimal text in a currency, merged into the currency's sign and the rest (minus as U+2212). */
function partsOf(f: Intl.NumberFormat, decimal: string): MoneyPart[] {
  const out: MoneyPart[] = [];
  for (const p of f.formatToParts(decimal as `${number}`)) {
    const currency = p.type === 'currency';
    const text = p.type === 'minusSign' ? '\u2212' : p.value;
    const last = out.at(-1);
    if (last && !last.currency && !currency) last.text += text;
    else out.push({ text, currency });
  }
  return out;
}

/**
 * An amount with its currency as the locale writes it, exactly (never rounded, as formatAmount):
 * "1 234,50 Kč" in Czech, "CZK 1,234.50" and "€12.00" in English. A currency the app does not know
 * follows the number as "#123"; without a currency, the number alone.
 */
export function moneyParts(amount: string, locale: Locale, currency: number | null, options: FormatOptions = {}): MoneyPart[] {
  const info = currency === null ? undefined : currencyInfo(currency);
  const d = parseDecimal(amount);
  if (!info || !d) {
    const text = formatAmount(amount, locale, currency, options);
    return currency === null
      ? [{ text, currency: false }]
      : [
          { text: `${text}\u00a0`, currency: false },
          { text: `#${currency}`, currency: true },
        ];
  }
  const digits = Math.max(options.digits ?? info.digits, d.scale);
  return partsOf(currencyFormat(locale, info.code, digits, digits, options.signed ? 'exceptZero' : 'auto'), formatDecimal(d));
}

/** moneyParts as one text. */
export function formatMoney(amount: string, locale: Locale, currency: number | null, options: FormatOptions = {}): string {
  return moneyParts(amount, locale, currency, options)
    .map((p) => p.text)
    .join('');
}

/** A measured price (per litre) in a currency, rounded to `minDigits`..`maxDigits` decimals: "40,00 Kč", "CZK 40.00". */
export function formatMoneyQuantity(value: string, locale: Locale, currency: number, minDigits: number, maxDigits: number): string {
  const info = currencyInfo(currency);
  const d = parseDecimal(value);
  if (!info || !d) return `${formatQuantity(value, locale, minDigits, maxDigits)}\u00a0#${currency}`;
  return partsOf(currencyFormat(locale, info.code, minDigits, maxDigits, 'auto'), formatDecimal(d))
    .map((p) => p.text)
    .join('');
}

/**
 * How the screens name a currency, the one rule: its sign as the locale writes it beside amounts, the ISO code where
 * the locale has no sign of its own: "Kč" in Czech, "CZK" in English, "€" in both; "#123" for a code the app does not
 * know. Amounts (moneyParts) show the same sign; where a currency is chosen, currencyChoiceLabel adds its code.
 */
export function currencySymbol(currency: number, locale: Locale): string {
  const info = currencyInfo(currency);
  if (!info) return `#${currency}`;
  return partsOf(currencyFormat(locale, info.code, 0, 0, 'auto'), '0').find((p) => p.currency)?.text ?? info.code;
}

/** A currency among choices (a select): its sign with its ISO code, "Kč (CZK)", "€ (EUR)"; the code alone where it is the sign ("CZK" in English). */
export function currencyChoiceLabel(currency: number, locale: Locale): string {
  const info = currencyInfo(currency);
  const symbol = currencySymbol(currency, locale);
  return !info || symbol === info.code ? symbol : `${symbol} (${info.code})`;
}

/**
 * A measured quantity (litres, price per litre) for display, rounded to at most `maxDigits` decimals.
 * Only for values that are not money balances: those are never rounded (formatAmount).
 */
export function formatQuantity(value: string, locale: Locale, minDigits: number, maxDigits: number): string {
  const d = parseDecimal(value);
  if (!d) return value;
  return numberFormat(locale, minDigits, maxDigits, 'auto', true)
    .format(formatDecimal(d) as `${number}`)
    .replace('-', '\u2212');
}

/** The text an amount input starts with when editing: no grouping, the locale's decimal mark. */
export function amountForInput(amount: string, locale: Locale, currency: number | null): string {
  return formatAmount(amount, locale, currency, { grouping: false }).replace('\u2212', '-');
}

/** dividend / divisor rounded half away from zero to `places` decimals, as canonical text; null when the divisor is zero. */
export function divideDecimal(dividend: string, divisor: string, places: number): string | null {
  const a = parseDecimal(dividend);
  const b = parseDecimal(divisor);
  const q = a && b ? divideRounded(a, b, places) : null;
  return q === null ? null : formatDecimal(normalize(q));
}

/** A distance in whole kilometres: "12,345 km", "12 345 km". */
export function formatKilometres(km: number, locale: Locale): string {
  // A kept formatter: toLocaleString makes one per call, which a table of 600 fills feels.
  return `${numberFormat(locale, 0, 0, 'auto', true).format(km)} km`;
}

/** A file's size: "512 B", "1.4 MB" (decimal units, as file managers show them). */
export function formatBytes(bytes: number, locale: Locale): string {
  // Intl spells a byte out ("512 byte"); the larger units it abbreviates.
  if (bytes < 1000) return `${bytes.toLocaleString(locale)} B`;
  const units = ['kilobyte', 'megabyte', 'gigabyte'] as const;
  let value = bytes / 1000;
  let i = 0;
  while (value >= 1000 && i < units.length - 1) {
    value /= 1000;
    i++;
  }
  return new Intl.NumberFormat(locale, { style: 'unit', unit: units[i], unitDisplay: 'short', maximumFractionDigits: 1 }).format(value);
}
