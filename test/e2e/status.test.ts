/**
 * Status that tells the truth, in Chromium through the browser shell against the real service: Test
 * connection checks the credentials (a wrong password is named as refused), the first sync shows its
 * progress instead of an empty list, a sync says what it received or that nothing was new, the badge
 * follows the last real exchange (unreachable after the service stops, credentials refused after its
 * password changes), and the banner's action takes the new password and the sync goes through.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword, TEST_HASH_PARAMS } from '../../src-service';
import { browserFor } from '../support/browser';
import { startLatencyProxy, type LatencyProxy } from '../support/latency-proxy';
import {
  type AppPage,
  DEMO,
  dismissSummary,
  go,
  openApp,
  poll,
  realErrors,
  screenshot,
  startStack,
  syncNow,
  textOf,
  type Stack,
} from './stack';

/** A Chromium-family browser: without one, this file is skipped (named at the end of the run), or fails in CI. */
const found = browserFor(import.meta.url);

let stack: Stack;
let app: AppPage;
/** A round trip between the app and the service, so that the first sync lasts long enough to be seen. */
let link: LatencyProxy;

beforeAll(async () => {
  // The service's own throttle stays on: it slows a login after 3 failed logins and locks it at 10, and the
  // wrong passwords below (one failed login each: a sync checks the credentials with one request first) stay under it.
  stack = await startStack();
  link = await startLatencyProxy(stack.service.url, 120);
  app = await openApp(stack, 'en-US');
});
afterAll(async () => {
  await app?.context.close();
  await link?.close();
  await stack?.close();
});

const badge = () => app.page.getByTestId('connection-state');
const summary = () => app.page.getByTestId('sync-summary');

