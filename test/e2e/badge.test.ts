/**
 * The badge that knows, in Chromium through the browser shell against the real service: with the service
 * stopped, the window gaining focus turns the badge to unreachable without a sync; back, the check made
 * every minute while it says so turns it to connected. The page's clock is Playwright's, moved by hand.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserFor } from '../support/browser';
import { DEMO, openApp, poll, realErrors, type AppPage, startStack, type Stack } from './stack';

/** A Chromium-family browser: without one, this file is skipped (named at the end of the run), or fails in CI. */
const found = browserFor(import.meta.url);

let stack: Stack;
let app: AppPage;

beforeAll(async () => {
  // The core's own once-a-minute is measured on this machine's clock, not the page's: off here, the page's holds.
  stack = await startStack({ reachabilityIntervalMs: 0 });
  await stack.core.connect({ baseUrl: stack.service.url, ...DEMO });
  expect((await stack.core.sync()).error).toBeNull();
});
afterAll(async () => {
  await app?.context.close();
  await stack?.close();
});

describe.skipIf(!found)('the badge that knows', () => {
  it('stopped: unreachable once the window gains focus, no sync; back: connected within the minute, no sync', async () => {
    const synced = (await stack.core.getStatus()).lastSyncAt;
    app = await openApp(stack, 'en-US', 'light', { clock: true });
    const { page } = app;
    const badge = page.getByTestId('connection-state');
    await poll(() => badge.getAttribute('data-state')).toBe('connected');

    await stack.service.stop();
    try {
      // Within the minute of the check made on opening, a focus asks nothing; after it, it does.
      await page.evaluate(() => window.dispatchEvent(new Event('focus')));
      expect(await badge.getAttribute('data-state')).toBe('connected');
      await page.clock.fastForward(61_000);
      await page.evaluate(() => window.dispatchEvent(new Event('focus')));
      await poll(() => badge.getAttribute('data-state')).toBe('unreachable');
    } finally {
      await stack.service.start();
    }
    // Back: the minute's check while the badge says unreachable finds it.
    await page.clock.fastForward(61_000);
    await poll(() => badge.getAttribute('data-state')).toBe('connected');
    const after = await stack.core.getStatus();
    expect(after.lastSyncAt).toBe(synced);
    expect(after.exchange).toMatchObject({ outcome: 'connected', via: 'check' });
    expect(realErrors(app.errors)).toEqual([]);
  });
});
