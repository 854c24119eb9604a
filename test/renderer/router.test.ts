// @vitest-environment happy-dom
/**
 * The screens' table (src-renderer/src/router.ts): the first screens (the accounts, connecting on a first run)
 * come with the app's script; every other screen is a chunk of its own, read when first opened, so that the
 * app's opening compiles only what the accounts need.
 */
import { createPinia, setActivePinia } from 'pinia';
import { describe, expect, it } from 'vitest';
import { createAppRouter } from '../../src-renderer/src/router';

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
});
