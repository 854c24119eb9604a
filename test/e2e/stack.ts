/// <reference lib="dom" />
/**
 * The real pieces for browser tests: the demo service on loopback, the app core on a temp data file,
 * the browser shell serving the built renderer, and Debian's Chromium. One stack per test file.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { createAppCore, type AppCore, type AppCoreOptions } from '../../src-main/core/app/app-core';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { SoapClient } from '../../src-main/core/soap-client';
import { startWebShell, type WebShell } from '../../src-main/web-shell/server';
import { currencyLabel } from '../../src-shared/money';
import { collectPageErrors, launchChromium } from '../support/browser';
import { startTestService, TEST_TIME_ZONE, type TestService, type TestServiceOptions } from '../support/service';

export const ROOT = resolve(import.meta.dirname, '../..');
export const RENDERER_DIR = join(ROOT, 'out/renderer');
/** Where the screenshots of every screen go (gitignored; named in the README). */
export const SCREENSHOT_DIR = join(ROOT, 'test-output/screenshots');
export const DEMO = { clientKey: 'demo', login: 'demo', password: 'demo' } as const;

export interface Stack {
  service: TestService;
  core: AppCore;
  shell: WebShell;
  browser: Browser;
  /** The service as a plain SOAP client sees it, to check what the app shows against it. */
  soap: SoapClient;
  close(): Promise<void>;
}

/**
 * `sync`: tuning of the core's syncs (default: quick tries and a half-second budget); `service`: its options (TLS...);
 * `reachabilityIntervalMs`: the core's least time between checks that the service answers (default a minute).
 */
