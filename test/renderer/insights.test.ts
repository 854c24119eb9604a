import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src-renderer/src/format/amount';
import { formatDate, formatMonth } from '../../src-renderer/src/format/datetime';
import { bytesFromBase64 } from '../../src-renderer/src/logic/download';
import { extremes, fuelCharts } from '../../src-renderer/src/logic/fuel-charts';
import { closedRange, periodFromQuery, periodRange, periodToQuery, presetRange } from '../../src-renderer/src/logic/periods';
import {
  balanceChart,
  balancesByDay,
  drillFilters,
  incomeExpenseChart,
  monthRange,
  topExpenseChart,
} from '../../src-renderer/src/logic/report-charts';
import { reportFromQuery, reportInput, reportToQuery } from '../../src-renderer/src/logic/report-filters';
import { filtersFromQuery, filtersToQuery, pageFromQuery, sameFilters } from '../../src-renderer/src/logic/search-filters';
import type { CategoryReport, CategoryRow, FuelFill, FuelStats, IncomeExpense } from '../../src-shared/app-api';

describe('periods', () => {
  it('resolves presets against today, calendar months included whole', () => {
    expect(presetRange('all', '2026-11-21')).toEqual({ from: null, to: null });
    expect(presetRange('thisMonth', '2026-11-21')).toEqual({ from: '2026-11-01', to: '2026-11-21' });
    expect(presetRange('last3Months', '2026-11-21')).toEqual({ from: '2026-09-01', to: '2026-11-21' });
    expect(presetRange('last12Months', '2026-11-21')).toEqual({ from: '2025-12-01', to: '2026-11-21' });
    // Across the turn of the year.
    expect(presetRange('last3Months', '2026-01-31')).toEqual({ from: '2025-11-01', to: '2026-01-31' });
    expect(presetRange('thisYear', '2026-11-21')).toEqual({ from: '2026-01-01', to: '2026-11-21' });
    expect(presetRange('lastYear', '2026-11-21')).toEqual({ from: '2025-01-01', to: '2025-12-31' });
  });

  it('keeps custom dates, swapped when given the wrong way round, and closes open ends for reports', () => {
    expect(periodRange({ preset: 'custom', from: '2026-05-10', to: '2026-02-01' }, '2026-11-21')).toEqual({
      from: '2026-02-01',
      to: '2026-05-10',
    });
    expect(periodRange({ preset: 'custom', from: '2026-05-10', to: null }, '2026-11-21')).toEqual({ from: '2026-05-10', to: null });
    expect(closedRange({ preset: 'custom', from: '2026-05-10', to: null }, '2026-11-21', 'last12Months')).toEqual({
      from: '2026-05-10',
      to: '2026-11-21',
    });
    expect(closedRange({ preset: 'custom', from: null, to: '2026-03-01' }, '2026-11-21', 'last12Months')).toEqual({
      from: '2025-12-01',
      to: '2026-03-01',
    });
  });

  it('travels in the address and ignores what it cannot read', () => {
    const allowed = ['all', 'thisYear', 'custom'] as const;
    expect(periodFromQuery({ period: 'thisYear' }, allowed, 'all')).toEqual({ preset: 'thisYear', from: null, to: null });
    expect(periodFromQuery({ period: 'lastYear' }, allowed, 'all')).toEqual({ preset: 'all', from: null, to: null });
    expect(periodFromQuery({ from: '2026-02-30x' }, allowed, 'all').preset).toBe('all');
    // A day the calendar does not have is dropped here, as the core would refuse it.
    expect(periodFromQuery({ from: '2026-02-30' }, allowed, 'all').preset).toBe('all');
    expect(periodFromQuery({ from: '2024-02-29' }, allowed, 'all')).toEqual({ preset: 'custom', from: '2024-02-29', to: null });
    expect(periodFromQuery({ from: '2026-02-01', period: 'thisYear' }, allowed, 'all')).toEqual({
      preset: 'custom',
      from: '2026-02-01',
      to: null,
    });
    expect(periodToQuery({ preset: 'custom', from: '2026-02-01', to: null })).toEqual({ from: '2026-02-01' });
    expect(periodToQuery({ preset: 'thisYear', from: null, to: null })).toEqual({ period: 'thisYear' });
  });
});

