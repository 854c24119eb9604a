/** Outbox entries in words: what the write does, with names instead of ids. */
import { useI18n } from 'vue-i18n';
import { writeRecord, type OutboxEntryView, type RecordWriteInput, type WriteRecord } from '../../../src-shared/app-api';
import { currencySymbol, formatMoney, formatQuantity } from '../format/amount';
import { formatWall } from '../format/datetime';
import { blockerOf, isUndecided } from '../logic/outbox';
import { useAccountsStore } from '../stores/accounts';
import { useCarsStore } from '../stores/cars';
import { useCategoriesStore } from '../stores/categories';
import { useFieldText, type FieldValue } from './field-text';
import { useLabels } from './labels';
import { useLocale } from './locale';

export function useOutboxText() {
  const { t } = useI18n();
  const locale = useLocale();
  const labels = useLabels();
  const accounts = useAccountsStore();
  const categories = useCategoriesStore();
  const cars = useCarsStore();
  const fieldText = useFieldText();
  const money = (amount: string, currency: number) => formatMoney(amount, locale.value, currency);

  /** The writes of each record in words, a create's or an edit's (the write-kind table's records, checked by the compiler). */
  const describers: { [R in WriteRecord]: (i: RecordWriteInput<R>) => string } = {
    account: (i) =>
      [i.name, labels.accountType(i.type), ...('currency' in i ? [currencySymbol(i.currency, locale.value)] : [])].join(' · '),
    transfer(i) {
      const currency = accounts.byId.get(i.sourceId)?.currency ?? null;
      const amount = currency === null ? i.amount : money(i.amount, currency);
      const from = accounts.nameOf(i.sourceId);
      const parts = [t('outbox.transferText', { amount, from, to: accounts.nameOf(i.targetId) }), formatWall(i.paymentDate, locale.value)];
      return [...parts, ...(i.description ? [i.description] : [])].join(' · ');
    },
    category: (i) => {
      if ('id' in i) return t('outbox.renameText', { name: i.name });
      if (i.parentId === 0) return t('outbox.categoryTopText', { name: i.name });
      return t('outbox.categoryText', { name: i.name, parent: categories.label(i.parentId) });
    },
    refueling: (i) =>
      [
        cars.carName(i.carId),
        formatWall(i.dateOfPurchase, locale.value),
        `${i.tachometer.toLocaleString(locale.value)} km`,
        `${formatQuantity(i.liter, locale.value, 2, 3)} l`,
        money(i.price, i.currency),
      ].join(' · '),
  };

  const describe = (entry: OutboxEntryView): string =>
    (describers[writeRecord(entry.kind)] as (i: OutboxEntryView['input']) => string)(entry.input);

  const title = (entry: OutboxEntryView) => t(`outbox.kinds.${entry.kind}`);

  /**
   * Why an entry is in its state. A refusal is told in the service's own words; the other states are
   * the app's and are told in the user's language (the core's note on them is English).
   */
  function state(entry: OutboxEntryView, entries: readonly OutboxEntryView[]): string {
    if (entry.status === 'refused') return entry.message ?? t('outbox.statusHint.refused');
    if (isUndecided(entry)) return t('outbox.statusHint.undecided');
    if (entry.status !== 'blocked') return t(`outbox.statusHint.${entry.status}`);
    const blocker = blockerOf(entries, entry.id);
    return blocker ? t('outbox.blockedBy', { what: `${title(blocker)}: ${describe(blocker)}` }) : t('outbox.blockedMissing');
  }

  /** A value of a conflicting field as the screens show it (labels, money, dates), not as stored. */
  const fieldValue = (entry: OutboxEntryView, field: string, value: FieldValue): string =>
    fieldText(writeRecord(entry.kind), field, value, entry.input);

  return { describe, title, state, fieldValue };
}
