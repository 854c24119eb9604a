// @vitest-environment happy-dom
/** A chart's table of figures is built when it is first opened, and is there as the click that opens it ends. */
import { mount } from '@vue/test-utils';
import { describe, expect, it } from 'vitest';
import ChartFigure from '../../src-renderer/src/charts/ChartFigure.vue';
import type { ChartData } from '../../src-renderer/src/charts/series';
import { i18n } from '../../src-renderer/src/i18n';

const MONTHS = 120;
const data: ChartData = {
  labels: Array.from({ length: MONTHS }, (_, i) => `month ${i + 1}`),
  series: [{ label: 'Cost', color: 1, values: Array.from({ length: MONTHS }, (_, i) => String(i * 10)) }],
};

describe("a chart's table", () => {
  it('is built on the first opening, all its rows at once, and kept when closed', async () => {
    i18n.global.locale.value = 'en';
    const w = mount(ChartFigure, {
      props: { title: 'Cost by month', kind: 'bar', data, summary: 'Cost', labelHeading: 'Month', formatValue: (v) => String(v) },
      global: { plugins: [i18n], stubs: { ChartCanvas: true, RouterLink: true } },
    });
    expect(w.findAll('tbody tr')).toHaveLength(0);
    await w.get('summary').trigger('click');
    expect(w.findAll('tbody tr')).toHaveLength(MONTHS);
    expect(w.findAll('tbody tr').at(-1)!.text()).toBe('month 1201190');
    (w.get('details').element as HTMLDetailsElement).open = false;
    await w.get('details').trigger('toggle');
    expect(w.findAll('tbody tr')).toHaveLength(MONTHS);
    w.unmount();
  });
});
