/**
 * The screens beyond the service, in English, through the browser shell against the real service and core:
 * fuel statistics with partial fills and a refueling abroad (figures computed by hand), reports whose
 * categories drill into the search with the same sums, the search over the whole local history, CSV
 * exports and the refueling import (a round trip), backup and restore with the outbox. The last test
 * photographs the four screens in both languages and both themes.
 */
/// <reference lib="dom" />
import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CategoryReport } from '../../src-shared/app-api';
import { browserFor } from '../support/browser';
import { TEST_TIME_ZONE } from '../support/service';
import {
  type AppPage,
  chainedTests,
  connectedApp,
  brokenLists,
  money,
  go,
  poll,
  screenshot,
  setAppearance,
  textOf,
  type Stack,
  unlabelledControls,
} from './stack';

/** A Chromium-family browser: without one, this file is skipped (named at the end of the run), or fails in CI. */
const found = browserFor(import.meta.url);

let stack: Stack;
let app: AppPage;
/** The car of the statistics: a number the service has no refuelings for, so every figure is ours. */
const CAR = 3;

beforeAll(async () => {
  ({ stack, app } = await connectedApp());
  await stack.core.saveCar({ carId: CAR, name: 'Superb' });
});
// The tests build on each other: after a failure the rest would only time out, so they are skipped.
chainedTests('failed-insights-', () => ({ app, stack }));

const main = () => app.page.locator('main');
const h1 = () => app.page.locator('main h1');
const dialog = () => app.page.locator('dialog[open]');
const stat = (name: string) => app.page.locator(`[data-stat=${name}] .stat-value`);

