/**
 * The "Must show": a household's year through the browser shell against the real service and core.
 * 12 monthly budgets over 10 categories, a car with 25 refuelings (sent to the service), 6 other costs and
 * 3 reminders; the budget screen's year, the car's whole cost and the printed year's report (page.pdf() and
 * the print media) in both languages, with screenshots looked at; the figures on screen are held to numbers
 * worked out by hand from the seeded data below. The Data screen exports the car's costs for Excel in Czech
 * and imports them back into another car, saying they stay on this computer.
 */
/// <reference lib="dom" />
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { CAR_ID, YEAR_COSTS, yearOfRefuelings, yearReminders } from '../cars/car-year';
import { browserFor } from '../support/browser';
import {
  type AppPage,
  chainedTests,
  connectedApp,
  dismissSummary,
  go,
  loose,
  money,
  picture,
  poll,
  screenshot,
  SCREENSHOT_DIR,
  setAppearance,
  textOf,
  type Stack,
} from './stack';

const found = browserFor(import.meta.url);

let stack: Stack;
let app: AppPage;
const CZK = 203;
const YEAR = 2026;
const refuelings = yearOfRefuelings(YEAR);
/** The k-th budgeted category (k = 1..10) gets 500 + 100·k CZK every month of the year. */
const monthlyBudget = (k: number) => 500 + 100 * k;
let budgeted: number[] = [];
const NEW_CATEGORIES = ['Holidays', 'Gifts', 'Pets', 'Sport', 'Education'];

beforeAll(async () => {
  ({ stack, app } = await connectedApp());
  const { core } = stack;
  // The demo data spends in 5 top-level categories (the others are income, transfers or empty): five more.
  for (const name of NEW_CATEGORIES) await core.addCategory({ name, parentId: 0 });
  await core.saveCar({ carId: CAR_ID, name: 'Octavia' });
  await core.saveCar({ carId: 8, name: 'Fabia' });
  for (const r of refuelings) {
    await core.addRefueling({
      carId: CAR_ID,
      dateOfPurchase: r.dateOfPurchase,
      tachometer: r.tachometer,
      liter: r.liter,
      price: r.price,
      currency: CZK,
    });
  }
  expect((await core.sync()).error).toBeNull();
  // Only categories that spend: a budget on income or transfers compares nothing a household plans.
  const report = await core.getReport({ from: `${YEAR}-01-01`, to: `${YEAR}-12-31`, currency: CZK });
  const spending = new Set(report.categories.filter((c) => Number(c.expense) > 0 && Number(c.income) === 0).map((c) => c.categoryId));
  const categories = (await core.getBudgetMonth({ month: `${YEAR}-01`, currency: CZK })).rows.filter(
    (r) => r.depth === 0 && (spending.has(r.categoryId) || NEW_CATEGORIES.includes(r.name!)),
  );
  expect(categories.length, '10 categories that spend, to budget').toBeGreaterThanOrEqual(10);
  budgeted = categories.slice(0, 10).map((r) => r.categoryId);
  for (let m = 1; m <= 12; m++) {
    for (const [i, categoryId] of budgeted.entries()) {
      await core.setBudget({
        month: `${YEAR}-${String(m).padStart(2, '0')}`,
        categoryId,
        currency: CZK,
        amount: String(monthlyBudget(i + 1)),
      });
    }
  }
  for (const c of YEAR_COSTS) await core.addCarCost(c);
  for (const r of yearReminders(refuelings)) await core.addReminder(r);
  expect(await core.listOutbox()).toEqual([]);
});
chainedTests('failed-household-year-', () => ({ app, stack }));

// By hand, the budgets: one month is (500+100) + (500+200) + … + (500+1000) = 10·500 + 100·(1+…+10) = 5000 + 5500
// = 10,500 CZK; the year 12 · 10,500 = 126,000 CZK; the first category's year 12 · 600 = 7,200 CZK.
const MONTH_BUDGET = '10500';
const YEAR_BUDGET = '126000';
const FIRST_YEAR_BUDGET = '7200';
// By hand, the car's other costs: 8400 + 2440 + 1200.50 + 5890 + 321.60 (12.80 EUR × 25.125) + 350 = 18,602.10 CZK;
// tolls and vignettes 2440 + 321.60 = 2,761.60 CZK. Fuel: the 25 prices of yearOfRefuelings(2026), added below.
const OTHER_COSTS = '18602.1';
const TOLLS = '2761.6';

const WORDS = {
  en: {
    local: 'Kept on this computer only',
    year: 'Year',
    whole: 'Whole cost',
    printed: /Printed \S+ \d/,
    inCrowns: 'in CZK.',
    crowns: 'CZK',
  },
  cs: {
    local: 'Uloženo jen v tomto počítači',
    year: 'Rok',
    whole: 'Celkové náklady',
    printed: /Vytištěno \d/,
    inCrowns: 'v měně Kč.',
    crowns: 'Kč (CZK)',
  },
} as const;

