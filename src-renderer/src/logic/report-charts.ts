/** The report's charts and drill-downs, drawn from a CategoryReport with exact sums. */
import type { CategoryReport, CategoryRow } from '../../../src-shared/app-api';
import { monthEnd } from '../../../src-shared/calendar';
import { compare, formatDecimal, parseDecimal, sum, ZERO, type Decimal } from '../../../src-shared/money';
import { colorAt, type ChartData } from '../charts/series';
import type { SearchFilters } from './search-filters';

/** Categories shown by name in the expense chart; the rest are summed as "other". */
export const TOP_CATEGORIES = 8;

const dec = (text: string): Decimal => parseDecimal(text) ?? ZERO;

export function incomeExpenseChart(
  report: CategoryReport,
  l: { month: (m: string) => string; income: string; expense: string },
): ChartData {
  return {
    labels: report.months.map(l.month),
    series: [
      { label: l.income, values: report.byMonth.map((m) => m.income), color: 2 },
      { label: l.expense, values: report.byMonth.map((m) => m.expense), color: 3 },
    ],
  };
}

/**
 * The largest expenses by category, the first `top` by name and everything after them as one "other"
 * bar (summed exactly); categories without expense are left out.
 */
export function topExpenseChart(
  report: CategoryReport,
  l: { name: (row: CategoryRow) => string; other: string; expense: string },
  top = TOP_CATEGORIES,
): ChartData {
  const spending = report.categories
    .filter((c) => compare(dec(c.expense), ZERO) > 0)
    .sort((a, b) => compare(dec(b.expense), dec(a.expense)));
  const shown = spending.slice(0, top);
  const rest = spending.slice(top);
  const labels = shown.map(l.name);
  const values: string[] = shown.map((c) => c.expense);
  if (rest.length) {
    labels.push(l.other);
    values.push(formatDecimal(sum(rest.map((c) => dec(c.expense)))));
  }
  return { labels, series: [{ label: l.expense, values, color: 3 }] };
}

/** Days a period covers, both ends included. */
export function daysIn(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;
}

/** The balances move by day in short periods (the core's points are days there) and by month otherwise. */
export const balancesByDay = (report: CategoryReport): boolean => daysIn(report.from, report.to) <= 62;

/** One line per account over the dates any of them has a point for. */
export function balanceChart(report: CategoryReport, label: (date: string) => string): ChartData {
  const dates = [...new Set(report.balances.flatMap((s) => s.points.map((p) => p.date)))].sort();
  return {
    labels: dates.map(label),
    series: report.balances.map((s, i) => {
      const byDate = new Map(s.points.map((p) => [p.date, p.balance]));
      return { label: s.name, values: dates.map((d) => byDate.get(d) ?? null), color: colorAt(i) };
    }),
  };
}

/** The first and last day of a month (YYYY-MM), cut to the report's period. */
export function monthRange(month: string, report: Pick<CategoryReport, 'from' | 'to'>): { from: string; to: string } {
  const from = `${month}-01`;
  const to = monthEnd(month);
  return { from: from < report.from ? report.from : from, to: to > report.to ? report.to : to };
}

/**
 * The search a category of the report drills into: its transactions (children included) in the period,
 * or in one month of it, on the report's accounts (the one account in the account filter when it covers
 * just one) and without transfers when the report left them out, so that it lists what the row counted.
 */
export function drillFilters(report: CategoryReport, categoryId: number, month?: string): SearchFilters {
  const range = month ? monthRange(month, report) : { from: report.from, to: report.to };
  return {
    categoryId,
    ...range,
    ...(report.accountIds.length === 1 ? { accountId: report.accountIds[0]! } : { accountIds: [...report.accountIds] }),
    ...(report.includeTransfers ? {} : { excludeTransfers: true }),
  };
}
