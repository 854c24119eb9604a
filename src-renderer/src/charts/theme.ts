/**
 * The chart colours come from the app's CSS custom properties, so that charts follow the light and dark
 * themes like the rest of the screen. The theme is the data-theme attribute of <html>; it is watched.
 */
import { onBeforeUnmount, onMounted, ref, type Ref } from 'vue';
import { CHART_COLORS } from './series';

export interface ChartTheme {
  palette: string[];
  text: string;
  muted: string;
  grid: string;
  surface: string;
  border: string;
}

export function readChartTheme(root: HTMLElement = document.documentElement): ChartTheme {
  const style = getComputedStyle(root);
  const v = (name: string) => style.getPropertyValue(`--${name}`).trim();
  return {
    palette: Array.from({ length: CHART_COLORS }, (_, i) => v(`chart-${i + 1}`)),
    text: v('text'),
    muted: v('text-muted'),
    grid: v('border'),
    surface: v('surface'),
    border: v('border-strong'),
  };
}

/**
 * The light theme's colours whatever the screen shows, for a chart on paper (white, and the print
 * stylesheet's colours are the light theme's): read with the document's theme set to light for the moment
 * of reading, within one task, so nothing is drawn in between.
 */
export function paperChartTheme(root: HTMLElement = document.documentElement): ChartTheme {
  const theme = root.dataset.theme;
  if (theme !== 'dark') return readChartTheme(root);
  root.dataset.theme = 'light';
  try {
    return readChartTheme(root);
  } finally {
    root.dataset.theme = theme;
  }
}

/** The chart theme, read again whenever the document's theme changes. */
export function useChartTheme(): Ref<ChartTheme> {
  const theme = ref(readChartTheme());
  const observer = new MutationObserver(() => (theme.value = readChartTheme()));
  onMounted(() => observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] }));
  onBeforeUnmount(() => observer.disconnect());
  return theme;
}

/** Motion only for those who have not asked the system for less of it. */
export const reducedMotion = (): boolean => typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