/** A budget cell's amount: as money() without the currency (the table names it once). */
const figure = (value: string, lang: 'en' | 'cs') =>
  loose(new Intl.NumberFormat(lang, { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(value as `${number}`));

/** The figures of a budget cell: "budget / spent". */
const budgetOf = async (page: Page, month: string, column: number) =>
  (await textOf(page.locator(`[data-testid=budget-year] tbody tr[data-month="${month}"] td .budget-cell-figures`).nth(column))).split(
    ' / ',
  )[0];

describe.skipIf(!found)("a household's year", () => {
  for (const lang of ['en', 'cs'] as const) {
    it(`${lang}: the budget year, the car's whole cost and the printed report show the hand-worked figures`, async () => {
      const { page } = app;
      await setAppearance(page, lang, 'light');
      await dismissSummary(page);

      await go(page, `/budgets?view=year&month=${YEAR}-01&currency=${CZK}`);
      await page.getByTestId('budget-year').locator('tbody tr').first().waitFor();
      const ids = await page
        .locator('[data-testid=budget-year] thead th[data-category-id]')
        .evaluateAll((cols) => cols.map((c) => Number(c.getAttribute('data-category-id'))));
      expect(new Set(ids)).toEqual(new Set(budgeted));
      const first = ids.indexOf(budgeted[0]!);
      expect(await budgetOf(page, `${YEAR}-03`, 10)).toBe(figure(MONTH_BUDGET, lang));
      expect(await budgetOf(page, 'year', 10)).toBe(figure(YEAR_BUDGET, lang));
      expect(await budgetOf(page, 'year', first)).toBe(figure(FIRST_YEAR_BUDGET, lang));
      // A currency is named as everywhere: its sign with its code in a picker (format/amount.ts).
      expect(await page.locator('main select[name=currency] option:checked').textContent()).toBe(WORDS[lang].crowns);
      await screenshot(page, `household-budget-year-${lang}`, false, [WORDS[lang].local, WORDS[lang].year]);
      // Ten categories are wider than the window: scrolled to the year's total, the month column stays in view.
      const wrap = page.locator('.table-wrap:has([data-testid=budget-year])');
      await wrap.evaluate((w) => (w.scrollLeft = w.scrollWidth));
      expect(await wrap.evaluate((w) => w.scrollLeft), 'the year scrolls sideways').toBeGreaterThan(0);
      const [wrapBox, monthBox] = [
        await wrap.boundingBox(),
        await page.locator(`[data-testid=budget-year] tbody th`).first().boundingBox(),
      ];
      expect(Math.round(monthBox!.x), 'the month column in view').toBe(Math.round(wrapBox!.x));
      await picture(page, `household-budget-year-scrolled-${lang}`, true);

      await go(page, `/cars/${CAR_ID}`);
      await page.getByTestId('car-whole-cost').waitFor();
      const fuelCents = refuelings.reduce((s, r) => s + Math.round(Number(r.price) * 100), 0);
      const total = String((fuelCents + 1_860_210) / 100);
      await poll(() => textOf(page.locator('[data-stat=total] .stat-value'))).toBe(money(total, CZK, lang));
      expect(await textOf(page.locator('[data-kind=tolls]'))).toContain(money(TOLLS, CZK, lang));
      expect(await textOf(page.getByTestId('fuel-vs-other'))).toContain(money(OTHER_COSTS, CZK, lang));
      expect(await page.locator('[data-reminder-id]').count()).toBe(3);
      expect(await textOf(page.locator('[data-testid=car-whole-cost] .subtitle'))).toContain(WORDS[lang].inCrowns);
      await screenshot(page, `household-car-${lang}`, false, [WORDS[lang].whole, WORDS[lang].local]);

      await go(page, `/reports?from=${YEAR}-01-01&to=${YEAR}-12-31&currency=${CZK}`);
      const table = page.getByTestId('report-categories');
      await table.locator('tbody tr').first().waitFor();
      await poll(() => textOf(table.locator('tfoot [data-col=budget]'))).toBe(money(YEAR_BUDGET, CZK, lang));
      const pdf = await page.pdf({ format: 'A4', printBackground: true });
      mkdirSync(SCREENSHOT_DIR, { recursive: true });
      writeFileSync(join(SCREENSHOT_DIR, `household-report-${lang}.pdf`), pdf);
      expect(pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
      await page.emulateMedia({ media: 'print' });
      try {
        expect(await textOf(page.getByTestId('print-header'))).toMatch(WORDS[lang].printed);
        await screenshot(page, `household-report-print-${lang}`);
      } finally {
        await page.emulateMedia({ media: null });
      }
    }, 90_000);
  }

  it("the Data screen exports the car's costs for Excel in Czech and imports them into another car, kept here only", async () => {
    const { page } = app;
    await setAppearance(page, 'cs', 'light');
    await go(page, '/data');
    expect(await page.locator('[data-testid=csv-dialect]').first().inputValue()).toBe('excel-cs');
    expect(await textOf(page.locator('main'))).toContain('jen v tomto počítači');
    await page.locator('select[name=exportCar]').selectOption(String(CAR_ID));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-car-costs').click()]);
    const file = readFileSync(await download.path());
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = file.toString('utf8').slice(1).split('\r\n').filter(Boolean);
    expect(lines[0]).toBe('car_id;car_name;date;kind;odometer;amount;currency;rate;note;id');
    expect(lines).toHaveLength(7);
    expect(lines.find((l) => l.includes('EUR'))).toContain(';12,8;EUR;25,125;');

    const card = page.getByTestId('car-cost-import');
    await card.locator('select[name=costImportCar]').selectOption('8');
    await card.locator('input[name=costImportFile]').setInputFiles({ name: 'octavia.csv', mimeType: 'text/csv', buffer: file });
    await card.getByTestId('import-car-costs').click();
    await poll(() => textOf(page.locator('.toast').first())).toContain('6 nákladů přidáno.');
    expect((await stack.core.getCarWholeCost({ carId: 8 })).totals.other).toBe(OTHER_COSTS);
    expect(await stack.core.listOutbox()).toEqual([]);
    await setAppearance(page, 'en', 'light');
  });
});