/** Today on the test's wall clock, as the screens (in the same zone) see it. */
const today = () => new Intl.DateTimeFormat('sv', { timeZone: TEST_TIME_ZONE, dateStyle: 'short' }).format(new Date());
const monthStart = (back: number) => {
  const [y, m] = today().split('-').map(Number) as [number, number];
  const i = y * 12 + m - 1 - back;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}-01`;
};

/** Clicks what starts a download and hands back the file's name and bytes. */
async function download(page: Page, click: () => Promise<void>): Promise<{ name: string; bytes: Buffer; path: string }> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: readFileSync(path), path };
}

const csvLines = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((l) => l !== '');

interface Fill {
  date: string;
  odometer: number;
  liter: string;
  price: string;
  currency?: 'CZK' | 'EUR';
  rate?: string;
  partial?: boolean;
}

/** Records a refueling at the pump, every field typed as a user does. */
async function refuel(page: Page, f: Fill): Promise<void> {
  await go(page, `/pump?car=${CAR}`);
  await page.locator('select[name=carId]').selectOption(String(CAR));
  await page.locator('input[name=tachometer]').fill(String(f.odometer));
  await page.locator('input[name=liter]').fill(f.liter);
  await page.locator('select[name=currency]').selectOption({ label: f.currency === 'EUR' ? '€ (EUR)' : 'CZK' });
  await page.locator('input[name=price]').fill(f.price);
  await page.locator('input[name=dateOfPurchase]').fill(f.date);
  await page.locator('details:has(input[name=rate])').evaluate((d) => ((d as HTMLDetailsElement).open = true));
  await page.locator('input[name=rate]').fill(f.rate ?? '1');
  await page.locator('input[name=partial]').setChecked(f.partial ?? false);
  await page.getByTestId('save-refueling').click();
  await poll(() => textOf(page.locator('.toast').last())).toContain('Refueling of Superb waiting to be sent');
  await page.locator('.toast button').evaluateAll((buttons) => buttons.forEach((b) => (b as HTMLButtonElement).click()));
}

describe.skipIf(!found)('beyond the service', () => {
  it('fuel statistics: a partial fill carried into the next full one, a fill abroad at its rate, marks toggled', async () => {
    const { page } = app;
    await go(page, `/cars/${CAR}/stats`);
    await poll(() => textOf(h1())).toBe('Fuel statistics of Superb');
    await poll(() => textOf(main().locator('.empty-state'))).toContain('No refuelings yet');

    // Hand-computed: the first fill only starts the count; 20 l (partial) + 30 l over 800 km close the
    // first chain (6.25 l/100 km, 2,050 CZK → 256.25 per 100 km); 35 l over 500 km close the second
    // (7.00 l/100 km; 30 EUR × 25 = 750 CZK → 150.00 per 100 km). Together 85 l over 1,300 km: 6.54 l/100 km,
    // 2,800 CZK → 215.38 per 100 km; 4,400 CZK for 125 l: 35.20 CZK a litre.
    const fills: Fill[] = [
      { date: '2026-01-04T09:15', odometer: 10_000, liter: '40', price: '1600' },
      { date: '2026-01-18T17:40', odometer: 10_300, liter: '20', price: '820', partial: true },
      { date: '2026-02-01T08:05', odometer: 10_800, liter: '30', price: '1230' },
      { date: '2026-02-21T12:30', odometer: 11_300, liter: '35', price: '30', currency: 'EUR', rate: '25' },
    ];
    for (const f of fills) await refuel(page, f);

    await go(page, `/cars/${CAR}`);
    const carRows = page.locator('[data-testid=refuelings-table] tbody tr');
    await poll(() => carRows.count()).toBe(4);
    expect(await textOf(carRows.nth(2))).toContain('Partial');
    await page.getByTestId('car-stats-link').click();
    await poll(() => textOf(h1())).toBe('Fuel statistics of Superb');
    await poll(() => textOf(stat('consumption'))).toBe('6.54 l/100 km');
    expect(await textOf(stat('costPer100Km'))).toBe('CZK 215.38');
    expect(await textOf(stat('pricePerLiter'))).toBe('CZK 35.20/l');
    expect(await textOf(stat('distance'))).toBe('1,300 km');
    expect(await textOf(stat('liters'))).toBe('125.00 l');
    expect(await textOf(stat('cost'))).toBe('CZK 4,400.00');
    expect(await textOf(stat('refuelings'))).toBe('4');
    expect(await textOf(page.locator('[data-stat=refuelings] .stat-sub'))).toBe('01/04/2026 – 02/21/2026');

    // The fills, newest first.
    const rows = page.locator('[data-testid=fuel-fills] tbody tr');
    const cell = (row: number, col: string) => textOf(rows.nth(row).locator(`[data-col=${col}]`));
    expect(await cell(0, 'consumption')).toBe('7.00 l/100 km CZK 150.00 per 100 km');
    expect(await cell(0, 'cost')).toBe('CZK 750.00 €30.00 at rate 25');
    expect(await cell(0, 'pricePerLiter')).toBe('CZK 21.429/l');
    expect(await cell(1, 'consumption')).toBe('6.25 l/100 km CZK 256.25 per 100 km');
    expect(await cell(1, 'distance')).toBe('+500 km');
    expect(await cell(2, 'consumption')).toBe('—');
    expect(await textOf(rows.nth(3).getByTestId('fill-note'))).toBe('First refueling: the fuel in the tank before it is unknown.');
    expect(await rows.nth(2).getByTestId('partial-toggle').isChecked()).toBe(true);

    // Each chart names its range for those who cannot see it, and has the same figures as a table.
    const consumption = page.getByTestId('chart-consumption');
    expect(await consumption.locator('canvas').getAttribute('aria-label')).toBe('From 6.25 l/100 km to 7.00 l/100 km, 2 fills.');
    await consumption.locator('summary').click();
    expect(await consumption.locator('tbody tr').allInnerTexts()).toEqual(['02/01/2026\t6.25 l/100 km', '02/21/2026\t7.00 l/100 km']);
    const spend = page.getByTestId('chart-monthly-cost');
    await spend.locator('summary').click();
    expect((await spend.locator('tbody tr').allInnerTexts()).map((r) => r.replace(/\s+/g, ' '))).toEqual([
      'Jan 2026 CZK 2,420.00',
      'Feb 2026 CZK 1,980.00',
    ]);

    // The fill abroad marked partial: nothing closes after the first chain any more.
    await rows.nth(0).getByTestId('partial-toggle').check();
    await poll(() => textOf(stat('consumption'))).toBe('6.25 l/100 km');
    expect(await textOf(stat('costPer100Km'))).toBe('CZK 256.25');
    expect(await cell(0, 'consumption')).toBe('—');
    await rows.nth(0).getByTestId('partial-toggle').uncheck();
    await poll(() => textOf(stat('consumption'))).toBe('6.54 l/100 km');

    // A period without refuelings says so; the period lives in the address.
    await page.locator('select[name=period]').selectOption('thisYear');
    await poll(() => page.evaluate(() => location.hash)).toBe(`#/cars/${CAR}/stats?period=thisYear`);
    await page.locator('select[name=period]').selectOption('custom');
    await page.locator('input[name=from]').fill('2026-02-01');
    await page.locator('input[name=to]').fill('2026-02-28');
    await poll(() => textOf(stat('refuelings'))).toBe('2');
    await page.locator('input[name=from]').fill('2025-03-01');
    await page.locator('input[name=to]').fill('2025-03-31');
    await poll(() => textOf(main().locator('.empty-state'))).toContain('No refuelings in this period');
    await main().getByRole('button', { name: 'Show all time' }).click();
    await poll(() => textOf(stat('refuelings'))).toBe('4');
  });

  it('reports: the figures of the data, a category drilled into the search with the same sums, Back to the report', async () => {
    const { page } = app;
    await go(page, '/reports');
    await poll(() => textOf(h1())).toBe('Reports');
    const expected: CategoryReport = await stack.core.getReport({ from: monthStart(11), to: today(), includeTransfers: false });
    const czk = (v: string) => money(v, 203);
    await poll(() => textOf(stat('income'))).toBe(czk(expected.total.income));
    expect(await textOf(stat('expense'))).toBe(czk(expected.total.expense));
    expect(await textOf(stat('net'))).toBe(money(expected.total.net, 203, 'en', true));
    expect(await textOf(page.getByTestId('period-covered'))).toMatch(/^\d{2}\/01\/\d{4} – /);
    const table = page.getByTestId('report-categories');
    const total = table.locator('tfoot tr');
    expect(await textOf(total.locator('[data-col=expense]'))).toBe(czk(expected.total.expense));
    // Every category of the report is a row, largest expense first, as the core ordered them.
    expect(
      await table.locator('tbody[data-category-id]').evaluateAll((l) => l.map((e) => Number(e.getAttribute('data-category-id')))),
    ).toEqual(expected.categories.map((c) => c.categoryId));

    // A category opens into its months; its name leads to its transactions in the search.
    const housing = expected.categories.find((c) => c.name === 'Bydlení')!;
    const row = table.locator(`tbody[data-category-id="${housing.categoryId}"]`);
    await row.getByRole('button', { name: 'Show the months of Bydlení' }).click();
    expect(await row.locator('tr.sub-row').count()).toBe(expected.months.length);
    await row.getByTestId('drill').click();
    await page.waitForURL(/#\/search\?/);
    expect(new URL(page.url().replace('#/', '')).searchParams.get('category')).toBe(String(housing.categoryId));
    await poll(() => textOf(page.getByTestId('search-count'))).toBe(`${housing.count} transactions found`);
    expect(await textOf(page.locator(`.search-sum[data-currency="203"]`))).toBe(
      `${housing.net.startsWith('-') ? '' : '+'}${czk(housing.net)} in ${housing.count} transactions`,
    );
    expect(await page.locator('input[name=from]').getAttribute('data-value')).toBe(monthStart(11));
    expect(await page.locator('input[name=categoryId]').inputValue()).toBe('Bydlení');
    // The search keeps to what the report covered, says so, and can be widened.
    expect(await textOf(page.getByTestId('search-scope'))).toMatch(
      /^Only the report's accounts: .+ · transfers left out, as in the report Search all$/,
    );

    await page.goBack();
    await poll(() => textOf(h1())).toBe('Reports');
    await poll(() => textOf(stat('expense'))).toBe(czk(expected.total.expense));

    // Another period and currency: the report follows and keeps them in the address.
    await page.locator('select[name=period]').selectOption('thisMonth');
    const month = await stack.core.getReport({ from: monthStart(0), to: today(), includeTransfers: false });
    await poll(() => textOf(stat('expense'))).toBe(czk(month.total.expense));
    await page.locator('select[name=currency]').selectOption({ label: '€ (EUR)' });
    await poll(() => textOf(stat('income'))).toMatch(/^[−+]?€\d/);
    expect(await page.evaluate(() => location.hash)).toBe('#/reports?period=thisMonth&cur=978');
    await page.locator('select[name=currency]').selectOption({ label: 'CZK' });
    // Transfers between one's own accounts are left out unless asked for.
    await page.locator('input[name=includeTransfers]').check();
    const withTransfers = await stack.core.getReport({ from: monthStart(0), to: today(), currency: 203, includeTransfers: true });
    await poll(() => textOf(stat('expense'))).toBe(czk(withTransfers.total.expense));
  });

  it('search: the whole local history, filters narrowing it, paging, the filters in the address', async () => {
    const { page } = app;
    await go(page, '/search');
    const all = await stack.core.searchTransactions({ limit: 1 });
    expect(all.total).toBeGreaterThan(100);
    const count = page.getByTestId('search-count');
    await poll(() => textOf(count)).toBe(`${all.total.toLocaleString('en')} transactions found`);
    const rows = page.locator('[data-testid=search-results] tbody tr');
    expect(await rows.count()).toBe(50);
    const range = page.getByTestId('page-range');
    expect(await textOf(range)).toBe(`1–50 of ${all.total}`);
    await page.getByTestId('page-older').click();
    await poll(() => textOf(range)).toBe(`51–100 of ${all.total}`);
    expect(await page.evaluate(() => location.hash)).toBe('#/search?page=2');

    // Text: a new filter starts from the first page.
    await page.locator('input[name=text]').fill('Nájem');
    const rent = await stack.core.searchTransactions({ text: 'Nájem' });
    await poll(() => textOf(count)).toBe(`${rent.total} transactions found`);
    expect(await page.evaluate(() => location.hash)).toBe('#/search?q=N%C3%A1jem');
    expect((await rows.allInnerTexts()).every((r) => r.includes('Nájem'))).toBe(true);

    // The size of the amount, whichever its sign, and a direction.
    await page.locator('input[name=text]').fill('');
    await page.locator('input[name=minAmount]').fill('14,000');
    await page.locator('input[name=maxAmount]').fill('15000');
    await page.locator('select[name=direction]').selectOption('out');
    const big = await stack.core.searchTransactions({ minAmount: '14000', maxAmount: '15000', direction: 'out' });
    expect(big.total).toBeGreaterThan(0);
    await poll(() => textOf(count)).toBe(`${big.total} transactions found`);
    const amounts = await page.locator('[data-testid=search-results] [data-col=amount]').allInnerTexts();
    expect(amounts.every((a) => /^−CZK 1[45],\d{3}\.\d{2}$/.test(a.replace(/\s+/g, ' ').trim()))).toBe(true);
    expect(await textOf(page.locator('.search-sum[data-currency="203"]'))).toBe(
      `${money(big.sums[0]!.total, 203, 'en', true)} in ${big.total} transactions`,
    );

    // One account and the dates of a month; then nothing matches; then everything again.
    await page.getByTestId('clear-filters').click();
    await poll(() => textOf(count)).toBe(`${all.total.toLocaleString('en')} transactions found`);
    const bank = (await stack.core.listAccounts({})).accounts.find((a) => a.name === 'Běžný účet')!;
    await page.locator('select[name=accountId]').selectOption(String(bank.id));
    await page.locator('input[name=from]').fill(monthStart(1));
    const inRange = await stack.core.searchTransactions({ accountId: bank.id, from: monthStart(1) });
    await poll(() => textOf(count)).toBe(`${inRange.total} transactions found`);
    expect(
      new Set((await page.locator('[data-testid=search-results] tbody td:nth-child(3)').allInnerTexts()).map((t) => t.trim())),
    ).toEqual(new Set(['Běžný účet']));
    await page.locator('input[name=text]').fill('zzz nothing at all');
    await poll(() => textOf(main().locator('.empty-state'))).toContain('No transaction matches these filters');

    // The export takes the filters shown: the rows of the file are the matches.
    await page.locator('input[name=text]').fill('');
    await poll(() => textOf(count)).toBe(`${inRange.total} transactions found`);
    const file = await download(page, () => page.getByTestId('export-transactions').click());
    expect(file.name).toMatch(/\.csv$/);
    const lines = csvLines(file.bytes.toString('utf8'));
    expect(lines.length).toBe(inRange.total + 1);
    expect(lines.slice(1).every((l) => l.includes('Běžný účet') || l.includes(String(bank.id)))).toBe(true);
    // Numbers without grouping and with a point, whatever the language.
    expect(lines.slice(1).every((l) => !/\d,\d{3}\.\d/.test(l))).toBe(true);
  });

  it('data: CSV exports, a refueling import round trip with a preview and duplicates, backup and restore with the outbox', async () => {
    const { page } = app;
    await go(page, '/data');
    await poll(() => textOf(h1())).toBe('Export and backup');

    // Refuelings of one car: a header and a row per refueling.
    await page.locator('select[name=exportCar]').selectOption(String(CAR));
    const exported = await download(page, () => page.getByTestId('export-refuelings').click());
    const text = exported.bytes.toString('utf8');
    expect(csvLines(text).length).toBe(5);

    // The same file into the same car: every row is already there.
    const importCard = page.getByTestId('refueling-import');
    await importCard.locator('select[name=importCar]').selectOption(String(CAR));
    await importCard.locator('input[name=importFile]').setInputFiles({ name: 'superb.csv', mimeType: 'text/csv', buffer: exported.bytes });
    const counts = page.getByTestId('import-counts');
    await poll(() => textOf(counts)).toBe('4 rows 0 ready 4 duplicates');
    expect(await page.getByTestId('queue-import').isDisabled()).toBe(true);

    // Into another car: every row is ready, and queued they are the same refuelings (partial mark too).
    await stack.core.saveCar({ carId: 4, name: 'Kodiaq' });
    await go(page, '/accounts');
    await go(page, '/data');
    await importCard.locator('select[name=importCar]').selectOption('4');
    await importCard.locator('input[name=importFile]').setInputFiles({ name: 'superb.csv', mimeType: 'text/csv', buffer: exported.bytes });
    await poll(() => textOf(counts)).toBe('4 rows 4 ready');
    await page.getByTestId('queue-import').click();
    await poll(() => textOf(page.locator('.toast').last())).toContain('4 refuelings waiting to be sent.');
    const strip = (list: Awaited<ReturnType<Stack['core']['listRefuelings']>>) =>
      list.map((r) => [r.dateOfPurchase, r.tachometer, r.liter, r.price, r.currency, r.rate, r.partial]);
    expect(strip(await stack.core.listRefuelings({ carId: 4 }))).toEqual(strip(await stack.core.listRefuelings({ carId: CAR })));

    // A file of another app: columns by other names are mapped by hand; a bad row and a repeated one are marked.
    const foreign = [
      'When;Km;Fuel;Paid',
      '2026-03-10 08:00;11800;31.5;1290.50',
      '2026-03-10 08:00;11800;31.5;1290.50',
      'yesterday;12300;30;1200',
      '2026-03-28 18:00;12300;28.25;1150',
    ].join('\n');
    await importCard.locator('select[name=importCar]').selectOption(String(CAR));
    await importCard
      .locator('input[name=importFile]')
      .setInputFiles({ name: 'other.csv', mimeType: 'text/csv', buffer: Buffer.from(foreign) });
    await importCard.locator('select[name=map-dateOfPurchase]').waitFor();
    for (const [field, column] of [
      ['dateOfPurchase', 0],
      ['tachometer', 1],
      ['liter', 2],
      ['price', 3],
    ] as const) {
      await importCard.locator(`select[name=map-${field}]`).selectOption(String(column));
    }
    await poll(() => textOf(counts)).toBe('4 rows 2 ready 1 with problems 1 duplicate');
    const preview = page.getByTestId('import-preview');
    expect(await preview.locator('tr[data-line="3"]').getAttribute('data-state')).toBe('duplicate');
    expect(await textOf(preview.locator('tr[data-line="3"]'))).toContain('Same as line 2');
    expect(await preview.locator('tr[data-line="4"]').getAttribute('data-state')).toBe('problem');
    await screenshot(page, 'data-import-preview-en-light');
    await importCard.locator('input[name=onlyFlagged]').check();
    expect(await preview.locator('tbody tr').count()).toBe(2);
    await page.getByTestId('queue-import').click();
    await poll(() => textOf(page.locator('.toast').last())).toContain('2 refuelings waiting to be sent. 2 rows left out.');
    expect((await stack.core.listRefuelings({ carId: CAR })).length).toBe(6);

    // A backup: the SQLite file itself, with the counts it holds.
    const queued = (await stack.core.listOutbox()).length;
    expect(queued).toBeGreaterThan(0);
    const backup = await download(page, () => page.getByTestId('create-backup').click());
    expect(backup.bytes.subarray(0, 16).toString('latin1')).toBe('SQLite format 3\0');
    const made = page.getByTestId('backup-made');
    await poll(() => textOf(made.locator('[data-count=pendingWrites]'))).toBe(String(queued));
    const refuelings = Number(await textOf(made.locator('[data-count=refuelings]')));

    // Changes after the backup are gone after the restore; what was pending then is pending again.
    await stack.core.addRefueling({
      carId: 4,
      dateOfPurchase: '2026-04-02T10:00:00',
      tachometer: 20_000,
      liter: '10',
      price: '400',
      currency: 203,
      rate: '1',
      description: 'after the backup',
    });
    await stack.core.saveCar({ carId: 5, name: 'Felicia' });
    await page.locator('input[name=backupFile]').setInputFiles(backup.path);
    await dialog().waitFor();
    expect(await textOf(dialog())).toContain('Replace the local copy?');
    expect(await textOf(dialog().getByTestId('restore-pending-warning'))).toContain(
      `${queued + 1} changes waiting to be sent now will be replaced`,
    );
    await dialog().getByRole('button', { name: 'Replace with the backup' }).click();
    const restored = page.getByTestId('restored');
    await poll(() => textOf(restored.locator('[data-count=pendingWrites]'))).toBe(String(queued));
    expect(Number(await textOf(restored.locator('[data-count=refuelings]')))).toBe(refuelings);
    expect((await stack.core.listOutbox()).length).toBe(queued);
    expect((await stack.core.listRefuelings({ carId: 4 })).some((r) => r.description === 'after the backup')).toBe(false);
    expect((await stack.core.listCars()).map((c) => c.carId)).not.toContain(5);
    await poll(() => textOf(page.getByTestId('queued-count'))).toContain(String(queued));
    // The restore kept a safety copy of what it replaced: listed with its date, newest first.
    const safety = page.getByTestId('safety-copies');
    await poll(() => safety.locator('dd').first().textContent()).toBe('before a restore');
    expect(await safety.locator('time').first().getAttribute('datetime')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    await screenshot(page, 'data-restored-en-light');
  });

  it('screenshots of the statistics, reports, search and data screens in both languages and both themes', async () => {
    const { page } = app;
    const screens: [string, string, string][] = [
      ['fuel-stats', `/cars/${CAR}/stats`, '[data-testid=fuel-fills] tbody tr'],
      ['reports', '/reports', '[data-testid=report-categories] tbody tr'],
      ['search', '/search?q=N%C3%A1jem', '[data-testid=search-results] tbody tr'],
      ['data', '/data', '[data-testid=backup]'],
    ];
    for (const lang of ['en', 'cs'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        await setAppearance(page, lang, theme);
        for (const [name, path, ready] of screens) {
          await go(page, path);
          await page.locator(ready).first().waitFor({ state: 'attached' });
          expect(await unlabelledControls(page), name).toEqual([]);
          expect(await brokenLists(page), name).toEqual([]);
          await screenshot(page, `${name}-${lang}-${theme}`);
        }
      }
    }
    await setAppearance(page, 'en', 'light');
  }, 60_000);
});
