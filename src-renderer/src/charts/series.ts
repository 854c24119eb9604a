/** What a chart shows, as the screens hand it over: labels along one axis, series of exact values. */

/** Palette slots: CSS custom properties --chart-1 … --chart-8 of the current theme. */
export type ChartColor = 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8;
export const CHART_COLORS = 8;

export interface ChartSeries {
  label: string;
  /** Decimal text (money, litres) or whole numbers (kilometres); null where there is no value. */
  values: (string | number | null)[];
  color: ChartColor;
}

export interface ChartData {
  labels: string[];
  series: ChartSeries[];
}

/** The value Chart.js draws: only the drawing uses floating point; tables and tooltips keep the exact text. */
export function plotted(value: string | number | null): number | null {
  if (value === null) return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** The colour slot of the n-th series (0-based), round the palette. */
export const colorAt = (index: number): ChartColor => ((index % CHART_COLORS) + 1) as ChartColor;
