// @vitest-environment happy-dom
/**
 * Work one piece per task: charts are drawn in the order asked, one per task, and a screen's parts mount one per
 * task after the screen, so neither builds everything in one task.
 */
import { mount } from '@vue/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defineComponent, h } from 'vue';
import { inTurn, usePartsInTurn } from '../../src-renderer/src/composables/in-turn';

afterEach(() => {
  vi.useRealTimers();
});

describe('work in turn', () => {
  it('runs each piece in a task of its own, in turn, and starts again after running dry', () => {
    vi.useFakeTimers();
    const drawn: string[] = [];
    for (const chart of ['consumption', 'cost', 'price']) inTurn(() => drawn.push(chart));
    expect(drawn).toEqual([]);
    vi.advanceTimersToNextTimer();
    expect(drawn).toEqual(['consumption']);
    // A chart asked for meanwhile waits for those before it.
    inTurn(() => drawn.push('distance'));
    vi.advanceTimersToNextTimer();
    expect(drawn).toEqual(['consumption', 'cost']);
    vi.runAllTimers();
    expect(drawn).toEqual(['consumption', 'cost', 'price', 'distance']);

    inTurn(() => drawn.push('again'));
    vi.advanceTimersToNextTimer();
    expect(drawn.at(-1)).toBe('again');
  });

  it("mounts a screen's parts one per task after the screen", async () => {
    vi.useFakeTimers();
    const Screen = defineComponent({
      setup() {
        const part = usePartsInTurn(3);
        return () =>
          h(
            'div',
            [0, 1, 2].filter(part).map((n) => h('section', { 'data-part': n })),
          );
      },
    });
    const parts = (w: ReturnType<typeof mount>) => w.findAll('section').map((s) => Number(s.attributes('data-part')));
    const w = mount(Screen);
    expect(parts(w)).toEqual([0]);
    vi.advanceTimersToNextTimer();
    await w.vm.$nextTick();
    expect(parts(w)).toEqual([0, 1]);
    vi.advanceTimersToNextTimer();
    await w.vm.$nextTick();
    expect(parts(w)).toEqual([0, 1, 2]);
  });
});
