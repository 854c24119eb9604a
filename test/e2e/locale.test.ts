/**
 * Words and formats of the user's language, in Chromium through the browser shell: a Czech user types a
 * date as 24.11.2026 in one field (two tab stops: the field and its calendar), picks one from a calendar
 * whose week starts on Monday, reads money as "1 234,50 Kč"; an English calendar starts on Sunday. At the
 * pump a refueling takes at most 21 keystrokes: focus in the odometer, three fields, Enter saves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserFor } from '../support/browser';
import {
  type AppPage,
  DEMO,
  go,
  money,
  openApp,
  poll,
  realErrors,
  screenshot,
  setAppearance,
  startStack,
  textOf,
  type Stack,
} from './stack';

/** A Chromium-family browser: without one, this file is skipped (named at the end of the run), or fails in CI. */
const found = browserFor(import.meta.url);

let stack: Stack;
let app: AppPage;
let bank: number;
let savings: number;

beforeAll(async () => {
  stack = await startStack();
  await stack.core.connect({ baseUrl: stack.service.url, ...DEMO });
  await stack.core.saveCar({ carId: 1, name: 'Octavia' });
  expect((await stack.core.sync()).error).toBeNull();
  await stack.core.setPreferences({ language: 'cs', theme: 'light' });
  const accounts = await stack.soap.listAccounts();
  bank = accounts.find((a) => a.Name === 'Běžný účet')!.Id;
  savings = accounts.find((a) => a.Name === 'Spořicí účet')!.Id;
  app = await openApp(stack, 'cs-CZ');
});
afterAll(async () => {
  await app?.context.close();
  await stack?.close();
});

/** How many times Tab stops inside the element that holds the focus now, before the focus leaves it. */
async function tabStopsWithin(selector: string): Promise<number> {
  const { page } = app;
  let stops = 1;
  for (;;) {
    await page.keyboard.press('Tab');
    const inside = await page.evaluate((s) => !!document.activeElement?.closest(s), selector);
    if (!inside) return stops;
    stops++;
    if (stops > 20) return stops;
  }
}

