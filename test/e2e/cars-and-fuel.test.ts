/**
 * Cars by name and honest fuel statistics, in English and Czech, through the browser shell against the
 * real service and core. "Add car" where there is no car opens the form; a car is named first and its
 * number checked with the service as it is typed, or picked from those this copy has refuelings of. A
 * mistyped odometer reading is flagged in the list, left out of the figures with a note, and counted on
 * request. Screenshots of the form and the statistics in both languages and both themes.
 */
/// <reference lib="dom" />
import { beforeAll, describe, expect, it } from 'vitest';
import { browserFor } from '../support/browser';
import {
  chainedTests,
  connectedApp,
  type AppPage,
  dismissSummary,
  go,
  poll,
  screenshot,
  setAppearance,
  syncNow,
  textOf,
  type Stack,
  unlabelledControls,
} from './stack';

const found = browserFor(import.meta.url);

let stack: Stack;
let app: AppPage;
/** A number the demo service has no refuelings of, for the statistics (every figure is ours). */
const STATS_CAR = 5;

beforeAll(async () => {
  ({ stack, app } = await connectedApp());
});
// The tests build on each other: after a failure the rest are skipped.
chainedTests('failed-cars-', () => ({ app, stack }));

const dialog = () => app.page.locator('dialog[open]');
const main = () => app.page.locator('main');
const stat = (name: string) => app.page.locator(`[data-stat=${name}] .stat-value`);

