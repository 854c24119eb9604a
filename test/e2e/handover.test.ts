/**
 * `npm run web -- --open` in a real browser: Chromium opening the handover page (a file of the owner's)
 * lands in the app with a working session, and nothing of the key is left in the address; the page is
 * gone after that, and its ticket opens nothing a second time.
 */
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openInBrowser, type Opening } from '../../src-main/web-shell/open-browser';
import { browserFor, collectPageErrors } from '../support/browser';
import { connect, poll, realErrors, reload, screenshot, startStack, type Stack } from './stack';

const found = browserFor(import.meta.url);
let stack: Stack;

beforeAll(async () => {
  if (found) stack = await startStack();
});
afterAll(async () => {
  await stack?.close();
});

describe.skipIf(!found)('the handover page', () => {
  it('opens the app in Chromium with a working session that survives a reload; a second use fails', async () => {
    let pageUrl = '';
    const opening: Opening = openInBrowser(stack.shell, {
      // The browser of this test: what the shell would have run is recorded, the page opened below.
      opener: (_command, args, _env, done) => {
        pageUrl = args[0]!;
        done(true);
      },
    });
    expect(pageUrl).toMatch(/^file:\/\//);
    const ticketUrl = /url=([^"]+)"/.exec(readFileSync(opening.page, 'utf8'))![1]!;
    const context = await stack.browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 860 } });
    try {
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      await page.goto(pageUrl);
      await page.waitForURL(`${stack.shell.origin}/**`);
      await page.locator('input[name=baseUrl]').waitFor();
      // The ticket is out of the address, and the key never was in it.
      expect(page.url()).not.toMatch(/ticket|key/);
      expect(await opening.outcome).toBe('used');
      expect(existsSync(opening.page)).toBe(false);

      // A working session: the app connects to the service through the shell and syncs.
      await connect(page, stack.service);
      await page.waitForURL(/#\/accounts$/);
      await page.getByTestId('sync-summary').filter({ hasText: 'Sync finished' }).waitFor();
      await reload(page, errors);
      await page.getByTestId('accounts-table').waitFor();
      expect(realErrors(errors), 'errors after the reload').toEqual([]);

      // The page is gone, and its ticket, given again (another tab, or someone who saw it), opens nothing.
      const again = await context.newPage();
      await expect(again.goto(pageUrl)).rejects.toThrow(/ERR_FILE_NOT_FOUND/);
      const spent = await context.newPage();
      await spent.goto(ticketUrl);
      await poll(() => spent.locator('[role=alert]').textContent()).toContain(
        'This link has opened the app already, or has waited too long.',
      );
      await screenshot(spent, 'handover-spent-en-light');
    } finally {
      await context.close();
    }
  });

  it('a page opened without the key says how to open it, in Czech too', async () => {
    for (const [locale, words] of [
      ['en-US', 'This page must be opened through the app or its browser shell.'],
      ['cs-CZ', 'Tuto stránku je třeba otevřít přes aplikaci nebo její prohlížečovou verzi.'],
    ] as const) {
      const context = await stack.browser.newContext({ locale });
      try {
        const page = await context.newPage();
        await page.goto(`${stack.shell.origin}/`);
        await poll(() => page.locator('[role=alert]').textContent()).toContain(words);
      } finally {
        await context.close();
      }
    }
  });
});
