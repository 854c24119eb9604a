/**
 * The sync status while the service is unavailable, in Chromium through the browser shell: a reverse
 * proxy answers 503 with Retry-After while the service restarts; the header shows that the sync waits
 * and counts down to the next try, then the sync goes through and the pending count goes to 0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserFor } from '../support/browser';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { type AppPage, DEMO, loose, openApp, poll, realErrors, screenshot, setAppearance, startStack, textOf, type Stack } from './stack';

/** A Chromium-family browser: without one, this file is skipped (named at the end of the run), or fails in CI. */
const found = browserFor(import.meta.url);

const RETRY_AFTER_S = 3;

let stack: Stack;
let proxy: FaultProxy;
let app: AppPage;

beforeAll(async () => {
  stack = await startStack({ sync: { retry: { attempts: 5, backoffMs: 50, maxBackoffMs: 10_000 }, unavailableMs: 20_000 } });
  proxy = await startFaultProxy({ target: stack.service.url, retryAfterSeconds: RETRY_AFTER_S });
  await stack.core.connect({ baseUrl: proxy.url, ...DEMO });
  expect((await stack.core.sync()).error).toBeNull();
  app = await openApp(stack, 'en-US');
});
afterAll(async () => {
  await app?.context.close();
  await proxy?.close();
  await stack?.close();
});

describe.skipIf(!found)('sync while the service is unavailable', () => {
  it('shows that it waits, counts down to the next try, then succeeds with nothing left waiting', async () => {
    const { page } = app;
    await setAppearance(page, 'en', 'light');
    const accounts = (await stack.core.listAccounts({})).accounts.filter((a) => a.writable && a.currency === 203);
    await stack.core.transfer({
      sourceId: accounts[0]!.id,
      targetId: accounts[1]!.id,
      amount: '10',
      paymentDate: '2026-11-24T09:00',
      categoryId: 0,
      description: 'while it restarts',
    });
    await poll(() => textOf(page.getByTestId('queued-count'))).toMatch(/^1\b/);

    // The service restarts: its proxy answers 503 with Retry-After twice, then lets everything through.
    let unavailable = 2;
    proxy.choose(() => (unavailable-- > 0 ? 'status-503-retry-after' : 'pass'));
    await page.getByTestId('sync-button').click();

    const status = page.getByTestId('sync-status');
    await poll(() => textOf(status)).toMatch(/^The service is unavailable \(HTTP 503\); trying again in [1-4] s$/);
    const seen = new Set<string>();
    await poll(async () => {
      const text = await textOf(status);
      const m = /trying again in (\d) s/.exec(text);
      if (m) seen.add(m[1]!);
      return seen.size;
    }).toBeGreaterThanOrEqual(2);
    const seconds = [...seen].map(Number);
    expect(Math.max(...seconds)).toBeLessThanOrEqual(RETRY_AFTER_S + 1);
    expect(await page.getByTestId('cancel-sync').isEnabled()).toBe(true);
    expect(await textOf(page.getByTestId('connection-state'))).toBe('Unreachable');
    await screenshot(page, 'sync-waiting-en-light', true);

    // Then the service is back: the sync finishes and nothing waits any more.
    await poll(() => textOf(page.getByTestId('sync-summary'))).toContain('Sync finished');
    await poll(() => page.getByTestId('queued-count').count()).toBe(0);
    expect((await stack.core.getStatus()).outbox.pending).toBe(0);
    expect(proxy.counts.get('status-503-retry-after')).toBe(2);
    const onService = await stack.soap.call('TransactionListLast50_2', { AccountId: accounts[1]!.id });
    expect(onService.filter((t) => t.Description === 'while it restarts')).toHaveLength(1);
    expect(loose(await page.getByTestId('sync-summary').textContent())).toContain('1 change sent');
    expect(realErrors(app.errors)).toEqual([]);
  });
});
