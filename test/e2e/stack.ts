/// <reference lib="dom" />
/**
 * The real pieces for browser tests: the demo service on loopback, the app core on a temp data file,
 * the browser shell serving the built renderer, and Debian's Chromium. One stack per test file.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Frame, Locator, Page, Request } from 'playwright-core';
import { afterAll, afterEach, beforeEach, expect } from 'vitest';
import { createAppCore, type AppCore, type AppCoreOptions } from '../../src-main/core/app/app-core';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { SoapClient } from '../../src-main/core/soap-client';
import { startWebShell, type WebShell } from '../../src-main/web-shell/server';
import { currencyLabel } from '../../src-shared/money';
import { collectPageErrors, debianChromiumVersion, launchChromium, notAsInCi } from '../support/browser';
import { inCi, needTool } from '../support/external-tools';
import { startTestService, TEST_TIME_ZONE, type TestService, type TestServiceOptions } from '../support/service';
import { APPROVED_SCREENS, approvedBy, differenceFromApproved, SCREENSHOT_DIR, screenshotFile } from './approved';

export const ROOT = resolve(import.meta.dirname, '../..');
export const RENDERER_DIR = join(ROOT, 'out/renderer');
export { SCREENSHOT_DIR };
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
 * `reachabilityIntervalMs`: the core's least time between checks that the service answers (default a minute);
 * `machineZone`: the core takes the machine's zone (this process's TZ) as a shell does, not the tests' fixed one.
 */
export async function startStack(
  options: {
    sync?: AppCoreOptions['sync'];
    service?: TestServiceOptions['service'];
    reachabilityIntervalMs?: number;
    machineZone?: boolean;
  } = {},
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
    ...(options.machineZone ? {} : { timeZone: TEST_TIME_ZONE }),
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

/**
 * Opens the app in a fresh browser context whose system language is `locale`; `clock`: the page's time moved by the
 * test (page.clock); `timezoneId`: the browser's zone (the tests' fixed one by default); `initScript`: run in the
 * page before any of its own scripts (to watch what it paints from the first frame).
 */
export async function openApp(
  stack: Stack,
  locale: 'cs-CZ' | 'en-US',
  colorScheme: 'light' | 'dark' = 'light',
  options: { clock?: boolean; timezoneId?: string; initScript?: () => void } = {},
): Promise<AppPage> {
  const context = await stack.browser.newContext({
    locale,
    colorScheme,
    viewport: { width: 1280, height: 860 },
    timezoneId: options.timezoneId ?? TEST_TIME_ZONE,
  });
  if (options.initScript) await context.addInitScript(options.initScript);
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  const errors = collectPageErrors(page);
  if (options.clock) await page.clock.install();
  await page.goto(stack.shell.url);
  await page.locator('main h1').waitFor();
  return { context, page, errors };
}

/** Page errors other than requests the browser cuts when the page closes or reloads. */
export function realErrors(errors: string[]): string[] {
  // Cut short by a reload: the event stream, and a screen's chunk being read ahead in idle time.
  return errors.filter((e) => !/requestfailed: .*\/(api\/events|assets\/[\w-]+\.js) net::ERR_ABORTED/.test(e));
}

/**
 * A picture of the page (of the window only with `viewport`, e.g. for a dialog over the page), checked:
 * first for what every screen must show (layoutProblems: a heading, nothing wider than the window, no
 * amount cut off, no text cut off without an ellipsis) and for `shows` (texts it must show, as the screen
 * reads); then, for a screen whose content is fixed (approved.ts), against its approved image.
 */
export async function screenshot(page: Page, name: string, viewport = false, shows: (string | RegExp)[] = []): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  // The picture shows the screen, not the notices of the moment: close the toasts first.
  await page.locator('.toast button').evaluateAll((buttons) => buttons.forEach((b) => (b as HTMLButtonElement).click()));
  await page.locator('.toast').first().waitFor({ state: 'detached' });
  await settled(page);
  // A page scrolled down would show its sticky header in the middle of a full-page picture.
  if (!viewport) await page.evaluate(() => window.scrollTo(0, 0));
  expect(await layoutProblems(page), `${name}: what no screen may show`).toEqual([]);
  const text = loose(await page.locator('body').innerText());
  for (const s of shows) {
    if (typeof s === 'string') expect(text, `${name} shows`).toContain(s);
    else expect(text, `${name} shows`).toMatch(s);
  }
  await picture(page, name, viewport);
  if (APPROVED_SCREENS.includes(name)) compareWithApproved(name);
}

/** The picture alone, unchecked (of a screen a failed test left). */
export async function picture(page: Page, name: string, viewport = false): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: screenshotFile(name), fullPage: !viewport, animations: 'disabled' });
}

/**
 * The screenshot against its approved image, where the page rendered as CI renders it (approved.ts): in CI
 * always, where another browser or other fonts fail it; elsewhere only with the Chromium that made them.
 */
function compareWithApproved(name: string): void {
  const otherwise = notAsInCi();
  const testFile = expect.getState().testPath ?? name;
  if (otherwise !== null) {
    const need = { tool: "Debian's chromium and fonts-dejavu-core (to compare screenshots with approved ones)", howToGet: otherwise };
    if (inCi()) throw new Error(`${name} is compared with its approved image, made as CI renders it, but ${otherwise}.`);
    needTool(false, need, testFile);
    return;
  }
  const here = debianChromiumVersion();
  const madeBy = approvedBy();
  const other = madeBy === here ? '' : `the approved images were made by ${madeBy ?? 'an unrecorded browser'}, this is ${here}`;
  if (other && !inCi()) {
    needTool(
      false,
      { tool: `the Chromium of the approved images (${madeBy})`, howToGet: `run in CI, which compares them (${other})` },
      testFile,
    );
    return;
  }
  expect.soft(differenceFromApproved(name), `${name} against its approved image${other ? ` (${other})` : ''}`).toBeNull();
}

