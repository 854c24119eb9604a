/** Charts are drawn one per task, in the order asked: a screen of several charts never builds them all in one task. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { drawInTurn } from '../../src-renderer/src/charts/draw-queue';

afterEach(() => {
  vi.useRealTimers();
});

describe('the charts draw queue', () => {
  it('runs each draw in a task of its own, in turn, and starts again after running dry', () => {
    vi.useFakeTimers();
    const drawn: string[] = [];
    for (const chart of ['consumption', 'cost', 'price']) drawInTurn(() => drawn.push(chart));
    expect(drawn).toEqual([]);
    vi.advanceTimersToNextTimer();
    expect(drawn).toEqual(['consumption']);
    // A chart asked for meanwhile waits for those before it.
    drawInTurn(() => drawn.push('distance'));
    vi.advanceTimersToNextTimer();
    expect(drawn).toEqual(['consumption', 'cost']);
    vi.runAllTimers();
    expect(drawn).toEqual(['consumption', 'cost', 'price', 'distance']);

    drawInTurn(() => drawn.push('again'));
    vi.advanceTimersToNextTimer();
    expect(drawn.at(-1)).toBe('again');
  });
});