describe('search filters in the address', () => {
  it('round-trips every filter', () => {
    const f = {
      text: 'nájem',
      minAmount: '100.5',
      maxAmount: '2000',
      direction: 'out' as const,
      from: '2026-01-01',
      to: '2026-03-31',
      accountId: -3,
      categoryId: 0,
    };
    const query = filtersToQuery(f);
    expect(query).toEqual({
      q: 'nájem',
      min: '100.5',
      max: '2000',
      dir: 'out',
      from: '2026-01-01',
      to: '2026-03-31',
      account: '-3',
      category: '0',
    });
    expect(filtersFromQuery(query)).toEqual(f);
    expect(sameFilters(filtersFromQuery(query), f)).toBe(true);
  });

  it('drops values the search would refuse', () => {
    expect(
      filtersFromQuery({
        q: '  ',
        min: '-5',
        max: 'abc',
        dir: 'sideways',
        from: '21.11.2026',
        account: '0',
        category: '1.5',
        accounts: '1,x',
        transfers: 'yes',
      }),
    ).toEqual({});
    expect(filtersFromQuery({ from: '2026-02-30', to: '2026-04-31' })).toEqual({});
    const drilled = { accountIds: [3, -1], excludeTransfers: true, categoryId: 5 };
    expect(filtersToQuery(drilled)).toEqual({ accounts: '3,-1', transfers: 'no', category: '5' });
    expect(filtersFromQuery(filtersToQuery(drilled))).toEqual(drilled);
    expect(pageFromQuery({ page: '3' })).toBe(2);
    expect(pageFromQuery({ page: '0' })).toBe(0);
    expect(pageFromQuery({})).toBe(0);
  });
});

const flow = (income: string, expense: string, net: string, count: number): IncomeExpense => ({ income, expense, net, count });
const row = (categoryId: number, name: string | null, expense: string, income = '0'): CategoryRow => ({
  categoryId,
  name,
  ...flow(income, expense, '0', 1),
  byMonth: [],
  budget: null,
});

function report(over: Partial<CategoryReport> = {}): CategoryReport {
  return {
    currency: 203,
    from: '2026-09-01',
    to: '2026-11-21',
    months: ['2026-09', '2026-10', '2026-11'],
    accountIds: [1, 2],
    includeTransfers: false,
    total: flow('300', '100', '200', 5),
    byMonth: [flow('100', '50.5', '49.5', 2), flow('200', '0', '200', 1), flow('0', '49.5', '-49.5', 2)],
    categories: [],
    budget: null,
    balances: [],
    currencies: [203, 978],
    ...over,
  };
}