/**
 * What no screen may show, as the page is laid out now: no heading; a page wider than its window; an
 * amount (MoneyAmount's .money) cut off by a box that hides what overflows it (an ellipsis on an amount
 * is a wrong amount); a message key instead of its words; text cut off mid-glyph by such a box without an
 * ellipsis.
 */
export async function layoutProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const problems: string[] = [];
    const shown = (el: Element) => {
      const r = el.getBoundingClientRect();
      return r.width > 1 && r.height > 1 && getComputedStyle(el).visibility !== 'hidden' && !el.closest('[hidden], dialog:not([open])');
    };
    const what = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).trim().replace(/\s+/g, '.')}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}"`;
    const heading = [...document.querySelectorAll('h1, dialog[open] h2')].find((h) => shown(h) && h.textContent?.trim());
    if (!heading) problems.push('no heading shows');
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth + 1) {
      problems.push(`the page is ${root.scrollWidth - root.clientWidth}px wider than its window`);
    }
    /** The horizontal extent of an element's content box. */
    const contentBox = (el: Element) => {
      const r = el.getBoundingClientRect();
      const s = getComputedStyle(el);
      return {
        left: r.left + parseFloat(s.borderLeftWidth) + parseFloat(s.paddingLeft),
        right: r.right - parseFloat(s.borderRightWidth) - parseFloat(s.paddingRight),
      };
    };
    const hides = (el: Element) => ['hidden', 'clip'].includes(getComputedStyle(el).overflowX);
    for (const money of document.querySelectorAll('.money')) {
      if (!shown(money)) continue;
      const r = money.getBoundingClientRect();
      for (let box = money.parentElement; box; box = box.parentElement) {
        if (!hides(box)) continue;
        const c = contentBox(box);
        if (r.left < c.left - 0.5 || r.right > c.right + 0.5) {
          problems.push(`the amount ${what(money)} is cut off by ${what(box)}`);
          break;
        }
      }
    }
    // A message missing from a language shows as its key ("accounts.title"); the user's own text marked
    // data-user-text (a chosen file's name, "other.csv") may look like one and is not.
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const t = n.textContent?.trim() ?? '';
      const own = n.parentElement?.closest('[data-user-text]');
      if (/^[a-z][a-zA-Z0-9]*(\.[a-zA-Z0-9]+)+$/.test(t) && n.parentElement && !own && shown(n.parentElement)) {
        problems.push(`a message key shows: "${t}"`);
      }
    }
    for (const el of document.querySelectorAll('body *')) {
      if (!hides(el) || !shown(el) || getComputedStyle(el).textOverflow === 'ellipsis') continue;
      const ownText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
      if (ownText && el.scrollWidth > el.clientWidth + 1) problems.push(`text cut off without an ellipsis: ${what(el)}`);
    }
    return problems;
  });
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
      if (app) await picture(app.page, `${prefix}${ctx.task.name.split(':')[0]}`).catch(() => undefined);
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

/**
 * Waits until the page is still: its fonts loaded, no animation or transition that ends still running (a
 * colour on its way between themes would be measured half-way, a panel sliding in pictured mid-way), and
 * two frames drawn since. Endless ones (a spinner, the progress bar's slide) never end, so they do not
 * count; a screenshot stops them (animations: 'disabled').
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(() => document.fonts.ready);
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/**
 * Reloads the page, first checking that it reported no errors up to here. After the reload every error
 * counts but the ones the reload itself causes: the requests the page before it still had on their way
 * (a list, the status, the event stream) are aborted with it (net::ERR_ABORTED), which says nothing of the
 * app. A request sent before the reload's new page came (the main frame's navigation committed) is one of
 * those; a request of the new page, the reload's own, or one failing otherwise stays an error.
 */
export async function reload(page: Page, errors: string[]): Promise<void> {
  expect(realErrors(errors), 'errors before the reload').toEqual([]);
  const ofNewPage = new Set<Request>();
  let committed = false;
  const onNavigated = (frame: Frame) => {
    if (frame === page.mainFrame()) committed = true;
  };
  page.on('framenavigated', onNavigated);
  page.on('request', (r) => {
    if (committed) ofNewPage.add(r);
  });
  page.on('requestfailed', (r) => {
    if (ofNewPage.has(r) || r.isNavigationRequest() || r.failure()?.errorText !== 'net::ERR_ABORTED') return;
    // collectPageErrors, listening since before, has recorded it already.
    const recorded = errors.lastIndexOf(`requestfailed: ${r.url()} net::ERR_ABORTED`);
    if (recorded >= 0) errors.splice(recorded, 1);
  });
  await page.reload();
  page.off('framenavigated', onNavigated);
}

/** Goes to a screen the way a user does, through the address (hash) without reloading the page. */
export async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((p) => (location.hash = `#${p}`), path);
  // Until the screen of that address is shown (screens are read when first opened), or another address
  // replaced it (a redirect).
  await page.waitForFunction(
    (p) => location.hash !== `#${p}` || document.querySelector<HTMLElement>('main')?.dataset.route === p.split('?')[0],
    path,
  );
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
    ['budgets', '/budgets', '[data-testid=budget-month]'],
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
