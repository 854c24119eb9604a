/**
 * The register of a decade in Chromium through the browser shell, for its browser test
 * (test/e2e/register.test.ts: what it shows) and its benchmark (bench/register.bench.ts: how soon): a
 * local copy of 100,000 transactions over ten years on 10 accounts (a tenth of them transfers, seeded),
 * a transfer waiting to be sent, the shell serving the built renderer (`npx electron-vite build`), and
 * one page of Debian's Chromium. With what the page is asked to do, each step timed in the page itself
 * (the benchmark reads the times; the test only what the steps leave on the screen).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createAppCore, type AppCore } from '../../src-main/core/app/app-core';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { startWebShell, type WebShell } from '../../src-main/web-shell/server';
import { collectPageErrors, launchChromium } from './browser';
import { fillLargeCopy } from './large-copy';
import { TEST_TIME_ZONE } from './service';

export const REGISTER = { transactions: 100_000, accounts: 10, years: 10, firstYear: 2016, seed: 18 } as const;
/** The transfer waiting to be sent: its date and text. */
export const PENDING = { date: `${REGISTER.firstYear + 4}-06-15`, description: 'Holiday savings' } as const;

const RENDERER_DIR = resolve(import.meta.dirname, '../../out/renderer');

export interface RegisterPage {
  core: AppCore;
  shell: WebShell;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors, uncaught exceptions and failed requests the page reported. */
  errors: string[];
  close(): Promise<void>;
}

/** The local copy, the shell and the page, opened on the accounts (English, light). */
export async function openRegisterOfADecade(): Promise<RegisterPage> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error('The renderer is not built: run `npx electron-vite build --logLevel warn` first.');
  }
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-register-'));
  const file = join(dir, 'local.sqlite');
  fillLargeCopy(file, { ...REGISTER });
  const core = createAppCore({ dataFile: file, secrets: new MemorySecretStore(), timeZone: TEST_TIME_ZONE, log: () => undefined });
  await core.workOffline();
  await core.setPreferences({ language: 'en', theme: 'light' });
  // A transfer waiting to be sent, so that a pending row and its other side show too.
  await core.transfer({
    sourceId: 3,
    targetId: 4,
    amount: '1234.5',
    paymentDate: `${PENDING.date}T09:30`,
    categoryId: 101,
    description: PENDING.description,
  });
  const shell = await startWebShell({ core, rendererDir: RENDERER_DIR, log: () => undefined });
  const browser = await launchChromium();
  const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 860 }, timezoneId: TEST_TIME_ZONE });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  const errors = collectPageErrors(page);
  await page.goto(shell.url);
  await page.locator('main h1').waitFor();
  return {
    core,
    shell,
    browser,
    context,
    page,
    errors,
    async close() {
      await context.close();
      await browser.close();
      await shell.close();
      await core.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The oldest date the register's top row may show after a jump to `day` (a day without rows shows older ones). */
export function earliestAfterJump(day: string): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) - 40 * 86_400_000).toISOString().slice(0, 10);
}

/**
 * In the page: the date of the row at the top of the register's view (rows above it, read ahead, are
 * in the page too), or null.
 */
export const TOP_DATE = `(() => {
  const el = document.querySelector('[data-testid=register-scroll]');
  if (!el) return null;
  const head = el.querySelector('thead').offsetHeight;
  for (const tr of el.querySelectorAll('tbody tr[data-key]')) if (tr.offsetTop + 1 >= el.scrollTop + head) return tr.dataset.date;
  return null;
})()`;

export const topDate = (page: Page) => page.evaluate<string | null>(TOP_DATE);

/*
 * What runs in the page is written as text: the benchmark runs under tsx, whose transform names functions
 * with a helper the page does not have, so a function handed to page.evaluate would fail there.
 */

/** Starts recording the page's long tasks (PerformanceObserver), from now on. */
export async function watchLongTasks(page: Page): Promise<void> {
  await page.evaluate(`(() => {
    window.longTaskObserver?.disconnect();
    window.longTasks = [];
    window.longTaskObserver = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.longTasks.push(e.duration);
    });
    window.longTaskObserver.observe({ type: 'longtask' });
  })()`);
}

/** The durations of the long tasks recorded since watchLongTasks, in ms. */
export const longTasks = (page: Page) => page.evaluate<number[]>('window.longTasks');

/**
 * In the page: does `act`, then waits for the frame in which `selector` matches an element for which
 * `done` (a function of the element, as text) is true; the milliseconds between.
 */
function timed(page: Page, act: string, selector: string, done: string): Promise<number> {
  return page.evaluate<number>(`new Promise((resolve, reject) => {
    const done = ${done};
    const started = performance.now();
    ${act};
    const give = setTimeout(() => reject(new Error(${JSON.stringify(`${selector} never came`)})), 10000);
    const look = () => {
      const el = document.querySelector(${JSON.stringify(selector)});
      if (el && done(el)) {
        clearTimeout(give);
        resolve(performance.now() - started);
      } else requestAnimationFrame(look);
    };
    look();
  })`);
}

const FIRST_ROW = '[data-testid=transactions-table] tbody tr[data-key]';

/** Opens an account's register from the accounts screen by its address; ms until its first rows are drawn. */
export function openAccount(page: Page, account: number): Promise<number> {
  return timed(page, `location.hash = '#/accounts/${account}'`, FIRST_ROW, `() => location.hash === '#/accounts/${account}'`);
}

/** Jumps to `day` with the register's date field; ms until the rows of that day (or the older ones before it) are at the top. */
export async function jumpToDay(page: Page, day: string): Promise<number> {
  await page.getByTestId('jump-date').fill(day);
  return timed(
    page,
    `document.querySelector('[data-testid=jump]').click()`,
    FIRST_ROW,
    `() => { const d = ${TOP_DATE}; return d !== null && d <= '${day}' && d >= '${earliestAfterJump(day)}'; }`,
  );
}

/**
 * In the page: scrolls the register `rows` rows further (40 px a row, at most 20 rows a frame; the window
 * grows by keyset as the view nears its end, and the scrolling waits for it where it must), as statements.
 */
export const SCROLL_ROWS = (rows: number) => `
    const el = document.querySelector('[data-testid=register-scroll]');
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    // The register's 1-based position of the row at the top of the view, as the screen tells it.
    const topRow = () =>
      Number(document.querySelector('[data-testid=register-position]').textContent.replace(/[^\\d–]/g, '').split('–')[0]);
    const target = topRow() + ${rows};
    for (let guard = 0; guard < 5000; guard++) {
      const now = topRow();
      if (now >= target) break;
      el.scrollTop = Math.round(el.scrollTop / 40 + Math.min(20, target - now)) * 40;
      await frame();
      await frame();
    }`;

/** Scrolls the register `rows` rows further (SCROLL_ROWS); ms it took. */
export function scrollRows(page: Page, rows: number): Promise<number> {
  return page.evaluate<number>(`(async () => {
    const started = performance.now();
    ${SCROLL_ROWS(rows)}
    return performance.now() - started;
  })()`);
}
