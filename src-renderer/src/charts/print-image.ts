/**
 * A chart drawn for paper: on a canvas of its own, out of sight, at the width of a printed page's text and
 * twice its resolution, without animation (so it is complete when the call returns), as a PNG data URL,
 * which an <img> shows at once (a data URL needs no load). The canvas goes right after.
 */
import { Chart as ChartJS, type ChartData, type ChartOptions } from 'chart.js';

/** CSS pixels of the image: about an A4 page's text width at 96 dpi, and a height that keeps bars readable. */
export const PAPER_CHART = { width: 680, height: 260, scale: 2 } as const;

export function printImage(kind: 'line' | 'bar', data: ChartData<'bar' | 'line'>, options: ChartOptions<'bar' | 'line'>): string {
  const box = document.createElement('div');
  box.setAttribute('aria-hidden', 'true');
  box.style.cssText = `position:fixed;left:-10000px;top:0;width:${PAPER_CHART.width}px;height:${PAPER_CHART.height}px`;
  const canvas = document.createElement('canvas');
  canvas.width = PAPER_CHART.width;
  canvas.height = PAPER_CHART.height;
  box.append(canvas);
  document.body.append(box);
  const chart = new ChartJS(canvas, {
    type: kind,
    data,
    options: {
      ...options,
      responsive: false,
      animation: false,
      devicePixelRatio: PAPER_CHART.scale,
      plugins: { ...options.plugins, tooltip: { enabled: false } },
    },
  });
  try {
    return chart.toBase64Image('image/png');
  } finally {
    chart.destroy();
    box.remove();
  }
}
