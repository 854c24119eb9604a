// @vitest-environment happy-dom
/**
 * What the first screen does not need waits for the first paint (src-renderer/src/composables/first-paint.ts):
 * true in the task after the next animation frame, or at the latest after a while in a page that paints none
 * (hidden).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

let frames: FrameRequestCallback[];

beforeEach(() => {
  vi.useFakeTimers();
  vi.resetModules();
  frames = [];
  vi.stubGlobal('requestAnimationFrame', (run: FrameRequestCallback) => frames.push(run));
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const load = async () => (await import('../../src-renderer/src/composables/first-paint')).useFirstPaint();

describe('useFirstPaint', () => {
  it('turns true in the task after the next frame, not in the frame itself', async () => {
    const painted = await load();
    expect(painted.value).toBe(false);
    expect(frames).toHaveLength(1);
    frames.shift()!(0);
    expect(painted.value).toBe(false);
    vi.advanceTimersByTime(0);
    expect(painted.value).toBe(true);
    // Asked again: the same answer, no new frame asked for.
    expect((await load()).value).toBe(true);
    expect(frames).toHaveLength(0);
  });

  it('turns true at the latest after 250 ms in a page that paints no frame', async () => {
    const painted = await load();
    vi.advanceTimersByTime(249);
    expect(painted.value).toBe(false);
    vi.advanceTimersByTime(1);
    expect(painted.value).toBe(true);
  });
});
