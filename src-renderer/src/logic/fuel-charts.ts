/**
 * The four fuel charts of a car, drawn from its statistics (every figure exact, as the core made it).
 * Consumption and price per litre are drawn by fill while there are few fills (and the core sent them
 * all), else by month: 600 points on a chart a few hundred pixels wide cannot be read.
 */
import type { FuelFill, FuelStats } from '../../../src-shared/app-api';
import { compare, decimalFromNumber, parseDecimal, type Decimal } from '../../../src-shared/money';
import type { ChartData } from '../charts/series';

export interface FuelChartLabels {
  /** A fill's date for an axis. */
  date: (fill: FuelFill) => string;
  /** A month (YYYY-MM) for an axis. */
  month: (month: string) => string;
  consumption: string;
  pricePerLiter: string;
  cost: string;
  distance: string;
}

export interface FuelCharts {
  /** Consumption and price per litre by month (else by fill). */
  byMonth: boolean;
  consumption: ChartData;
  pricePerLiter: ChartData;
  monthlyCost: ChartData;
  monthlyDistance: ChartData;
}

/** Up to this many fills, consumption and price per litre are drawn fill by fill. */
export const BY_FILL_UP_TO = 50;

export function fuelCharts(stats: FuelStats, l: FuelChartLabels): FuelCharts {
  const months = stats.months.map((m) => l.month(m.month));
  const byMonth = stats.fillCount > BY_FILL_UP_TO || stats.fills.length < stats.fillCount;
  // Only full fills that close a chain have a consumption; the others would be gaps in the line. A
  // flagged one left out of the figures is left out of the line too (it would flatten every other point).
  const closing = stats.fills.filter((f) => f.consumption !== null && f.counted);
  const rates: Pick<FuelCharts, 'consumption' | 'pricePerLiter'> = byMonth
    ? {
        consumption: { labels: months, series: [{ label: l.consumption, values: stats.months.map((m) => m.consumption), color: 1 }] },
        pricePerLiter: { labels: months, series: [{ label: l.pricePerLiter, values: stats.months.map((m) => m.pricePerLiter), color: 2 }] },
      }
    : {
        consumption: {
          labels: closing.map(l.date),
          series: [{ label: l.consumption, values: closing.map((f) => f.consumption), color: 1 }],
        },
        pricePerLiter: {
          labels: stats.fills.map(l.date),
          series: [{ label: l.pricePerLiter, values: stats.fills.map((f) => f.pricePerLiter), color: 2 }],
        },
      };
  return {
    byMonth,
    ...rates,
    monthlyCost: { labels: months, series: [{ label: l.cost, values: stats.months.map((m) => m.cost), color: 3 }] },
    monthlyDistance: { labels: months, series: [{ label: l.distance, values: stats.months.map((m) => m.distance), color: 4 }] },
  };
}

/** Smallest and largest of exact values (compared exactly), for a chart's one-sentence summary; null without values. */
export function extremes<V extends string | number>(values: readonly (V | null)[]): { min: V; max: V } | null {
  let min: { value: V; d: Decimal } | null = null;
  let max: { value: V; d: Decimal } | null = null;
  for (const value of values) {
    const d = value === null ? null : typeof value === 'number' ? decimalFromNumber(value) : parseDecimal(value);
    if (value === null || !d) continue;
    if (!min || compare(d, min.d) < 0) min = { value, d };
    if (!max || compare(d, max.d) > 0) max = { value, d };
  }
  return min && max ? { min: min.value, max: max.value } : null;
}
