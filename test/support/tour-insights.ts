/** The app API tour's part for statistics, reports and search, and the CSV exports (see app-api-tour.ts). */
import { expect } from 'vitest';
import type {
  CategoryReport,
  CsvFile,
  FuelStats,
  RefuelingView,
  RegisterPage,
  SearchResult,
  TransactionDetail,
} from '../../src-shared/app-api';
import type { TourCall } from './app-api-tour';
import { text, units } from './decimal-oracle';

const exactSum = (values: string[]) => text(values.reduce((total, v) => total + units(v), 0n));

export async function tourInsights(ok: TourCall, at: { carId: number; refuelingId: number; accountId: number }): Promise<void> {
  // The car was named after the tour's first sync: its only refueling is the tour's pending one (41 l for 1620.5).
  const marked = await ok<RefuelingView[]>('setRefuelingPartial', { id: at.refuelingId, partial: true });
  expect(marked.find((r) => r.id === at.refuelingId)).toMatchObject({ partial: true, pending: true });
  const stats = await ok<FuelStats>('getFuelStats', { carId: at.carId });
  expect(stats.currency).toBe(203);
  expect(stats.fills).toEqual([
    expect.objectContaining({ id: at.refuelingId, partial: true, pending: true, note: 'first', distance: null, consumption: null }),
  ]);
  // 1620.5 / 41 = 39.5243... -> 39.524
  expect(stats.summary).toMatchObject({
    refuelings: 1,
    liters: '41',
    cost: '1620.5',
    pricePerLiter: '39.524',
    distance: 0,
    consumption: null,
  });
  await ok<RefuelingView[]>('setRefuelingPartial', { id: at.refuelingId, partial: false });

  // The account's history, the tour's pending transfer of 0.3 included.
  const history = await ok<SearchResult>('searchTransactions', { accountId: at.accountId, limit: 5 });
  expect(history.items).toHaveLength(5);
  expect(history.sums).toEqual([expect.objectContaining({ currency: 203, count: history.total })]);
  const tour = await ok<SearchResult>('searchTransactions', { text: 'tour', accountId: at.accountId });
  expect(tour.items).toEqual([expect.objectContaining({ amount: '-0.3', pending: true, description: 'Tour' })]);

  // The account's register: the same history, newest first, with running balances ending at the balance now.
  const register = await ok<RegisterPage>('listRegister', { accountId: at.accountId, limit: 5, counts: true });
  expect(register.rows).toHaveLength(5);
  expect(register).toMatchObject({ total: history.total, position: 0, accountIds: [at.accountId] });
  expect(register.rows[0]!.balance).toBe(register.balance);
  const last = register.rows[4]!;
  const older = await ok<RegisterPage>('listRegister', {
    accountId: at.accountId,
    limit: 5,
    after: { paymentDate: last.paymentDate, key: last.key, id: last.id, outboxId: last.outboxId },
  });
  expect(older.rows[0]!.paymentDate <= last.paymentDate).toBe(true);
  // The balance after the next older row: the one after the last row, less that row's amount.
  expect(older.rows[0]!.balance).toBe(exactSum([last.balance, last.amount.startsWith('-') ? last.amount.slice(1) : `-${last.amount}`]));
  const pendingRow = (await ok<RegisterPage>('listRegister', { accountId: at.accountId, text: 'tour' })).rows[0]!;
  expect(pendingRow).toMatchObject({ amount: '-0.3', pending: true, transfer: true });
  const detail = await ok<TransactionDetail>('getTransaction', { key: pendingRow.key });
  expect(detail).toMatchObject({
    state: 'pending',
    amount: '-0.3',
    description: 'Tour',
    outbox: expect.objectContaining({ status: 'pending' }),
  });

  // A year of the demo data up to its newest transaction.
  const newest = (await ok<SearchResult>('searchTransactions', { limit: 1 })).items[0]!.paymentDate.slice(0, 10);
  const report = await ok<CategoryReport>('getReport', { from: `${Number(newest.slice(0, 4)) - 1}-01-01`, to: newest });
  expect(report.currency).toBe(203);
  expect(report.currencies).toEqual([203, 978]);
  expect(report.total.count).toBeGreaterThan(50);
  expect(report.categories.length).toBeGreaterThan(3);
  expect(report.total.expense).toBe(exactSum(report.categories.map((c) => c.expense)));
  expect(report.total.income).toBe(exactSum(report.byMonth.map((m) => m.income)));
  expect(report.balances.find((b) => b.accountId === at.accountId)?.points).toHaveLength(report.months.length);

  const transactions = await ok<CsvFile>('exportTransactionsCsv', { text: 'tour', accountId: at.accountId });
  expect(transactions.rows).toBe(1);
  expect(transactions.content).toMatch(/^date,account,account_id,currency,amount,.*\r\n.*,CZK,-0\.3,.*,Tour,-?\d+,true\r\n$/);
  const refuelings = await ok<CsvFile>('exportRefuelingsCsv', { carId: at.carId });
  expect(refuelings.rows).toBe(1);
  expect(refuelings.content).toMatch(
    /^car_id,car_name,date,odometer,liters,price,currency,rate,.*\r\n1,Octavia,2026-11-21T08:00:00,999000,41,1620\.5,CZK,1,39\.524,false,Tour,-?\d+,true\r\n$/,
  );
  // The report as a table for Excel in Czech: its categories' figures, with decimal commas.
  const byCategory = await ok<CsvFile>('exportReportCsv', { from: report.from, to: report.to, table: 'categories', dialect: 'excel-cs' });
  expect(byCategory.rows).toBe(report.categories.length);
  const first = report.categories[0]!;
  const comma = (n: string) => n.replace('.', ',');
  expect(byCategory.content.split('\r\n')[1]).toBe(
    [first.name ?? '', first.categoryId, 'CZK', comma(first.income), comma(first.expense), comma(first.net), first.count].join(';'),
  );
}
