/**
 * Exports that open right, from the screens: the Czech screens offer Excel in Czech first, whose file
 * (BOM, semicolons, decimal commas) the import's preview reads back saying so, and the report's export.
 *
 * Reports on paper: the reports and a car's fuel statistics printed in both languages (Czech in the dark
 * theme, which paper does not take), through the browser shell against the real service and core. Each
 * is made a PDF by Chromium's page.pdf() as a print dialog makes one (the page's beforeprint draws the
 * charts for paper), checked for its pages and its chart images, and laid out in the print media for a
 * picture a person looks at (test-output/screenshots/print-*.png, the PDFs beside them): no navigation,
 * header, filters or buttons; the printed header with what the report covers and when it was printed;
 * charts as images, not canvases; the totals after the tables.
 */
/// <reference lib="dom" />
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { browserFor } from '../support/browser';
import { type AppPage, chainedTests, connectedApp, go, poll, screenshot, SCREENSHOT_DIR, setAppearance, textOf, type Stack } from './stack';

const found = browserFor(import.meta.url);

let stack: Stack;
let app: AppPage;

beforeAll(async () => {
  ({ stack, app } = await connectedApp());
  // A car with a chain of fills over months, so that every fuel chart has points.
  await stack.core.saveCar({ carId: 7, name: 'Superb' });
  for (let i = 0; i < 8; i++) {
    await stack.core.addRefueling({
      carId: 7,
      dateOfPurchase: `2026-0${1 + i}-1${i}T08:00`,
      tachometer: 10_000 + i * 640,
      liter: `${38 + (i % 3)}.5`,
      price: `${1500 + i * 20}`,
      currency: 203,
      rate: '1',
      description: '',
    });
  }
});
chainedTests('failed-print-', () => ({ app, stack }));

/** A screen to print: its address, what shows it has loaded, how many charts it has, and what its printed header says. */
const SCREENS = [
  { name: 'reports', path: '/reports?period=last12Months', ready: '[data-testid=report-categories] tbody tr', charts: 3 },
  { name: 'fuel-stats', path: '/cars/7/stats', ready: '[data-testid=fuel-fills] tbody tr', charts: 4 },
] as const;

const WORDS = {
  en: { print: 'Print', printed: /Printed \S+ \d/, period: { reports: /Period: .+ – .+/, 'fuel-stats': 'Period: the whole history' } },
  cs: { print: 'Tisk', printed: /Vytištěno \d/, period: { reports: /Období: .+ – .+/, 'fuel-stats': 'Období: celá historie' } },
} as const;

/** Pages and embedded images of a PDF as Chromium writes it (Skia: no object streams, so each page and image is an object of its own). */
function pdfFacts(pdf: Buffer): { pages: number; images: number } {
  const text = pdf.toString('latin1');
  return { pages: text.match(/\/Type\s*\/Page(?![s\w])/g)?.length ?? 0, images: text.match(/\/Subtype\s*\/Image/g)?.length ?? 0 };
}

const shown = (page: Page, selector: string) =>
  page.locator(selector).evaluateAll((els) => els.filter((e) => e.getBoundingClientRect().height > 0).length);

/** Clicks what starts a download and hands back the file's bytes. */
async function download(page: Page, click: () => Promise<void>): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), click()]);
  return readFileSync(await file.path());
}