describe.skipIf(!found)('cars and fuel', () => {
  it('cars by name: "Add car" opens the form, a typed number is checked with the service, a number seen here can be picked', async () => {
    const { page } = app;
    const onService = await stack.soap.call('CarFuelList', { CarId: 1 });
    expect(onService.length).toBeGreaterThan(0);
    const newest = [...onService].sort((a, b) => (a.DateOfPurchase < b.DateOfPurchase ? 1 : -1))[0]!;
    const lastDay = new Date(`${newest.DateOfPurchase.slice(0, 10)}T12:00:00Z`).toLocaleDateString('en-US', {
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      timeZone: 'UTC',
    });

    await go(page, '/pump');
    await page.getByTestId('pump-add-car').click();
    await page.waitForURL(/#\/cars$/);
    await dialog().waitFor();
    // The name comes first and has the focus.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('carName');
    await page.keyboard.type('Octavia');
    const number = dialog().locator('input[name=carId]');
    const check = dialog().getByTestId('car-check');
    await number.fill('4242');
    await poll(() => textOf(check)).toBe('The service has no refuelings of car number 4242: a new car, or a mistyped number.');
    await number.fill('1');
    await poll(() => textOf(check)).toBe(
      `The service has ${onService.length} refuelings of this car, the last on ${lastDay} at ${newest.Tachometer.toLocaleString('en')} km.`,
    );
    await screenshot(page, 'car-form-check-en-light', true);
    await number.press('Enter');
    await poll(() => dialog().count()).toBe(0);
    const car = page.locator('[data-car-id="1"]');
    await poll(() => textOf(car)).toContain('Octavia');
    // Its refuelings come at once, without a sync, and the screen says so.
    await poll(() => textOf(page.locator('.toast'))).toContain(
      `Car “Octavia” added, with the ${onService.length} refuelings the service has of it.`,
    );
    await poll(() => textOf(car)).toContain(`Refuelings ${onService.length}`);

    // The service gone: a car added by its number is kept, and its refuelings are said to come with the next sync.
    await stack.service.stop();
    try {
      await page.getByTestId('add-car').click();
      await dialog().locator('input[name=carName]').fill('Fabia');
      await dialog().locator('input[name=carId]').fill('5');
      await dialog().locator('input[name=carId]').press('Enter');
      await poll(() => dialog().count()).toBe(0);
      await poll(() => textOf(page.locator('.toast'))).toContain('Car “Fabia” added. The service could not be asked for its refuelings');
      await poll(() => textOf(page.locator('[data-car-id="5"]'))).toContain('Its refuelings on the service come with the next sync.');
    } finally {
      await stack.service.start();
    }
    await syncNow(page);
    await dismissSummary(page);
    await poll(() => page.locator('[data-car-id="5"] [data-testid=car-awaiting-sync]').count()).toBe(0);
    await stack.core.removeCar({ carId: 5 });

    // Off the list and back: its number is offered from the refuelings kept here.
    await car.getByRole('button', { name: 'Remove Octavia' }).click();
    await dialog().getByRole('button', { name: 'Remove' }).click();
    await poll(() => page.locator('[data-car-id]').count()).toBe(0);
    await page.getByTestId('add-car').click();
    const seen = dialog().getByTestId('car-ids-seen');
    await poll(() => textOf(seen)).toContain(`No. 1: ${onService.length} refuelings kept here, the last on ${lastDay}`);
    expect(await seen.locator('input[value="1"]').isChecked()).toBe(true);
    await dialog().locator('input[name=carName]').fill('Octavia combi');
    await dialog().locator('input[name=carName]').press('Enter');
    await poll(() => textOf(page.locator('[data-car-id="1"]'))).toContain('Octavia combi');
    expect(await textOf(page.locator('[data-car-id="1"]'))).toContain(String(onService.length));
  });

  it('fuel statistics: a mistyped odometer is flagged, left out of the figures with a note, and counted on request', async () => {
    const { page } = app;
    await stack.core.saveCar({ carId: STATS_CAR, name: 'Superb' });
    // By hand: 500 km on 35 l (7), the mistyped 1,080 passed over with its 20 l, then (20 + 30) l over
    // 800 km (6.25), then 35 l over 500 km (7): 120 l over 1,800 km = 6.67 l/100 km. Counted, the
    // reading restarts the count: 100 l over 11,220 km = 0.89.
    const fills = [
      ['2026-03-01T08:00', 10_000, '40'],
      ['2026-03-08T08:00', 10_500, '35'],
      ['2026-03-15T08:00', 1_080, '20'],
      ['2026-03-22T08:00', 11_300, '30'],
      ['2026-03-29T08:00', 11_800, '35'],
    ] as const;
    for (const [date, tachometer, liter] of fills) {
      await stack.core.addRefueling({
        carId: STATS_CAR,
        dateOfPurchase: date,
        tachometer,
        liter,
        price: String(Number(liter) * 40),
        currency: 203,
        rate: '1',
        description: '',
      });
    }
    await go(page, `/cars/${STATS_CAR}/stats`);
    const note = page.getByTestId('flagged-note');
    await poll(() => textOf(note)).toContain('1 reading that cannot be right is left out of the distance, consumption and cost per 100 km');
    await poll(() => textOf(stat('consumption'))).toBe('6.67 l/100 km');
    expect(await textOf(stat('distance'))).toBe('1,800 km');
    const flagged = page.locator('[data-testid=fuel-fills] tbody tr[data-flag=odometer]');
    expect(await flagged.count()).toBe(1);
    expect(await textOf(flagged)).toContain('Doubtful');
    expect(await textOf(flagged.getByTestId('fill-flag'))).toBe(
      'This odometer reading does not fit the readings around it: it is left out of the distance and consumption.',
    );
    await screenshot(page, 'fuel-flagged-en-light');

    await page.getByTestId('flagged-toggle').click();
    await page.waitForURL(/flagged=count/);
    await poll(() => textOf(stat('consumption'))).toBe('0.89 l/100 km');
    expect(await textOf(note)).toContain('counted in the figures, as you asked');
    expect(await textOf(flagged.getByTestId('fill-flag'))).toContain('Counted anyway, as you asked.');
    // Counted, the wild reading makes the chain after it a second doubtful one.
    expect(await page.locator('[data-testid=fuel-fills] tbody tr[data-flag]').count()).toBe(2);
    await page.getByTestId('flagged-toggle').click();
    await poll(() => textOf(stat('consumption'))).toBe('6.67 l/100 km');
  });

  it('screenshots of the car form and the flagged statistics in both languages and both themes', async () => {
    const { page } = app;
    for (const lang of ['en', 'cs'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        await setAppearance(page, lang, theme);
        await go(page, '/cars');
        await page.getByTestId('add-car').click();
        await dialog().locator('input[name=carName]').fill('Fabia');
        await dialog().locator('input[name=carId]').fill('2');
        await poll(() => textOf(dialog().getByTestId('car-check'))).toMatch(/\d/);
        expect(await unlabelledControls(page)).toEqual([]);
        await screenshot(page, `car-form-${lang}-${theme}`, true);
        await page.keyboard.press('Escape');
        await go(page, `/cars/${STATS_CAR}/stats`);
        await page.getByTestId('flagged-note').waitFor();
        expect(await unlabelledControls(page)).toEqual([]);
        await screenshot(page, `fuel-flagged-${lang}-${theme}`);
      }
    }
    await setAppearance(page, 'en', 'light');
    expect(await textOf(main().locator('h1'))).toBe('Settings');
  }, 60_000);
});