describe('report charts', () => {
  it('draws income and expense per month with the exact figures', () => {
    const chart = incomeExpenseChart(report(), { month: (m) => m, income: 'In', expense: 'Out' });
    expect(chart.labels).toEqual(['2026-09', '2026-10', '2026-11']);
    expect(chart.series.map((s) => s.values)).toEqual([
      ['100', '200', '0'],
      ['50.5', '0', '49.5'],
    ]);
  });

  it('shows the largest expenses by name and sums the rest exactly as "other"', () => {
    const categories = [
      row(1, 'A', '0.1'),
      row(2, 'B', '500'),
      row(3, 'C', '0.2'),
      row(4, null, '40'),
      row(5, 'E', '0', '900'),
      row(6, 'F', '0.3'),
    ];
    const chart = topExpenseChart(report({ categories }), { name: (c) => c.name ?? 'none', other: 'Other', expense: 'Out' }, 3);
    expect(chart.labels).toEqual(['B', 'none', 'F', 'Other']);
    // 0.2 + 0.1 exactly, not 0.30000000000000004; the income-only category is not an expense.
    expect(chart.series[0]!.values).toEqual(['500', '40', '0.3', '0.3']);
    expect(
      topExpenseChart(report({ categories: categories.slice(0, 2) }), { name: (c) => c.name!, other: 'Other', expense: 'Out' }, 3).labels,
    ).toEqual(['B', 'A']);
  });

  it('lines up the balances of accounts on the dates any of them has', () => {
    const r = report({
      balances: [
        {
          accountId: 1,
          name: 'Bank',
          points: [
            { date: '2026-09-30', balance: '10' },
            { date: '2026-10-31', balance: '12.5' },
          ],
        },
        {
          accountId: 2,
          name: 'Cash',
          points: [
            { date: '2026-10-31', balance: '-3' },
            { date: '2026-11-21', balance: '4' },
          ],
        },
      ],
    });
    const chart = balanceChart(r, (d) => d.slice(5));
    expect(chart.labels).toEqual(['09-30', '10-31', '11-21']);
    expect(chart.series.map((s) => [s.label, s.values, s.color])).toEqual([
      ['Bank', ['10', '12.5', null], 1],
      ['Cash', [null, '-3', '4'], 2],
    ]);
    expect(balancesByDay(r)).toBe(false);
    expect(balancesByDay(report({ from: '2026-10-01', to: '2026-12-01' }))).toBe(true);
    expect(balancesByDay(report({ from: '2026-10-01', to: '2026-12-02' }))).toBe(false);
  });

  it('drills into a category over the period, or one month of it cut to the period', () => {
    const r = report();
    expect(monthRange('2026-09', r)).toEqual({ from: '2026-09-01', to: '2026-09-30' });
    expect(monthRange('2026-11', r)).toEqual({ from: '2026-11-01', to: '2026-11-21' });
    expect(monthRange('2024-02', { from: '2024-01-01', to: '2024-12-31' })).toEqual({ from: '2024-02-01', to: '2024-02-29' });
    expect(drillFilters(r, 7)).toEqual({ categoryId: 7, from: '2026-09-01', to: '2026-11-21', accountIds: [1, 2], excludeTransfers: true });
    expect(drillFilters(report({ accountIds: [4], includeTransfers: false }), 0, '2026-10')).toEqual({
      categoryId: 0,
      from: '2026-10-01',
      to: '2026-10-31',
      accountId: 4,
      excludeTransfers: true,
    });
    expect(drillFilters(report({ accountIds: [4, 5], includeTransfers: true }), 3)).toEqual({
      categoryId: 3,
      from: '2026-09-01',
      to: '2026-11-21',
      accountIds: [4, 5],
    });
  });

  it('keeps what the report covers in the address', () => {
    const filters = {
      period: { preset: 'lastYear' as const, from: null, to: null },
      currency: 978,
      accountIds: [3, -1],
      includeTransfers: true,
    };
    const query = reportToQuery(filters);
    expect(query).toEqual({ period: 'lastYear', cur: '978', acc: '3,-1', transfers: '1' });
    expect(reportFromQuery(query)).toEqual(filters);
    expect(reportFromQuery({})).toEqual({ period: { preset: 'last12Months', from: null, to: null }, includeTransfers: false });
    expect(reportFromQuery({ cur: 'x', acc: '1,zz' })).toEqual({
      period: { preset: 'last12Months', from: null, to: null },
      includeTransfers: false,
    });
    expect(reportInput(filters, '2026-11-21')).toEqual({
      from: '2025-01-01',
      to: '2025-12-31',
      currency: 978,
      accountIds: [3, -1],
      includeTransfers: true,
    });
  });
});

const fill = (id: number, over: Partial<FuelFill>): FuelFill => ({
  id,
  dateOfPurchase: `2026-0${id}-10T08:00:00`,
  tachometer: 1000 * id,
  liter: '40',
  price: '1600',
  currency: 203,
  rate: '1',
  cost: '1600',
  pricePerLiter: '40',
  partial: false,
  pending: false,
  distance: null,
  consumption: null,
  costPer100Km: null,
  note: null,
  flag: null,
  counted: true,
  ...over,
});