export async function startStack(
  options: { sync?: AppCoreOptions['sync']; service?: TestServiceOptions['service']; reachabilityIntervalMs?: number } = {},
): Promise<Stack> {
  if (!existsSync(join(RENDERER_DIR, 'index.html'))) {
    throw new Error('The renderer is not built: run `npx electron-vite build` (npm test does).');
  }
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-e2e-'));
  const [service, browser] = await Promise.all([
    startTestService({ demo: true, ...(options.service ? { service: options.service } : {}) }),
    launchChromium(),
  ]);
  const core = createAppCore({
    dataFile: join(dir, 'client.sqlite'),
    secrets: new MemorySecretStore(),
    timeZone: TEST_TIME_ZONE,
    timeoutMs: 5000,
    sync: options.sync ?? { retry: { attempts: 2, backoffMs: 20, maxBackoffMs: 100 }, unavailableMs: 500 },
    log: () => undefined,
    ...(options.reachabilityIntervalMs === undefined ? {} : { reachabilityIntervalMs: options.reachabilityIntervalMs }),
  });
  const shell = await startWebShell({ core, rendererDir: RENDERER_DIR, log: () => undefined });
  const soap = new SoapClient({ baseUrl: service.url, namespace: service.namespace, credentials: DEMO, timeZone: TEST_TIME_ZONE });
  return {
    service,
    core,
    shell,
    browser,
    soap,
    async close() {
      soap.close();
      await browser.close();
      await shell.close();
      await core.close();
      await service.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface AppPage {
  context: BrowserContext;
  page: Page;
  /** Console errors, uncaught exceptions and failed requests the page reported. */
  errors: string[];
}

/** Opens the app in a fresh browser context whose system language is `locale`; `clock`: the page's time moved by the test (page.clock). */
export async function openApp(
  stack: Stack,
  locale: 'cs-CZ' | 'en-US',
  colorScheme: 'light' | 'dark' = 'light',
  options: { clock?: boolean } = {},
): Promise<AppPage> {
  const context = await stack.browser.newContext({
    locale,
    colorScheme,
    viewport: { width: 1280, height: 860 },
    timezoneId: TEST_TIME_ZONE,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors = collectPageErrors(page);
  if (options.clock) await page.clock.install();
  await page.goto(stack.shell.url);
  await page.locator('main h1').waitFor();
  return { context, page, errors };
}

/** Page errors other than the event stream the browser cuts when the page closes or reloads. */
export function realErrors(errors: string[]): string[] {
  return errors.filter((e) => !/requestfailed: .*\/api\/events net::ERR_ABORTED/.test(e));
}

/** A picture of the page (of the window only with `viewport`, e.g. for a dialog over the page). */
export async function screenshot(page: Page, name: string, viewport = false): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // The picture shows the screen, not the notices of the moment: close the toasts first.
  await page.locator('.toast button').evaluateAll((buttons) => buttons.forEach((b) => (b as HTMLButtonElement).click()));
  await page.locator('.toast').first().waitFor({ state: 'detached' });
  await page.evaluate(() => document.fonts.ready);
  // A page scrolled down would show its sticky header in the middle of a full-page picture.
  if (!viewport) await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(SCREENSHOT_DIR, `${name}.png`), fullPage: !viewport, animations: 'disabled' });
}

/**
 * A stack with the app open in English, connected to its service and through its first sync, the summary
 * dismissed; motion reduced, so that what a screenshot shows is what a chart or dialog ends as.
 */
export async function connectedApp(): Promise<{ stack: Stack; app: AppPage }> {
  const stack = await startStack();
  const app = await openApp(stack, 'en-US');
  await app.page.emulateMedia({ reducedMotion: 'reduce' });
  await connect(app.page, stack.service);
  await app.page.waitForURL(/#\/accounts$/);
  await app.page.getByTestId('sync-summary').filter({ hasText: 'Sync finished' }).waitFor();
  await dismissSummary(app.page);
  return { stack, app };
}

/**
 * The hooks of a file whose tests build on each other: after a failure the rest would only time out, so
 * they are skipped; the failing screen is kept as a screenshot named with the prefix; no test may leave a
 * real error in the page's console; the app and the stack are closed at the end.
 */
export function chainedTests(prefix: string, opened: () => { app?: AppPage; stack?: Stack }): void {
  let broken = false;
  beforeEach((ctx) => {
    if (broken) ctx.skip();
  });
  afterEach(async (ctx) => {
    const { app } = opened();
    if (ctx.task.result?.state === 'fail') {
      broken = true;
      if (app) await screenshot(app.page, `${prefix}${ctx.task.name.split(':')[0]}`).catch(() => undefined);
    }
    expect(realErrors(app?.errors ?? [])).toEqual([]);
  });
  afterAll(async () => {
    const { app, stack } = opened();
    await app?.context.close();
    await stack?.close();
  });
}

/** Fills the connect form with the demo credentials and connects; the app then syncs by itself. */
export async function connect(page: Page, service: TestService): Promise<void> {
  await page.locator('input[name=baseUrl]').fill(service.url);
  await page.locator('input[name=clientKey]').fill(DEMO.clientKey);
  await page.locator('input[name=login]').fill(DEMO.login);
  await page.locator('input[name=password]').fill(DEMO.password);
  await page.getByTestId('connect').click();
}

/** Presses Sync and waits for its summary. */
export async function syncNow(page: Page): Promise<string> {
  await dismissSummary(page);
  await page.getByTestId('sync-button').click();
  const summary = page.getByTestId('sync-summary');
  await summary.waitFor();
  return (await summary.textContent()) ?? '';
}

export async function dismissSummary(page: Page): Promise<void> {
  const summary = page.getByTestId('sync-summary');
  if (await summary.isVisible()) await summary.getByRole('button').last().click();
  await summary.waitFor({ state: 'detached' });
}

/** Goes to a screen the way a user does, through the address (hash) without reloading the page. */
export async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => (location.hash = `#${p}`), path);
  await page.waitForFunction((p) => location.hash === `#${p}`, path);
}

/**
 * Every screen of a connected app with the demo data (car 1 named), each with what shows it has loaded:
 * [name, address, selector]. `bank` is the id of an account to open.
 */
export function everyScreen(bank: number): [string, string, string][] {
  return [
    ['accounts', '/accounts', '[data-testid=accounts-table]'],
    ['account', `/accounts/${bank}`, 'main h1'],
    ['transfer', `/transfer?from=${bank}`, 'select[name=sourceId] option:nth-child(2)'],
    ['templates', '/templates', '[data-testid=templates-table] tbody tr'],
    ['categories', '/categories', '[data-testid=category-tree] li'],
    ['register', '/register', '[data-testid=transactions-table] tbody tr'],
    ['reports', '/reports', 'main h1'],
    ['search', '/search', 'main h1'],
    ['cars', '/cars', '[data-car-id]'],
    ['car', '/cars/1', '[data-testid=refuelings-table] tbody tr'],
    ['fuel', '/cars/1/stats', 'main h1'],
    ['pump', '/pump', 'select[name=carId] option:checked:not([value=""])'],
    ['outbox', '/outbox', '[data-outbox-id]'],
    ['data', '/data', 'main h1'],
    ['settings', '/settings', '[data-testid=connection-settings]'],
    ['connection', '/connect', 'input[name=baseUrl]'],
  ];
}

/** Text of an amount as Intl shows it in English with two decimals, minus as U+2212 (as the screens show it). */
export function englishMoney(value: number | string): string {
  return new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 })
    .format(String(value) as `${number}`)
    .replace('-', '\u2212');
}

