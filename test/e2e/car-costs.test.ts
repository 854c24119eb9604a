/**
 * The whole cost of a car and its reminders through the browser shell against the real service and core:
 * the car (25 refuelings sent to the service, 6 other costs, 3 reminders) shows the core's figures
 * in both languages, with screenshots of the whole-cost view; a cost is added, changed and deleted through
 * its form, a reminder marked done, and the Cars screen names what is due; all said to be kept on this
 * computer only, and none of it queued.
 */
/// <reference lib="dom" />
import { beforeAll, describe, expect, it } from 'vitest';
import { CAR_ID, YEAR_COSTS, yearOfRefuelings, yearReminders } from '../cars/car-year';
import { browserFor } from '../support/browser';
import { chainedTests, connectedApp, type AppPage, go, money, poll, screenshot, setAppearance, textOf, type Stack } from './stack';

const found = browserFor(import.meta.url);

let stack: Stack;
let app: AppPage;
const refuelings = yearOfRefuelings(2026);

beforeAll(async () => {
  ({ stack, app } = await connectedApp());
});
chainedTests('failed-car-costs-', () => ({ app, stack }));

const stat = (name: string) => textOf(app.page.locator(`[data-stat=${name}] .stat-value`));

describe.skipIf(!found)("a car's whole cost and reminders", () => {
  it("the issue's car: 25 refuelings, 6 other costs and 3 reminders, shown as the core computes them, in both languages", async () => {
    const { page } = app;
    await stack.core.saveCar({ carId: CAR_ID, name: 'Octavia' });
    for (const r of refuelings) {
      await stack.core.addRefueling({
        carId: CAR_ID,
        dateOfPurchase: r.dateOfPurchase,
        tachometer: r.tachometer,
        liter: r.liter,
        price: r.price,
        currency: 203,
      });
    }
    expect((await stack.core.sync()).error).toBeNull();
    for (const c of YEAR_COSTS) await stack.core.addCarCost(c);
    for (const r of yearReminders(refuelings)) await stack.core.addReminder(r);
    expect(await stack.core.listOutbox()).toEqual([]);

    await go(page, `/cars/${CAR_ID}`);
    await page.getByTestId('car-whole-cost').waitFor();
    const whole = await stack.core.getCarWholeCost({ carId: CAR_ID });
    // By hand: the year's fuel, and 8400 + 2440 + 1200.50 + 5890 + 321.60 (12.80 EUR × 25.125) + 350 = 18602.10 of other costs.
    const fuel = refuelings.reduce((s, r) => s + Math.round(Number(r.price) * 100), 0);
    expect(whole.totals).toEqual({ fuel: String(fuel / 100), other: '18602.1', total: String((fuel + 1_860_210) / 100) });
    await poll(() => stat('total')).toBe(money(whole.totals.total, 203));
    expect(await stat('perMonth')).toBe(money(whole.perMonth!.total, 203));
    expect(await textOf(page.locator('[data-kind=tolls]'))).toBe(`Tolls and vignettes 2 ${money('2761.6', 203)}`);
    const reminders = await stack.core.listReminders({ carId: CAR_ID });
    const words = { due: 'Due', soon: 'Soon due', later: 'Later', done: 'Done' };
    for (const r of reminders.reminders) {
      expect(await textOf(page.locator(`[data-reminder-id="${r.id}"] [data-reminder-state]`))).toBe(words[r.state]);
    }
    await screenshot(page, 'car-whole-cost-en', false, [
      'Whole cost',
      'Fuel against other costs',
      'Kept on this computer only',
      'STK',
      'Oil change',
    ]);
    await setAppearance(page, 'cs', 'light');
    await go(page, `/cars/${CAR_ID}`);
    await page.getByTestId('car-whole-cost').waitFor();
    await poll(() => stat('total')).toBe(money(whole.totals.total, 203, 'cs'));
    await screenshot(page, 'car-whole-cost-cs', false, [
      'Celkové náklady',
      'Palivo proti ostatním nákladům',
      'Uloženo jen v tomto počítači',
      'Mýto a dálniční známky',
      'Výměna oleje',
    ]);
    await setAppearance(page, 'en', 'light');
  });

  it('a cost added, changed and deleted through its form; a reminder marked done; nothing queued', async () => {
    const { page } = app;
    await go(page, `/cars/${CAR_ID}`);
    const before = await stack.core.getCarWholeCost({ carId: CAR_ID });
    await page.getByTestId('add-car-cost').click();
    const form = page.getByTestId('car-cost-form');
    await form.locator('select[name=kind]').selectOption('parking');
    await form.locator('input[name=amount]').fill('150');
    await form.locator('input[name=note]').fill('Airport');
    await form.locator('button[type=submit]').click();
    await form.waitFor({ state: 'detached' });
    const row = page.locator('[data-testid=car-costs-table] tr', { hasText: 'Airport' });
    await poll(() => textOf(row)).toContain('Parking');
    await poll(() => stat('total')).toBe(money(String(Number(before.totals.total) + 150), 203));

    await row.getByRole('button', { name: /Edit cost of/ }).click();
    await form.locator('input[name=note]').fill('Airport, a week');
    await form.locator('button[type=submit]').click();
    await form.waitFor({ state: 'detached' });
    await poll(() => textOf(page.getByTestId('car-costs-table'))).toContain('Airport, a week');
    await page
      .locator('[data-testid=car-costs-table] tr', { hasText: 'Airport, a week' })
      .getByRole('button', { name: /Delete cost of/ })
      .click();
    await page.locator('dialog[open]').getByRole('button', { name: 'Delete' }).click();
    await poll(() => textOf(page.getByTestId('car-costs-table'))).not.toContain('Airport');
    await poll(() => stat('total')).toBe(money(before.totals.total, 203));

    const due = (await stack.core.listReminders({ carId: CAR_ID })).reminders.find((r) => r.state === 'due')!;
    await page
      .locator(`[data-reminder-id="${due.id}"]`)
      .getByRole('button', { name: /^Mark .* done$/ })
      .click();
    await poll(() => textOf(page.locator('.toast'))).toMatch(/done; next due/);
    const listed = await stack.core.listReminders({ carId: CAR_ID });
    expect(listed.reminders.find((r) => r.id === due.id)!.lastDone).toBe(listed.today);
    expect(await stack.core.listOutbox()).toEqual([]);
  });

  it('the Cars screen names the reminders due and soon due', async () => {
    const { page } = app;
    const due = await stack.core.listDueReminders();
    await go(page, '/cars');
    const card = page.locator(`[data-car-id="${CAR_ID}"]`);
    await card.waitFor();
    for (const state of ['due', 'soon'] as const) {
      const n = due.filter((r) => r.state === state).length;
      const hint = card.getByTestId(`car-reminders-${state}`);
      if (n === 0) expect(await hint.count()).toBe(0);
      else {
        expect(await textOf(hint)).toMatch(
          state === 'due' ? new RegExp(`^Due ${n} reminders? due:`) : new RegExp(`^Soon due ${n} reminders? soon due:`),
        );
      }
    }
    await screenshot(page, 'cars-reminders-en', false, ['Octavia']);
  });

  it("every table of a car's screen fits its card at 800x600 and 1024x768 in both languages, the longest refueling note wrapping", async () => {
    const { page } = app;
    const [newest] = await stack.core.listRefuelings({ carId: CAR_ID });
    const { id, carId, dateOfPurchase, tachometer, liter, price, currency, rate } = newest!;
    const description = 'Shell D1 exit 90 towards Brno, windscreen washer and tyres checked';
    await stack.core.editRefueling({ id, carId, dateOfPurchase, tachometer, liter, price, currency, rate, description });
    const size = page.viewportSize()!;
    try {
      for (const lang of ['en', 'cs'] as const) {
        await setAppearance(page, lang, 'light');
        for (const [width, height] of [
          [800, 600],
          [1024, 768],
        ] as const) {
          await page.setViewportSize({ width, height });
          await go(page, `/cars/${CAR_ID}`);
          await page.getByTestId('refuelings-table').locator('tbody tr').first().waitFor();
          const overflowing = await page
            .locator('main .table-wrap')
            .evaluateAll((wraps) =>
              wraps
                .filter((w) => w.scrollWidth > w.clientWidth + 1)
                .map((w) => `${w.querySelector('table')?.dataset.testid}: ${w.scrollWidth} > ${w.clientWidth}`),
            );
          expect(overflowing, `${lang} ${width}x${height}`).toEqual([]);
          // The table's top just under the app's header: its column names and the newest row with its long note.
          await page
            .getByTestId('refuelings-table')
            .evaluate((t) => window.scrollTo(0, t.getBoundingClientRect().top + window.scrollY - 120));
          await screenshot(page, `car-refuelings-${lang}-${width}`, true);
        }
      }
    } finally {
      await page.setViewportSize(size);
      await setAppearance(page, 'en', 'light');
    }
  });
});