describe.skipIf(!found)('the language of the user', () => {
  it('Czech: a date typed as 24.11.2026 in one field of two tab stops, money as Kč, the write sent as typed', async () => {
    const { page } = app;
    await go(page, `/transfer?from=${bank}`);
    await poll(() => textOf(page.locator('main h1'))).toBe('Převod');
    const date = page.locator('input[name=paymentDate]');
    // The field says how to type a date, in the language's order.
    expect(await date.getAttribute('placeholder')).toBe('dd.mm.rrrr hh:mm');
    await date.focus();
    expect(await tabStopsWithin('.date-field')).toBeLessThanOrEqual(2);

    await page.locator('select[name=targetId]').selectOption(String(savings));
    await page.locator('input[name=amount]').fill('1 234,5');
    await date.fill('');
    await date.pressSequentially('24.11.2026 14:05');
    await poll(() => date.getAttribute('data-value')).toBe('2026-11-24T14:05');
    // A date that cannot be real is said so beside the field; nothing is queued.
    await date.fill('31.11.2026 14:05');
    await page.getByTestId('queue-transfer').click();
    await poll(() => textOf(page.locator('.field-invalid .field-error'))).toBe('Zadejte datum ve tvaru dd.mm.rrrr hh:mm.');
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('paymentDate');
    await date.fill('24.11.2026 14:05');
    await date.press('Tab');
    expect(await date.inputValue()).toBe('24.11.2026 14:05');
    // The account picker shows balances in Kč.
    expect(await page.locator(`select[name=sourceId] option[value="${bank}"]`).textContent()).toMatch(/\sKč$/);
    await page.locator('input[name=description]').fill('Datum psané česky');
    await page.getByTestId('queue-transfer').click();
    await poll(() => textOf(page.locator('.toast').last())).toContain('čeká na odeslání');
    const entry = (await stack.core.listOutbox()).find((e) => e.kind === 'transfer')!;
    expect(entry.input).toMatchObject({ paymentDate: '2026-11-24T14:05:00', amount: '1234.5', description: 'Datum psané česky' });
    await go(page, '/accounts');
    const balance = page.locator(`tr[data-account-id="${savings}"] [data-testid=balance]`);
    const before = (await stack.soap.listAccounts()).find((a) => a.Id === savings)!.Amount;
    await poll(() => textOf(balance)).toContain(money(String(Math.round((before + 1234.5) * 100) / 100), 203, 'cs'));
    expect(await textOf(balance)).toMatch(/ Kč/);
    expect(await textOf(balance)).not.toContain('CZK');
    expect(realErrors(app.errors)).toEqual([]);
  });

  it('a calendar to pick from: the week starts on Monday in Czech and on Sunday in English; by keyboard', async () => {
    const { page } = app;
    await go(page, '/transfer');
    const date = page.locator('input[name=paymentDate]');
    await date.fill('24.11.2026 9:30');
    await page.getByTestId('date-picker').click();
    const popup = page.locator('.date-popup');
    await popup.waitFor();
    // Intl's month name is lower case in Czech; the heading starts with a capital.
    expect(await textOf(popup.locator('.calendar-title'))).toBe('Listopad 2026');
    expect(await popup.locator('thead abbr').first().getAttribute('title')).toBe('pondělí');
    // The focus is on the day in the field; arrows move it, Enter picks it; the time stays.
    expect(await page.evaluate(() => (document.activeElement as HTMLElement).dataset.date)).toBe('2026-11-24');
    await screenshot(page, 'calendar-cs-light', true);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await poll(() => date.getAttribute('data-value')).toBe('2026-12-02T09:30');
    expect(await date.inputValue()).toBe('02.12.2026 09:30');
    expect(await popup.count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('date-picker');
    // Page Down a month, Esc closes without a change.
    await page.keyboard.press('Enter');
    await popup.waitFor();
    await page.keyboard.press('PageDown');
    expect(await textOf(popup.locator('.calendar-title'))).toBe('Leden 2027');
    await page.keyboard.press('Escape');
    await poll(() => popup.count()).toBe(0);
    expect(await date.getAttribute('data-value')).toBe('2026-12-02T09:30');

    await setAppearance(page, 'en', 'dark');
    await go(page, '/transfer');
    await date.fill('11/24/2026 2:05 PM');
    await poll(() => date.getAttribute('data-value')).toBe('2026-11-24T14:05');
    expect(await date.getAttribute('placeholder')).toBe('mm/dd/yyyy h:mm AM');
    await page.getByTestId('date-picker').click();
    expect(await popup.locator('thead abbr').first().getAttribute('title')).toBe('Sunday');
    expect(await textOf(popup.locator('.calendar-title'))).toBe('November 2026');
    await screenshot(page, 'calendar-en-dark', true);
    await page.keyboard.press('Escape');
    await setAppearance(page, 'cs', 'light');
  });

  it('at the pump: a refueling in at most 21 keystrokes, the focus in the odometer, Enter saves', async () => {
    const { page } = app;
    await go(page, '/accounts');
    // As a user gets there: by the navigation; the form puts the focus in the odometer itself.
    await page.locator('nav').getByRole('link', { name: 'U pumpy' }).click();
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('tachometer');
    const last = Math.max(...(await stack.soap.call('CarFuelList', { CarId: 1 })).map((r) => r.Tachometer));
    let keystrokes = 0;
    const type = async (text: string) => {
      await page.keyboard.type(text);
      keystrokes += text.length;
    };
    const press = async (key: string) => {
      await page.keyboard.press(key);
      keystrokes++;
    };
    await type(String(last + 612));
    await press('Tab');
    await type('41,27');
    await press('Tab');
    await type('1650,8');
    await press('Enter');
    await poll(() => textOf(page.locator('.toast').last())).toContain('Tankování auta Octavia čeká na odeslání');
    expect(keystrokes).toBeLessThanOrEqual(21);
    const refueling = (await stack.core.listOutbox()).find((e) => e.kind === 'addRefueling')!;
    expect(refueling.input).toMatchObject({ carId: 1, tachometer: last + 612, liter: '41.27', price: '1650.8', currency: 203 });
    // Ready for the next one: the odometer is empty and has the focus again.
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('tachometer');
    expect(await page.locator('input[name=tachometer]').inputValue()).toBe('');
    expect(realErrors(app.errors)).toEqual([]);
  });
});
