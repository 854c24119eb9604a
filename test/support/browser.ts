/**
 * A Chromium-family browser found on this machine (browser-finder.ts), driven by playwright-core: never
 * a browser downloaded by a test tool. The flags keep it from reaching for a network it may not have.
 *
 * A browser test file starts with `const browser = browserFor(import.meta.url)` and wraps its suites in
 * `describe.skipIf(!browser)`: without a browser they are skipped (and named at the end of the run)
 * outside CI, and fail in CI.
 */
import { chromium, type Browser, type Page } from 'playwright-core';
import { findBrowser, HOW_TO_GET_A_BROWSER, type FoundBrowser } from './browser-finder';
import { needTool } from './external-tools';

let found: FoundBrowser | null | undefined;

/** The browser for the test file `testFile` (its import.meta.url), or null when its suites are to be skipped. */
export function browserFor(testFile: string): FoundBrowser | null {
  found ??= findBrowser();
  return needTool(found !== null, { tool: 'a Chromium-family browser', howToGet: HOW_TO_GET_A_BROWSER }, testFile) ? found : null;
}

export async function launchChromium(): Promise<Browser> {
  found ??= findBrowser();
  if (!found) throw new Error(`No Chromium-family browser found: ${HOW_TO_GET_A_BROWSER}`);
  return chromium.launch({
    executablePath: found.path,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
      // Date and time fields follow the page's lang (the app's language), not the machine's locale, as
      // the desktop window does: otherwise the Czech screens would show US dates in their inputs.
      '--enable-blink-features=LangAttributeAwareFormControlUI',
    ],
  });
}

/** Collects what the page reports as errors (console errors, uncaught exceptions, failed requests). */
export function collectPageErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('requestfailed', (r) => errors.push(`requestfailed: ${r.url()} ${r.failure()?.errorText ?? ''}`));
  return errors;
}
