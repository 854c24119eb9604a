/**
 * axe-core (its own source, put into the page by the test: nothing is fetched) on every screen, its
 * dialogs (the keyboard shortcuts behind ? among them) and open menus, in both themes and both languages, in Chromium through the browser shell:
 * no serious or critical violation of WCAG 2.x A/AA, axe's best practices or its experimental rules
 * (label-content-name-mismatch among them).
 */
/// <reference lib="dom" />
import axe from 'axe-core';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword, TEST_HASH_PARAMS } from '../../src-service';
import { browserFor } from '../support/browser';
import { type AppPage, DEMO, everyScreen, go, openApp, poll, realErrors, setAppearance, settled, startStack, type Stack } from './stack';

/** A Chromium-family browser: without one, this file is skipped (named at the end of the run), or fails in CI. */
const found = browserFor(import.meta.url);

let stack: Stack;
let app: AppPage;
let bank: number;

beforeAll(async () => {
  stack = await startStack();
  app = await openApp(stack, 'en-US');
  bank = (await stack.soap.listAccounts()).find((a) => a.Name === 'Běžný účet')!.Id;
});
afterAll(async () => {
  await app?.context.close();
  await stack?.close();
});

type Violation = { id: string; impact: string | null; help: string; nodes: string[] };

/** Runs axe on the page as it is (axe put in once per page load, by evaluation: the app's CSP allows no inline script). */
async function violations(page: Page): Promise<Violation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source);
  await page.evaluate(() => document.fonts.ready);
  return page.evaluate(async () => {
    const result = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice', 'experimental'] },
      resultTypes: ['violations'],
    });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => ({
        id: v.id,
        impact: v.impact ?? null,
        help: v.help,
        nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`),
      }));
  });
}

const combos = [
  ['en', 'light'],
  ['en', 'dark'],
  ['cs', 'light'],
  ['cs', 'dark'],
] as const;

describe.skipIf(!found)('axe on every screen', () => {
  it('the first run, in both languages and both themes', async () => {
    const { page } = app;
    const found: string[] = [];
    for (const [lang, theme] of combos) {
      await page.emulateMedia({ colorScheme: theme });
      await page.locator(`input[name=first-run-language][value=${lang}]`).check({ force: true });
      await poll(() => page.evaluate(() => `${document.documentElement.lang} ${document.documentElement.dataset.theme}`)).toBe(
        `${lang} ${theme}`,
      );
      // With a test report shown too (credentials refused: an error alert).
      await page.locator('input[name=baseUrl]').fill(stack.service.url);
      await page.locator('input[name=clientKey]').fill(DEMO.clientKey);
      await page.locator('input[name=login]').fill(DEMO.login);
      await page.locator('input[name=password]').fill('wrong');
      await page.getByTestId('test-connection').click();
      await poll(() => page.getByTestId('test-report').getAttribute('data-state')).toBe('credentials-refused');
      for (const v of await violations(page)) found.push(`first-run ${lang} ${theme}: ${JSON.stringify(v)}`);
    }
    expect(found).toEqual([]);
    await page.locator('input[name=first-run-language][value=en]').check({ force: true });
    await page.locator('input[name=password]').fill(DEMO.password);
    await page.getByTestId('connect').click();
    await page.waitForURL(/#\/accounts$/);
    await poll(() => page.getByTestId('balance').count()).toBeGreaterThan(0);
    await page.emulateMedia({ colorScheme: 'light' });
  });

  it('every screen, its dialogs, the calendar and the open menu, in both languages and both themes', async () => {
    const { page } = app;
    await stack.core.saveCar({ carId: 1, name: 'Octavia' });
    expect((await stack.core.sync()).error).toBeNull();
    // A car's other costs and reminders (due, soon due and later), for the car's whole cost, its lists and the Cars screen's hint.
    // Days around the core's today, whatever the day the test runs.
    const { today } = await stack.core.listReminders({ carId: 1 });
    const daysOn = (n: number) => new Date(Date.parse(today) + n * 86_400_000).toISOString().slice(0, 10);
    await stack.core.addCarCost({ carId: 1, date: today, kind: 'service', odometer: 1000, amount: '4200', currency: 203, note: 'oil' });
    await stack.core.addCarCost({ carId: 1, date: today, kind: 'tolls', amount: '2440', currency: 203 });
    await stack.core.addReminder({ carId: 1, kind: 'inspection', dueDate: daysOn(-2), everyMonths: 24 });
    await stack.core.addReminder({ carId: 1, kind: 'insurance', dueDate: daysOn(10), everyMonths: 12, note: 'compare offers' });
    await stack.core.addReminder({ carId: 1, kind: 'oilChange', title: 'Oil', dueDate: daysOn(200) });
    const screens = everyScreen(bank);
    const found: string[] = [];
    const check = async (where: string) => {
      for (const v of await violations(page)) found.push(`${where}: ${JSON.stringify(v)}`);
    };
    for (const [lang, theme] of combos) {
      await setAppearance(page, lang, theme);
      // Something waiting to be sent, so that the outbox and the header show their states (the sync below sends it).
      await stack.core.addCategory({ name: `Cestování ${lang} ${theme}`, parentId: 0 });
      for (const [name, path, ready] of screens) {
        await go(page, path);
        await page.locator(ready).first().waitFor({ state: 'attached' });
        await settled(page);
        await check(`${name} ${lang} ${theme}`);
      }
      // The account dialog, the calendar of a date field, the password dialog, the sync's summary.
      await go(page, '/accounts');
      await page.getByTestId('add-account').click();
      await page.locator('dialog[open]').waitFor();
      await check(`account dialog ${lang} ${theme}`);
      await page.keyboard.press('Escape');
      // The keyboard shortcuts behind ? (the focus is back on the button that opened the account dialog).
      await page.locator('dialog[open]').waitFor({ state: 'detached' });
      await page.keyboard.press('?');
      await page.getByTestId('shortcuts-dialog').locator('h2').waitFor();
      await check(`shortcuts dialog ${lang} ${theme}`);
      await page.keyboard.press('Escape');
      // A car added by its name (the number picked or checked with the service), and a register row in full.
      await go(page, '/cars');
      await page.getByTestId('add-car').click();
      await page.locator('dialog[open]').waitFor();
      await check(`car form ${lang} ${theme}`);
      await page.keyboard.press('Escape');
      // A car's other cost and its reminder, each in its form (kept on this computer only).
      await go(page, '/cars/1');
      for (const [button, form] of [
        ['add-car-cost', 'car-cost-form'],
        ['add-reminder', 'reminder-form'],
      ] as const) {
        await page.getByTestId(button).click();
        await page.getByTestId(form).waitFor();
        await check(`${form} ${lang} ${theme}`);
        await page.keyboard.press('Escape');
        await page.locator('dialog[open]').waitFor({ state: 'detached' });
      }
      await go(page, `/accounts/${bank}`);
      const row = page.locator('[data-testid=transactions-table] tbody tr').first();
      await row.focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('transaction-detail').waitFor();
      await check(`transaction detail ${lang} ${theme}`);
      await page.keyboard.press('Escape');
      await go(page, '/transfer');
      await page.getByTestId('date-picker').click();
      await page.locator('.date-popup').waitFor();
      await check(`calendar ${lang} ${theme}`);
      await page.keyboard.press('Escape');
      await page.evaluate(() => document.querySelector<HTMLButtonElement>('[data-testid=sync-button]')?.click());
      await page.getByTestId('sync-summary').waitFor();
      await check(`sync summary ${lang} ${theme}`);
      await page.getByTestId('sync-summary').getByRole('button').last().click();
    }
    // Credentials refused: the badge, the banner and the password dialog.
    setPassword(stack.service.dataFile, DEMO.login, 'changed elsewhere', { hashParams: TEST_HASH_PARAMS });
    try {
      for (const [lang, theme] of combos) {
        await setAppearance(page, lang, theme);
        await go(page, '/accounts');
        await page.getByTestId('sync-button').click();
        await poll(() => page.getByTestId('connection-state').getAttribute('data-state')).toBe('credentials-refused');
        await check(`credentials refused ${lang} ${theme}`);
        await page.getByTestId('sync-summary').getByTestId('enter-password').click();
        await page.getByTestId('password-dialog').waitFor();
        await check(`password dialog ${lang} ${theme}`);
        await page.keyboard.press('Escape');
        await page.getByTestId('sync-summary').getByRole('button').last().click();
      }
    } finally {
      setPassword(stack.service.dataFile, DEMO.login, DEMO.password, { hashParams: TEST_HASH_PARAMS });
    }
    // A narrow window: the navigation as a menu, open.
    await page.setViewportSize({ width: 700, height: 600 });
    for (const [lang, theme] of combos) {
      await setAppearance(page, lang, theme);
      await page.getByTestId('nav-toggle').click();
      await page.locator('#main-nav').waitFor();
      await check(`menu ${lang} ${theme}`);
      await page.keyboard.press('Escape');
    }
    await page.setViewportSize({ width: 1280, height: 860 });
    await setAppearance(page, 'en', 'light');
    expect(found).toEqual([]);
    expect(realErrors(app.errors)).toEqual([]);
  }, 180_000);
});