/**
 * An amount with its currency as Intl writes it in the language ("CZK 1,234.50", "1 234,50 Kč", "€12.00"),
 * minus as U+2212, white space folded (as textOf reads the screen): what the screens show. `currency` is
 * the service's numeric code.
 */
export function money(value: number | string, currency: number, locale: 'en' | 'cs' = 'en', signed = false): string {
  const code = currencyLabel(currency);
  const f = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: code,
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
    signDisplay: signed ? 'exceptZero' : 'auto',
  });
  return loose(f.format(String(value) as `${number}`).replace('-', '\u2212'));
}

/** Retries an assertion until the screen catches up (vitest's expect.poll with a browser-sized timeout). */
export const poll = <T>(read: () => Promise<T> | T) => expect.poll(read, { timeout: 10_000, interval: 50 });

/** An element's rendered text (blocks on their own lines) with all white space, also no-break spaces, folded to single spaces. */
export async function textOf(locator: Locator): Promise<string> {
  return loose(await locator.innerText());
}

export const loose = (text: string | null | undefined): string => (text ?? '').replace(/\s+/g, ' ').trim();

/**
 * Controls on the page that have no accessible name: no <label>, aria-label or aria-labelledby, and (for
 * buttons and links) no text. Hidden ones do not count.
 */
export async function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('input, select, textarea, button, a[href], [role=combobox]')) {
      if (el.closest('[hidden], dialog:not([open])') || (el as HTMLInputElement).type === 'hidden') continue;
      const labelled =
        ((el as HTMLInputElement).labels?.length ?? 0) > 0 ||
        !!el.getAttribute('aria-label')?.trim() ||
        !!el.getAttribute('aria-labelledby') ||
        ((el.tagName === 'BUTTON' || el.tagName === 'A') && !!el.textContent?.trim());
      if (!labelled) out.push(el.outerHTML.slice(0, 120));
    }
    return out;
  });
}

/**
 * Lists that assistive technology would not read as lists: a <ul>/<ol> (or role=list) with a child other
 * than a plain <li>, or an <li> whose parent is no list.
 */
export async function brokenLists(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const isList = (el: Element | null) =>
      !!el && ((['UL', 'OL'].includes(el.tagName) && !el.hasAttribute('role')) || el.getAttribute('role') === 'list');
    for (const list of document.querySelectorAll('ul, ol')) {
      if (!isList(list)) continue;
      for (const child of list.children) {
        if (child.tagName !== 'LI' || (child.hasAttribute('role') && child.getAttribute('role') !== 'listitem')) {
          out.push(child.outerHTML.slice(0, 120));
        }
      }
    }
    for (const li of document.querySelectorAll('li')) {
      if (!li.hasAttribute('role') && !isList(li.parentElement)) out.push(li.outerHTML.slice(0, 120));
    }
    return out;
  });
}

/** Switches the app's language and theme on the Settings screen and waits until the page shows them. */
export async function setAppearance(page: Page, lang: 'cs' | 'en', theme: 'light' | 'dark'): Promise<void> {
  await go(page, '/settings');
  await page.locator(`input[name=language][value=${lang}]`).check({ force: true });
  await page.locator(`input[name=theme][value=${theme}]`).check({ force: true });
  await poll(() => page.evaluate(() => `${document.documentElement.lang} ${document.documentElement.dataset.theme}`)).toBe(
    `${lang} ${theme}`,
  );
}
