/**
 * CSV exports of transactions and refuelings. Header names are plain lowercase English; the refueling
 * import guesses its column mapping from them (date, odometer, liters, price, currency, rate, partial,
 * description). Dates are the wall-clock ISO text the local copy keeps (2026-11-21T08:00:00), currencies
 * their ISO letters (CZK; #123 for a code the app does not know), yes/no fields true or false.
 */
import { AppError, type CsvFile, type RefuelingView } from '../../../src-shared/app-api';
import { currencyLabel } from '../../../src-shared/money';
import type { FieldSpec, FieldTable } from '../../../src-shared/records/fields';
import { REFUELING } from '../../../src-shared/records/refueling';
import { TRANSACTION } from '../../../src-shared/records/transaction';
import type { CoreParts, Handlers } from '../app/core-parts';
import { refuelingView } from '../app/read-views';
import { ancestry } from '../insights/category-tree';
import { oldestFirst } from '../insights/fuel-stats';
import { searchMatches, type Match } from '../insights/search';
import type { ViewCategory } from '../outbox/view-state';
import { writeCsv, type CsvColumn, type CsvValue } from './csv-writer';

/** "Parent / Child" of a category; empty for 0 and for an id the tree does not know. */
function categoryPath(categories: Map<number, ViewCategory>, id: number): string {
  return ancestry(categories, id)
    .map((c) => c.name)
    .reverse()
    .join(' / ');
}

/**
 * A record's fields that have a CSV header, in its table's order (src-shared/records), each followed by the
 * column the export adds after it (a name beside an id, a figure beside the fields it comes from).
 */
export function recordColumns<T extends FieldTable, R>(fields: T, extras: Partial<Record<keyof T, CsvColumn<R>>>): CsvColumn<R>[] {
  return (Object.keys(fields) as (keyof T & string)[]).flatMap((k) => {
    const f: FieldSpec = fields[k]!;
    const extra = extras[k];
    if (!f.csv) return extra ? [extra] : [];
    const value = (r: R) => (r as Record<string, unknown>)[k] as CsvValue;
    const column: CsvColumn<R> = {
      header: f.csv.header,
      value: f.type === 'currency' ? (r) => currencyLabel(value(r) as number) : value,
      ...(['id', 'integer', 'decimal'].includes(f.type) ? { numeric: true } : {}),
    };
    return extra ? [column, extra] : [column];
  });
}

function transactionColumns(categories: Map<number, ViewCategory>): CsvColumn<Match>[] {
  return recordColumns<typeof TRANSACTION.fields, Match>(TRANSACTION.fields, {
    paymentDate: { header: 'account', value: (t) => t.account.name },
    accountId: { header: 'currency', value: (t) => currencyLabel(t.account.currency) },
    type: { header: 'category', value: (t) => categoryPath(categories, t.categoryId) },
    id: { header: 'pending', value: (t) => t.pending },
  });
}

type ExportedRefueling = RefuelingView & { carName: string };

/** The refueling's columns, and those the export adds that are no field of a refueling. */
const REFUELING_COLUMNS = recordColumns<typeof REFUELING.fields, ExportedRefueling>(REFUELING.fields, {
  carId: { header: 'car_name', value: (r) => r.carName },
  rate: { header: 'price_per_liter', value: (r) => r.pricePerLiter, numeric: true },
  id: { header: 'pending', value: (r) => r.pending },
});

export function exportHandlers(parts: CoreParts): Handlers<'exportTransactionsCsv' | 'exportRefuelingsCsv'> {
  const today = () => parts.now().slice(0, 10);
  return {
    exportTransactionsCsv: async (filters): Promise<CsvFile> => {
      const { matches: items, categories } = searchMatches(parts, filters);
      return { fileName: `transactions-${today()}.csv`, content: writeCsv(transactionColumns(categories), items), rows: items.length };
    },
    exportRefuelingsCsv: async ({ carId }): Promise<CsvFile> => {
      const named = parts.store.cars.list();
      const names = new Map(named.map((c) => [c.carId, c.name]));
      // Named cars in the car list's order, then any car id that has refuelings without a name.
      const carIds = [
        ...new Set([
          ...named.map((c) => c.carId),
          ...parts.store.refuelings.carIds(),
          ...[...parts.view.pendingCars()].sort((a, b) => a - b),
        ]),
      ];
      const locals = parts.store.marks.of(REFUELING);
      const rows: ExportedRefueling[] = [];
      for (const id of carId === undefined ? carIds : [carId]) {
        const list = parts.view.refuelings(id).sort(oldestFirst);
        rows.push(...list.map((r) => ({ ...refuelingView(r, locals), carName: names.get(id) ?? '' })));
      }
      if (carId !== undefined && rows.length === 0 && !names.has(carId)) throw new AppError('carNotInList', { carId }, 'carId');
      const suffix = carId === undefined ? '' : `-car-${carId}`;
      return { fileName: `refuelings${suffix}-${today()}.csv`, content: writeCsv(REFUELING_COLUMNS, rows), rows: rows.length };
    },
  };
}