describe.skipIf(!found)('status that tells the truth', () => {
  it('test connection: a wrong password is refused, the right one connects; the first sync shows its progress, never "No accounts yet"', async () => {
    const { page } = app;
    await page.locator('input[name=baseUrl]').fill(link.url);
    await page.locator('input[name=clientKey]').fill(DEMO.clientKey);
    await page.locator('input[name=login]').fill(DEMO.login);
    await page.locator('input[name=password]').fill('not the password');
    await page.getByTestId('test-connection').click();
    const report = page.getByTestId('test-report');
    await poll(() => report.getAttribute('data-state')).toBe('credentials-refused');
    expect(await textOf(report.getByTestId('report-title'))).toBe('The service refused the client key, login or password');
    expect(await report.getAttribute('class')).toContain('alert-error');
    await screenshot(page, 'connect-credentials-refused-en-light');

    await page.locator('input[name=password]').fill(DEMO.password);
    await page.getByTestId('test-connection').click();
    await poll(() => report.getAttribute('data-state')).toBe('connected');
    expect(await textOf(report.getByTestId('report-title'))).toBe('Connected: the service accepted the credentials');
    expect(await textOf(report.getByTestId('report-operations'))).toBe('15 of 15 found');

    // Everything the accounts screen shows while the first sync runs.
    await page.evaluate(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        const main = document.querySelector('main');
        if (main) seen.push(main.textContent ?? '');
      }).observe(document.body, { childList: true, subtree: true, characterData: true });
    });
    await page.getByTestId('connect').click();
    await page.waitForURL(/#\/accounts$/);
    await page.getByTestId('first-sync').waitFor();
    await poll(() => textOf(page.getByTestId('first-sync'))).toMatch(
      /Receiving your data from the service .*(Receiving data: \d+ of \d+|Syncing with the service)/,
    );
    await screenshot(page, 'first-sync-en-light', true);
    await poll(() => textOf(summary())).toContain('Sync finished');
    expect(await textOf(summary())).toMatch(/\d+ transactions received/);
    const seen = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(seen.some((text) => text.includes('Receiving your data from the service'))).toBe(true);
    expect(seen.filter((text) => text.includes('No accounts yet'))).toEqual([]);
    await poll(() => page.getByTestId('balance').count()).toBeGreaterThan(0);
    await poll(() => textOf(badge())).toBe('Connected');
    expect(await textOf(page.getByTestId('last-sync'))).toBe('Synced just now');
  });

  it('a sync with nothing new says so; one with news names what it received', async () => {
    const { page } = app;
    const up = await syncNow(page);
    expect(up).toContain('Sync finished');
    expect(up).toContain('Up to date: nothing new on either side');
    expect(up).not.toMatch(/received/);

    // One transfer on the service: two transactions, one on each account; nothing else is new.
    const accounts = (await stack.soap.listAccounts()).filter(
      (a) => a.IsActive && !a.Locked && a.Currency === 203 && a.UserAccountPermission !== 1,
    );
    await stack.soap.call('AddTranferToOtherAccount', {
      Amount: 12,
      Description: 'from elsewhere',
      Id_SourceAccount: accounts[0]!.Id,
      Id_TargetAccount: accounts[1]!.Id,
      Id_Category: 0,
      PaymentDate: '2026-11-24T08:00:00',
    });
    const news = await syncNow(page);
    expect(news).toContain('2 transactions received');
    expect(news).not.toMatch(/Up to date|changed|sent/);
    await dismissSummary(page);
  });

  it('a stopped service turns the badge to unreachable at the next attempt, with the time of the last success; back, it is connected again', async () => {
    const { page } = app;
    await poll(() => textOf(badge())).toBe('Connected');
    await stack.service.stop();
    try {
      // Nothing has tried the service yet: the badge does not guess.
      expect(await textOf(badge())).toBe('Connected');
      expect(await syncNow(page)).toContain('Sync stopped: the service is unavailable');
      await poll(() => textOf(badge())).toBe('Unreachable');
      expect(await badge().getAttribute('data-state')).toBe('unreachable');
      expect(await textOf(page.getByTestId('last-sync'))).toBe('Last connected just now');
      await screenshot(page, 'badge-unreachable-en-light', true);
      await dismissSummary(page);
      // A test of the stored connection is an attempt too.
      await go(page, '/settings');
      await page.getByRole('button', { name: 'Test connection' }).click();
      await poll(() => page.getByTestId('test-report').getAttribute('data-state')).toBe('unreachable');
      expect(await textOf(badge())).toBe('Unreachable');
    } finally {
      await stack.service.start();
    }
    await page.getByRole('button', { name: 'Test connection' }).click();
    await poll(() => page.getByTestId('test-report').getAttribute('data-state')).toBe('connected');
    await poll(() => textOf(badge())).toBe('Connected');
    expect(await textOf(page.getByTestId('last-sync'))).toBe('Synced just now');
  });

  it('a password changed on the service: credentials refused, never "connected" beside the error; the banner takes the new password and the sync goes through', async () => {
    const { page } = app;
    await go(page, '/accounts');
    setPassword(stack.service.dataFile, DEMO.login, 'a new password', { hashParams: TEST_HASH_PARAMS });
    try {
      const refused = await syncNow(page);
      expect(refused).toContain('Sync stopped: the service did not accept your credentials');
      await poll(() => textOf(badge())).toBe('Credentials refused');
      expect(await textOf(page.getByTestId('last-sync'))).toBe('Last connected just now');
      expect(await textOf(page.locator('header'))).not.toMatch(/Connected|Synced/);
      await screenshot(page, 'credentials-refused-en-light', true);

      // The banner's action asks for the password; a wrong one is refused again, the dialog comes back.
      await summary().getByTestId('enter-password').click();
      const dialog = page.getByTestId('password-dialog');
      await dialog.waitFor();
      expect(await textOf(dialog)).toContain('The service did not accept the password');
      await dialog.locator('input[name=password]').fill('still wrong');
      await dialog.getByTestId('password-sync').click();
      await poll(() => textOf(summary())).toContain('did not accept your credentials');
      await summary().getByTestId('enter-password').click();
      await dialog.locator('input[name=password]').fill('a new password');
      await dialog.locator('input[name=password]').press('Enter');
      await poll(() => textOf(summary())).toContain('Sync finished');
      await poll(() => textOf(badge())).toBe('Connected');
      expect(await textOf(page.getByTestId('last-sync'))).toBe('Synced just now');
      // The new password is kept: the next sync needs no dialog.
      expect(await syncNow(page)).toContain('Up to date');
      expect(await page.getByTestId('password-dialog').count()).toBe(0);

      // The badge itself offers the same action while the credentials are refused.
      setPassword(stack.service.dataFile, DEMO.login, DEMO.password, { hashParams: TEST_HASH_PARAMS });
      expect(await syncNow(page)).toContain('did not accept your credentials');
      await dismissSummary(page);
      await poll(() => textOf(badge())).toBe('Credentials refused');
      await badge().click();
      await dialog.locator('input[name=password]').fill(DEMO.password);
      await dialog.getByTestId('password-sync').click();
      await poll(() => textOf(badge())).toBe('Connected');
      await poll(() => textOf(summary())).toContain('Sync finished');
    } finally {
      setPassword(stack.service.dataFile, DEMO.login, DEMO.password, { hashParams: TEST_HASH_PARAMS });
    }
    expect(realErrors(app.errors)).toEqual([]);
  });
});
