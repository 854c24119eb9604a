/**
 * A field of a record a write carries, as the screens show its value (a conflict's mine and theirs): by the
 * field's type in its record's field table (dates, currencies, decimals to their places), a few fields by what
 * they mean (a car's name, an account type's label, litres, kilometres, a price in its currency).
 */
import { useI18n } from 'vue-i18n';
import type { WriteRecord } from '../../../src-shared/app-api';
import { RECORDS } from '../../../src-shared/records';
import type { FieldSpec } from '../../../src-shared/records/fields';
import { TRANSFER } from '../../../src-shared/records/transaction';
import { fieldRules } from '../../../src-shared/validate';
import { currencySymbol, formatMoney, formatQuantity } from '../format/amount';
import { formatWall } from '../format/datetime';
import { useCarsStore } from '../stores/cars';
import { useLabels } from './labels';
import { useLocale } from './locale';

export type FieldValue = string | number | boolean;

const TABLES: Readonly<Record<WriteRecord, Readonly<Record<string, FieldSpec>>>> = {
  account: RECORDS.account.fields,
  transfer: TRANSFER.fields,
  category: RECORDS.category.fields,
  refueling: RECORDS.refueling.fields,
};

export function useFieldText() {
  const { t } = useI18n();
  const locale = useLocale();
  const labels = useLabels();
  const cars = useCarsStore();

  /** Fields whose number means more than a number; `write` is the write the value belongs to. */
  const MEANING: Readonly<Record<string, (value: FieldValue, write: Record<string, unknown>) => string>> = {
    'account.type': (value) => labels.accountType(Number(value)),
    'refueling.carId': (value) => cars.carName(Number(value)),
    'refueling.tachometer': (value) => `${Number(value).toLocaleString(locale.value)} km`,
    'refueling.liter': (value) => `${formatQuantity(String(value), locale.value, 2, 3)} l`,
    'refueling.price': (value, write) => formatMoney(String(value), locale.value, Number(write.currency)),
  };

  function byType(spec: FieldSpec | undefined, value: FieldValue): string {
    switch (spec?.type) {
      case 'dateTime':
        return formatWall(String(value), locale.value);
      case 'currency':
        return currencySymbol(Number(value), locale.value);
      case 'decimal':
        return formatQuantity(String(value), locale.value, 0, (spec.input && fieldRules(spec.input).maxScale) ?? 6);
      default:
        return String(value);
    }
  }

  /** A value of `field` of a write of `record` (yes and no for a flag, a dash for an empty text). */
  return function fieldText(record: WriteRecord, field: string, value: FieldValue, write: object): string {
    if (typeof value === 'boolean') return value ? t('common.yes') : t('common.no');
    if (value === '') return '—';
    const meaning = MEANING[`${record}.${field}`];
    return meaning ? meaning(value, write as Record<string, unknown>) : byType(TABLES[record][field], value);
  };
}