describe.skipIf(!found)('exports that open right', () => {
  it('Czech screens export for Excel in Czech, and the import says what it read', async () => {
    const { page } = app;
    await setAppearance(page, 'cs', 'light');
    await stack.core.saveCar({ carId: 8, name: 'Kodiaq' });
    await go(page, '/data');
    const dialect = page.locator('[data-testid=csv-dialect]').first();
    expect(await dialect.inputValue()).toBe('excel-cs');
    await page.locator('select[name=exportCar]').selectOption('7');
    const file = await download(page, () => page.getByTestId('export-refuelings').click());
    expect([...file.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = file.toString('utf8').slice(1).split('\r\n');
    expect(lines[0]).toBe('car_id;car_name;date;odometer;liters;price;currency;rate;price_per_liter;partial;description;id;pending');
    expect(lines[1]).toMatch(/^7;Superb;10\.1\.2026 8:00:00;10000;38,5;1500;CZK;1;38,961;false;;-\d+;true$/);

    const importCard = page.getByTestId('refueling-import');
    await importCard.locator('select[name=importCar]').selectOption('8');
    await importCard.locator('input[name=importFile]').setInputFiles({ name: 'superb.csv', mimeType: 'text/csv', buffer: file });
    await poll(() => textOf(page.getByTestId('import-detected'))).toBe(
      'Přečteno jako: buňky oddělené středníky, desetinné čárky, UTF-8 se značkou pořadí bajtů (BOM).',
    );
    expect(await page.locator('[data-testid=import-preview] tbody tr[data-state=ready]').count()).toBe(8);

    // The report's export, in English for Excel in English: commas, points, a BOM.
    await setAppearance(page, 'en', 'light');
    await go(page, '/reports?period=last12Months');
    const report = page.getByTestId('report-export');
    expect(await report.locator('[data-testid=csv-dialect]').inputValue()).toBe('excel-en');
    const months = (await download(page, () => report.getByTestId('export-report-months').click())).toString('utf8');
    expect(months.split('\r\n')[0]).toBe('\uFEFFmonth,currency,income,expense,net,count');
    expect(months.split('\r\n').filter(Boolean)).toHaveLength(13);
  });
});

describe.skipIf(!found)('reports on paper', () => {
  for (const [lang, theme] of [
    ['en', 'light'],
    ['cs', 'dark'],
  ] as const) {
    it(`${lang}: the reports and the fuel statistics print as PDFs of their own pages, and look right in the print media`, async () => {
      const { page } = app;
      await setAppearance(page, lang, theme);
      for (const screen of SCREENS) {
        await go(page, screen.path);
        await page.locator(screen.ready).first().waitFor();
        await poll(() => shown(page, '.chart-canvas canvas')).toBe(screen.charts);
        expect(await textOf(page.getByTestId('print'))).toBe(WORDS[lang].print);
        expect(await shown(page, '[data-testid=print-header], [data-testid=chart-paper]'), 'nothing of paper on screen').toBe(0);

        const pdf = await page.pdf({ format: 'A4', printBackground: true });
        mkdirSync(SCREENSHOT_DIR, { recursive: true });
        writeFileSync(join(SCREENSHOT_DIR, `print-${screen.name}-${lang}.pdf`), pdf);
        const facts = pdfFacts(pdf);
        // The tables begin a page of their own after the charts.
        expect(facts.pages, `${screen.name} pages`).toBeGreaterThanOrEqual(2);
        expect(facts.images, `${screen.name}: the charts as images`).toBeGreaterThanOrEqual(screen.charts);

        await page.emulateMedia({ media: 'print' });
        try {
          await poll(() => shown(page, '[data-testid=chart-paper]')).toBe(screen.charts);
          const hidden = ['.app-header', '.sidebar', '[data-testid=print]', '.filter-bar', '.chart-canvas', 'main button'];
          for (const selector of hidden) expect(await shown(page, selector), `${selector} on paper`).toBe(0);
          const header = await textOf(page.getByTestId('print-header'));
          expect(header).toMatch(WORDS[lang].printed);
          const period = WORDS[lang].period[screen.name];
          if (typeof period === 'string') expect(header).toContain(period);
          else expect(header).toMatch(period);
          // The totals come last, after the table.
          const top = (selector: string) =>
            page
              .locator(selector)
              .first()
              .evaluate((e) => e.getBoundingClientRect().top);
          expect(await top('.print-totals')).toBeGreaterThan(await top('main table'));
          // On paper white, whichever theme the screen shows.
          expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
          await screenshot(page, `print-${screen.name}-${lang}`);
        } finally {
          await page.emulateMedia({ media: null });
        }
      }
    });
  }
});
