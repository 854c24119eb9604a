/** Outbox entries in words: what the write does, with names instead of ids. */
import { useI18n } from 'vue-i18n';
import type { OutboxEntryView, WriteInputs } from '../../../src-shared/app-api';
import { currencyLabel } from '../../../src-shared/money';
import { formatAmount } from '../format/amount';
import { formatWall } from '../format/datetime';
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

  const accountName = (id: number) => accounts.byId.get(id)?.name ?? `#${id}`;
  const categoryName = (id: number) => (id === 0 ? t('categories.topLevel') : (categories.pathOf(id) ?? `#${id}`));
  const money = (amount: string, currency: number) => `${formatAmount(amount, locale.value, currency)} ${currencyLabel(currency)}`;

  function refueling(i: WriteInputs['addRefueling']): string {
    return [
      cars.carName(i.carId),
      formatWall(i.dateOfPurchase, locale.value),
      `${i.tachometer.toLocaleString(locale.value)} km`,
      `${formatAmount(i.liter, locale.value, null)} l`,
      money(i.price, i.currency),
    ].join(' · ');
  }

  function describe(entry: OutboxEntryView): string {
    switch (entry.kind) {
      case 'addAccount': {
        const i = entry.input as WriteInputs['addAccount'];
        return `${i.name} · ${labels.accountType(i.type)} · ${currencyLabel(i.currency)}`;
      }
      case 'editAccount': {
        const i = entry.input as WriteInputs['editAccount'];
        return `${i.name} · ${labels.accountType(i.type)}`;
      }
      case 'transfer': {
        const i = entry.input as WriteInputs['transfer'];
        const currency = accounts.byId.get(i.sourceId)?.currency ?? null;
        const amount = currency === null ? i.amount : money(i.amount, currency);
        const parts = [t('outbox.transferText', { amount, from: accountName(i.sourceId), to: accountName(i.targetId) }), formatWall(i.paymentDate, locale.value)];
        if (i.description) parts.push(i.description);
        return parts.join(' · ');
      }
      case 'addCategory': {
        const i = entry.input as WriteInputs['addCategory'];
        return t('outbox.categoryText', { name: i.name, parent: categoryName(i.parentId) });
      }
      case 'renameCategory': {
        const i = entry.input as WriteInputs['renameCategory'];
        return t('outbox.renameText', { name: i.name });
      }
      case 'addRefueling':
      case 'editRefueling':
        return refueling(entry.input as WriteInputs['addRefueling']);
    }
  }

  return { describe, title: (entry: OutboxEntryView) => t(`outbox.kinds.${entry.kind}`) };
}
