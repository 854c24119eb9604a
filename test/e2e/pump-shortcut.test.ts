/**
 * One key to the pump, in Chromium through the browser shell: from the register screen a refueling is
 * booked with the service down in at most 20 keystrokes, counted: `p` opens "At the pump" with the focus
 * in the odometer and the car used last preselected (remembered across a reload), three fields, Enter
 * saves; the refueling waits in the outbox once and reaches the service once. The list of shortcuts
 * behind `?` is a real dialog in both languages: a heading, the focus kept in it, Esc closes it and the
 * focus goes back.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserFor } from '../support/browser';
import {
  type AppPage,
  DEMO,
  go,
  openApp,
  poll,
  realErrors,
  screenshot,
  setAppearance,
  startStack,
  syncNow,
  textOf,
  type Stack,
} from './stack';

/** A Chromium-family browser: without one, this file is skipped (named at the end of the run), or fails in CI. */
const found = browserFor(import.meta.url);

let stack: Stack;
let app: AppPage;

beforeAll(async () => {
  stack = await startStack();
  await stack.core.connect({ baseUrl: stack.service.url, ...DEMO });
  await stack.core.saveCar({ carId: 1, name: 'Octavia' });
  await stack.core.saveCar({ carId: 2, name: 'Fabia' });
  expect((await stack.core.sync()).error).toBeNull();
  await stack.core.setPreferences({ language: 'en', theme: 'light' });
  app = await openApp(stack, 'en-US');
});
afterAll(async () => {
  await app?.context.close();
  await stack?.close();
});

/**
 * The page's keyboard with every keystroke counted: a typed text counts its characters ("52.3" is 4), a
 * pressed key 1, and so does a chord ("Alt+P": its keys are held together, one stroke of the hand).
 */
function countingKeyboard(page: Page) {
  let count = 0;
  return {
    get count() {
      return count;
    },
    async type(text: string) {
      await page.keyboard.type(text);
      count += [...text].length;
    },
    async press(key: string) {
      await page.keyboard.press(key);
      count++;
    },
  };
}

const focusedName = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('name') ?? document.activeElement?.tagName);
const refuelingsOnService = async (carId: number, tachometer: number) =>
  (await stack.soap.call('CarFuelList', { CarId: carId })).filter((r) => r.Tachometer === tachometer).length;

