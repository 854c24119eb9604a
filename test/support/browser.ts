/**
 * Debian's Chromium driven by playwright-core: never a browser downloaded by a test tool. The flags keep
 * Chromium from reaching for the network this machine does not have.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium).`);
  return chromium.launch({
    executablePath: CHROMIUM,
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
