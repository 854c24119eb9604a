/** Figures as the statistics and reports write them out, in the user's language, exactly as computed. */
import { useI18n } from 'vue-i18n';
import { formatKilometres, formatMoney, formatMoneyQuantity, formatQuantity } from '../format/amount';
import { useLocale } from './locale';

export function useFigures() {
  const locale = useLocale();
  const { t } = useI18n();
  const compact = new Map<string, Intl.NumberFormat>();
  return {
    money: (amount: string, currency: number) => formatMoney(amount, locale.value, currency),
    litres: (value: string) => `${formatQuantity(value, locale.value, 2, 3)} l`,
    consumption: (value: string) => t('fuel.perHundred', { value: formatQuantity(value, locale.value, 2, 2) }),
    pricePerLiter: (value: string, currency: number) => `${formatMoneyQuantity(value, locale.value, currency, 2, 3)}/l`,
    km: (n: number) => formatKilometres(n, locale.value),
    /** An axis tick: short ("12K", "12 tis.") — the exact figures are in the table beside the chart. */
    tick: (n: number) => {
      const key = locale.value;
      let f = compact.get(key);
      if (!f) compact.set(key, (f = new Intl.NumberFormat(key, { notation: 'compact', maximumFractionDigits: 1 })));
      return f.format(n).replace('-', '\u2212');
    },
  };
}
