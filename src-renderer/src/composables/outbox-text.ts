/** Outbox entries in words: what the write does, with names instead of ids. */
import { useI18n } from 'vue-i18n';
import type { OutboxEntryView, OutboxKind, WriteInputs } from '../../../src-shared/app-api';
import { currencySymbol, formatMoney, formatQuantity } from '../format/amount';
import { formatWall } from '../format/datetime';
import { blockerOf } from '../logic/outbox';
import { useAccountsStore } from '../stores/accounts';
import { useCarsStore } from '../stores/cars';
import { useCategoriesStore } from '../stores/categories';
import { useLabels } from './labels';
import { useLocale } from './locale';

export function useOutboxText() {
  const { t } = useI18n();
  const locale = useLocale();
  const labels = useLabels();
  const accounts = useAccountsStore();
  const categories = useCategoriesStore();
  const cars = useCarsStore();

  const accountName = (id: number) => accounts.nameOf(id);
  const categoryName = (id: number) => categories.label(id);
  const money = (amount: string, currency: number) => formatMoney(amount, locale.value, currency);

  function refueling(i: WriteInputs['addRefueling']): string {
    return [
      cars.carName(i.carId),
      formatWall(i.dateOfPurchase, locale.value),
      `${i.tachometer.toLocaleString(locale.value)} km`,
      `${formatQuantity(i.liter, locale.value, 2, 3)} l`,
      money(i.price, i.currency),
    ].join(' · ');
  }

  /** Each kind of write in words: one entry per kind, checked by the compiler. */
  const describers: { [K in OutboxKind]: (i: WriteInputs[K]) => string } = {
    addAccount: (i) => `${i.name} · ${labels.accountType(i.type)} · ${currencySymbol(i.currency, locale.value)}`,
    editAccount: (i) => `${i.name} · ${labels.accountType(i.type)}`,
    transfer(i) {
      const currency = accounts.byId.get(i.sourceId)?.currency ?? null;
      const amount = currency === null ? i.amount : money(i.amount, currency);
      const parts = [
        t('outbox.transferText', { amount, from: accountName(i.sourceId), to: accountName(i.targetId) }),
        formatWall(i.paymentDate, locale.value),
      ];
      if (i.description) parts.push(i.description);
      return parts.join(' · ');
    },
    addCategory: (i) =>
      i.parentId === 0
        ? t('outbox.categoryTopText', { name: i.name })
        : t('outbox.categoryText', { name: i.name, parent: categoryName(i.parentId) }),
    renameCategory: (i) => t('outbox.renameText', { name: i.name }),
    addRefueling: refueling,
    editRefueling: refueling,
  };

  const describe = (entry: OutboxEntryView): string => (describers[entry.kind] as (i: WriteInputs[OutboxKind]) => string)(entry.input);

  const title = (entry: OutboxEntryView) => t(`outbox.kinds.${entry.kind}`);

  /**
   * Why an entry is in its state. A refusal is told in the service's own words; the other states are
   * the app's and are told in the user's language (the core's note on them is English).
   */
  function state(entry: OutboxEntryView, entries: readonly OutboxEntryView[]): string {
    if (entry.status === 'refused') return entry.message ?? t('outbox.statusHint.refused');
    if (entry.status !== 'blocked') return t(`outbox.statusHint.${entry.status}`);
    const blocker = blockerOf(entries, entry.id);
    return blocker ? t('outbox.blockedBy', { what: `${title(blocker)}: ${describe(blocker)}` }) : t('outbox.blockedMissing');
  }

  /** A value of a conflicting field as the screens show it (labels, money, dates), not as stored. */
  function fieldValue(entry: OutboxEntryView, field: string, value: string | number | boolean): string {
    if (typeof value === 'boolean') return value ? t('common.yes') : t('common.no');
    if (value === '') return '—';
    const refueling = entry.input as WriteInputs['addRefueling'];
    switch (`${entry.kind}.${field}`) {
      case 'editAccount.type':
        return labels.accountType(Number(value));
      case 'editRefueling.carId':
        return cars.carName(Number(value));
      case 'editRefueling.dateOfPurchase':
        return formatWall(String(value), locale.value);
      case 'editRefueling.tachometer':
        return `${Number(value).toLocaleString(locale.value)} km`;
      case 'editRefueling.liter':
        return `${formatQuantity(String(value), locale.value, 2, 3)} l`;
      case 'editRefueling.price':
        return money(String(value), refueling.currency);
      case 'editRefueling.currency':
        return currencySymbol(Number(value), locale.value);
      case 'editRefueling.rate':
        return formatQuantity(String(value), locale.value, 0, 6);
      default:
        return String(value);
    }
  }

  return { describe, title, state, fieldValue };
}
