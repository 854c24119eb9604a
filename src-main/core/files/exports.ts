/**
 * CSV exports of transactions, refuelings and reports, each in the dialect asked for (src-shared/csv-dialect.ts:
 * plain by default). Header names are plain lowercase English in every dialect; the refueling import guesses
 * its column mapping from them (date, odometer, liters, price, currency, rate, partial, description). Dates
 * are the wall-clock times the local copy keeps (2026-11-21T08:00:00, written the dialect's way), currencies
 * their ISO letters (CZK; #123 for a code the app does not know), yes/no fields true or false.
 */
import {
  AppError,
  type CategoryReport,
  type CategoryRow,
  type CsvFile,
  type IncomeExpense,
  type InputOf,
  type RefuelingView,
} from '../../../src-shared/app-api';
import type { CsvDialect } from '../../../src-shared/csv-dialect';
import { currencyLabel } from '../../../src-shared/money';
import type { FieldSpec, FieldTable } from '../../../src-shared/records/fields';
import { REFUELING } from '../../../src-shared/records/refueling';
import { TRANSACTION } from '../../../src-shared/records/transaction';
import type { CoreParts, Handlers } from '../app/core-parts';
import { refuelingView } from '../app/read-views';
import { ancestry } from '../insights/category-tree';
import { oldestFirst } from '../insights/fuel-stats';
import { categoryReport } from '../insights/reports';
import { searchMatches, type Match } from '../insights/search';
import type { ViewCategory } from '../outbox/view-state';
import { dialectOf, writeCsv, type CsvColumn, type CsvValue } from './csv-writer';

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
      ...(f.type === 'dateTime' ? { date: true } : {}),
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

/** The figures of a report's row, after the columns that say what the row is. */
const FIGURE_COLUMNS: CsvColumn<IncomeExpense>[] = [
  { header: 'income', value: (r) => r.income, numeric: true },
  { header: 'expense', value: (r) => r.expense, numeric: true },
  { header: 'net', value: (r) => r.net, numeric: true },
  { header: 'count', value: (r) => r.count, numeric: true },
];

/** A report's rows, by top-level category (largest expense first, as on the screen) or by month, in its currency. */
function reportCsv(report: CategoryReport, table: InputOf<'exportReportCsv'>['table'], dialect: CsvDialect) {
  const currency = { header: 'currency', value: () => currencyLabel(report.currency) };
  if (table === 'categories') {
    const columns: CsvColumn<CategoryRow>[] = [
      { header: 'category', value: (c) => c.name ?? '' },
      { header: 'category_id', value: (c) => c.categoryId, numeric: true },
      currency,
      ...FIGURE_COLUMNS,
    ];
    return { content: writeCsv(columns, report.categories, dialect), rows: report.categories.length };
  }
  // A month as the day it begins: a date every spreadsheet takes as one.
  const months = report.byMonth.map((m, i) => ({ ...m, month: `${report.months[i]!}-01` }));
  const columns: CsvColumn<(typeof months)[number]>[] = [
    { header: 'month', value: (m) => m.month, date: true },
    currency,
    ...FIGURE_COLUMNS,
  ];
  return { content: writeCsv(columns, months, dialect), rows: months.length };
}

export function exportHandlers(parts: CoreParts): Handlers<'exportTransactionsCsv' | 'exportRefuelingsCsv' | 'exportReportCsv'> {
  const today = () => parts.now().slice(0, 10);
  return {
    exportTransactionsCsv: async ({ dialect, ...filters }): Promise<CsvFile> => {
      const { matches: items, categories } = searchMatches(parts, filters);
      const content = writeCsv(transactionColumns(categories), items, dialectOf(dialect));
      return { fileName: `transactions-${today()}.csv`, content, rows: items.length };
    },
    exportReportCsv: async ({ table, dialect, ...input }): Promise<CsvFile> => {
      const report = categoryReport(parts, input);
      return { fileName: `report-${table}-${report.from}-${report.to}.csv`, ...reportCsv(report, table, dialectOf(dialect)) };
    },
    exportRefuelingsCsv: async ({ carId, dialect }): Promise<CsvFile> => {
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
      const content = writeCsv(REFUELING_COLUMNS, rows, dialectOf(dialect));
      return { fileName: `refuelings${suffix}-${today()}.csv`, content, rows: rows.length };
    },
  };
}