describe('fuel charts', () => {
  const stats: FuelStats = {
    carId: 1,
    currency: 203,
    from: null,
    to: null,
    includeFlagged: false,
    flagged: 1,
    summary: {
      refuelings: 3,
      liters: '100',
      cost: '4000',
      distance: 2000,
      consumption: '6.5',
      costPer100Km: '260',
      pricePerLiter: '40',
      firstDate: null,
      lastDate: null,
    },
    fills: [
      fill(1, { note: 'first' }),
      fill(2, { partial: true, distance: 1000, pricePerLiter: '41.125' }),
      fill(3, { distance: 1000, consumption: '6.5', costPer100Km: '260', pricePerLiter: '39.9' }),
      // Flagged and left out of the figures: not on the consumption line either.
      fill(4, { distance: 900, consumption: '31', costPer100Km: '1300', pricePerLiter: '40', flag: 'consumption', counted: false }),
    ],
    fillCount: 4,
    fillsOffset: 0,
    months: [
      { month: '2026-01', refuelings: 1, liters: '40', cost: '1600', distance: 0, consumption: null, pricePerLiter: '40' },
      { month: '2026-02', refuelings: 2, liters: '60', cost: '2400', distance: 2000, consumption: '6.5', pricePerLiter: '40.5' },
    ],
  };
  const labels = { date: (f: FuelFill) => f.dateOfPurchase.slice(0, 10), month: (m: string) => `m${m}` };
  const names = { consumption: 'C', pricePerLiter: 'P', cost: 'K', distance: 'D' };

  it('plots consumption only for the fills that close a chain, and prices for every fill', () => {
    const charts = fuelCharts(stats, {
      date: (f) => f.dateOfPurchase.slice(0, 10),
      month: (m) => `m${m}`,
      consumption: 'C',
      pricePerLiter: 'P',
      cost: 'K',
      distance: 'D',
    });
    expect(charts.consumption).toEqual({ labels: ['2026-03-10'], series: [{ label: 'C', values: ['6.5'], color: 1 }] });
    expect(charts.pricePerLiter.series[0]!.values).toEqual(['40', '41.125', '39.9', '40']);
    expect(charts.monthlyCost.labels).toEqual(['m2026-01', 'm2026-02']);
    expect(charts.monthlyCost.series[0]!.values).toEqual(['1600', '2400']);
    expect(charts.monthlyDistance.series[0]!.values).toEqual([0, 2000]);
    expect(charts.byMonth).toBe(false);
  });

  it('plots consumption and price per litre by month when the fills are many, or only a page of them came', () => {
    for (const many of [
      { ...stats, fillCount: 600 },
      { ...stats, fills: stats.fills.slice(2), fillsOffset: 0, fillCount: 4 },
    ]) {
      const charts = fuelCharts(many, { ...labels, ...names });
      expect(charts.byMonth).toBe(true);
      expect(charts.consumption).toEqual({ labels: ['m2026-01', 'm2026-02'], series: [{ label: 'C', values: [null, '6.5'], color: 1 }] });
      expect(charts.pricePerLiter).toEqual({
        labels: ['m2026-01', 'm2026-02'],
        series: [{ label: 'P', values: ['40', '40.5'], color: 2 }],
      });
    }
  });

  it('finds the extremes of exact values for the chart summaries', () => {
    expect(extremes(['40', '41.125', null, '39.9'])).toEqual({ min: '39.9', max: '41.125' });
    expect(extremes([0, 2000])).toEqual({ min: 0, max: 2000 });
    // Beyond a double's precision the text still decides.
    expect(extremes(['0.30000000000000000001', '0.3'])).toEqual({ min: '0.3', max: '0.30000000000000000001' });
    expect(extremes([null])).toBeNull();
  });
});

describe('files and figures', () => {
  it("turns a backup's base64 into its bytes", () => {
    const bytes = new Uint8Array(100_000).map((_, i) => (i * 7919) % 256);
    expect([...bytesFromBase64(Buffer.from(bytes).toString('base64'))]).toEqual([...bytes]);
    expect([...bytesFromBase64('TWFuw6k=')]).toEqual([...new TextEncoder().encode('Man\u00e9')]);
  });

  it('formats sizes, dates and months in both languages', () => {
    expect(formatBytes(512, 'en')).toBe('512 B');
    expect(formatBytes(2_500, 'en')).toBe('2.5 kB');
    expect(formatBytes(1_400_000, 'en')).toBe('1.4 MB');
    expect(formatBytes(1_400_000, 'cs')).toBe('1,4 MB');
    expect(formatDate('2026-11-21', 'en')).toBe('11/21/2026');
    expect(formatDate('2026-11-21', 'cs')).toBe('21.11.2026');
    expect(formatMonth('2026-11', 'en')).toBe('Nov 2026');
    expect(formatMonth('2026-11', 'cs', true)).toBe('listopad 2026');
  });
});
