/** Currency choices for pickers: the common ones first, then the rest of ISO 4217 by code, named as currencyChoiceLabel does. */
import { KNOWN_CURRENCIES } from '../../../src-shared/money';
import { currencyChoiceLabel, type Locale } from '../format/amount';

const FIRST = [203, 978, 840, 826, 985];

// ISO codes are three capital letters: compared as they are. (localeCompare would load the collator while the app opens,
// 12-20 ms of the opening's script: this module comes with the accounts screen.)
const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const ORDERED = [...KNOWN_CURRENCIES].sort(
  (a, b) => (FIRST.indexOf(a.numeric) + 1 || 99) - (FIRST.indexOf(b.numeric) + 1 || 99) || byCode(a.code, b.code),
);

const byLocale = new Map<Locale, readonly { code: number; label: string }[]>();

/** The choices in a language: "Kč (CZK)" first in Czech, "CZK" in English. */
export function currencyOptions(locale: Locale): readonly { code: number; label: string }[] {
  let options = byLocale.get(locale);
  if (!options) byLocale.set(locale, (options = ORDERED.map((c) => ({ code: c.numeric, label: currencyChoiceLabel(c.numeric, locale) }))));
  return options;
}
