// @vitest-environment happy-dom
/**
 * The screens' table (src-renderer/src/router.ts): the first screens (the accounts, connecting on a first run)
 * come with the app's script; every other screen is a chunk of its own, read when first opened, so that the
 * app's opening compiles only what the accounts need.
 */
import { createPinia, setActivePinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import { createAppRouter, SCREEN_CHUNKS } from '../../src-renderer/src/router';

const FIRST_SCREENS = ['/accounts', '/connect'];

describe('the screens', () => {
  it('are read when first opened, but for the first screens', async () => {
    setActivePinia(createPinia());
    const records = createAppRouter()
      .getRoutes()
      .filter((r) => r.components?.default !== undefined);
    const lazy = records.filter((r) => typeof r.components!.default === 'function').map((r) => r.path);
    const bundled = records.filter((r) => typeof r.components!.default !== 'function').map((r) => r.path);
    expect(bundled.sort()).toEqual(FIRST_SCREENS);
    expect(lazy.length).toBeGreaterThanOrEqual(14);
    // Each chunk loads and holds a screen.
    for (const r of records.filter((x) => typeof x.components!.default === 'function')) {
      const loaded = (await (r.components!.default as () => Promise<{ default: object }>)()).default;
      expect(typeof loaded, r.path).toBe('object');
    }
  }, 120_000);

  it('are all read ahead in idle time once the first is shown, the charts on their own first', async () => {
    setActivePinia(createPinia());
    const lazy = createAppRouter()
      .getRoutes()
      .map((r) => r.components?.default)
      .filter((c) => typeof c === 'function');
    // Every screen read when first opened is read ahead, once.
    expect(new Set(SCREEN_CHUNKS.slice(1))).toEqual(new Set(lazy));
    expect(SCREEN_CHUNKS.length).toBe(new Set(lazy).size + 1);
    // First the charts' module alone: no screen's load compiles it together with that screen.
    const charts = (await (SCREEN_CHUNKS[0] as () => Promise<{ default: { __name?: string } }>)()).default;
    expect(charts.__name).toBe('ChartCanvas');
  }, 120_000);
});