describe.skipIf(!found)('one key to the pump', () => {
  it('a refueling from the register screen with the service down in at most 20 keystrokes, sent exactly once', async () => {
    const { page } = app;
    // Fabia, the second car of the list, used last at the pump (chosen there by mouse, not counted).
    const last = Math.max(...(await stack.soap.call('CarFuelList', { CarId: 2 })).map((r) => r.Tachometer));
    await go(page, '/pump');
    await page.locator('select[name=carId]').selectOption('2');
    await page.locator('input[name=tachometer]').fill(String(last + 480));
    await page.locator('input[name=liter]').fill('40');
    await page.locator('input[name=price]').fill('1600');
    await page.getByTestId('save-refueling').click();
    await poll(() => textOf(page.locator('.toast').last())).toContain('Refueling of Fabia waiting to be sent.');
    expect((await syncNow(page)).toLowerCase()).not.toContain('error');
    await poll(() => stack.core.listOutbox().then((o) => o.length)).toBe(0);

    // The service goes away; the app is reloaded (the car remembered in the preferences, not in the page).
    await stack.service.stop();
    await page.reload();
    // The app's first screen (the pump, where the page was) before going on: an address changed while the router's
    // first navigation runs is replaced by that navigation's end, as in any vue-router app.
    await page.waitForFunction(() => document.querySelector('main')?.dataset.route === '/pump' && document.querySelector('main h1'));
    await go(page, '/register');
    await page.locator('[data-testid=transactions-table] tbody tr').first().waitFor();

    const keys = countingKeyboard(page);
    await keys.press('p');
    await poll(() => focusedName(page)).toBe('tachometer');
    expect(page.url()).toMatch(/#\/pump$/);
    expect(await page.locator('select[name=carId]').inputValue()).toBe('2');
    const odometer = last + 1093;
    await keys.type(String(odometer));
    await keys.press('Tab');
    await keys.type('52.3');
    await keys.press('Tab');
    await keys.type('2091');
    await keys.press('Enter');
    await poll(() => textOf(page.locator('.toast').last())).toContain('Refueling of Fabia waiting to be sent.');
    expect(keys.count).toBeLessThanOrEqual(20);

    // Waiting once in the outbox, as typed; the form is ready for the next one, the focus in the odometer.
    const queued = (await stack.core.listOutbox()).filter((e) => e.kind === 'addRefueling');
    expect(queued.map((e) => e.input)).toEqual([expect.objectContaining({ carId: 2, tachometer: odometer, liter: '52.3', price: '2091' })]);
    await poll(() => focusedName(page)).toBe('tachometer');
    expect(await page.locator('input[name=tachometer]').inputValue()).toBe('');

    // The service is back: the sync sends it once, and a second sync sends nothing more.
    await stack.service.start();
    await syncNow(page);
    await poll(() => stack.core.listOutbox().then((o) => o.length)).toBe(0);
    expect(await refuelingsOnService(2, odometer)).toBe(1);
    await syncNow(page);
    expect(await refuelingsOnService(2, odometer)).toBe(1);
    expect(realErrors(app.errors)).toEqual([]);
  });

  it('Alt+P reaches the pump from inside a field, where p is only typed; on the pump it puts the focus back in the odometer', async () => {
    const { page } = app;
    await go(page, '/search');
    const field = page.locator('main input[type=text], main input[type=search]').first();
    await field.focus();
    await page.keyboard.press('p');
    expect(await field.inputValue()).toBe('p');
    expect(page.url()).toMatch(/#\/search$/);
    await page.keyboard.press('Alt+P');
    await poll(() => focusedName(page)).toBe('tachometer');
    expect(page.url()).toMatch(/#\/pump$/);
    // The screen names its keys, from the same table.
    expect(await textOf(page.getByTestId('pump-shortcut-hint'))).toBe('From any screen: P or Alt+P. All keyboard shortcuts: ?');
    await screenshot(page, 'pump-shortcut-hint', true);
    await page.locator('main h1').focus();
    await page.keyboard.press('p');
    await poll(() => focusedName(page)).toBe('tachometer');
    expect(realErrors(app.errors)).toEqual([]);
  });

  for (const [lang, title, pump] of [
    ['en', 'Keyboard shortcuts', 'Record a refueling (At the pump)'],
    ['cs', 'Klávesové zkratky', 'Zapsat tankování (U pumpy)'],
  ] as const) {
    it(`? lists the shortcuts in a dialog (${lang}): a heading, the focus kept inside, Esc closes it and the focus goes back`, async () => {
      const { page } = app;
      await setAppearance(page, lang, 'light');
      await go(page, '/register');
      const row = page.locator('[data-testid=transactions-table] tbody tr').first();
      await row.focus();
      await page.keyboard.press('?');
      const dialog = page.locator('dialog[open]');
      await dialog.waitFor();
      expect(await dialog.getAttribute('data-testid')).toBe('shortcuts-dialog');
      expect(await textOf(dialog.getByRole('heading', { level: 2 }))).toBe(title);
      expect(await page.getByRole('dialog', { name: title }).count()).toBe(1);
      expect(await textOf(dialog.locator('tr[data-shortcut=pump]'))).toContain(pump);
      for (let i = 0; i < 4; i++) {
        expect(await page.evaluate(() => !!document.activeElement?.closest('dialog[open]'))).toBe(true);
        await page.keyboard.press('Tab');
      }
      // Its own keys are off while it is open: p does not leave for the pump behind it.
      await page.keyboard.press('p');
      expect(page.url()).toMatch(/#\/register$/);
      await screenshot(page, `shortcuts-${lang}`, true);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      expect(await row.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(realErrors(app.errors)).toEqual([]);
    });
  }
});
