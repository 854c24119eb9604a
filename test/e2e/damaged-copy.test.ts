/**
 * A local copy damaged on disk, opened in the browser shell: the app shows the recovery screen instead
 * of failing, offers the newest safety copy first (or a new empty copy, saying what it cannot bring back),
 * and after the recovery the app is back with the data of the safety copy. The damaged file is kept aside.
 * Screenshots of the screen in English and Czech, with and without a safety copy.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRecoverableCore } from '../../src-main/core/app/recoverable-core';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { startWebShell, type WebShell } from '../../src-main/web-shell/server';
import { browserFor, collectPageErrors, launchChromium } from '../support/browser';
import { damagedLocalCopy } from '../support/damaged-copy';
import { poll, RENDERER_DIR, realErrors, screenshot } from './stack';

const found = browserFor(import.meta.url);
let dir: string;
let browser: Browser;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'bookkeeping-damaged-e2e-'));
  if (found) browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A damaged local copy in the test folder, with or without a safety copy to recover from. */
const damagedCopy = (name: string, safetyCopy: boolean) => damagedLocalCopy(join(dir, name), { safetyCopy });

async function openShell(file: string): Promise<{ shell: WebShell; close(): Promise<void> }> {
  const core = openRecoverableCore({ dataFile: file, secrets: new MemorySecretStore(), log: () => undefined });
  const shell = await startWebShell({ core, rendererDir: RENDERER_DIR, log: () => undefined });
  return {
    shell,
    async close() {
      await shell.close();
      await core.close();
    },
  };
}

describe.skipIf(!found)('a damaged local copy', () => {
  it('opens to the recovery screen; the newest safety copy brings the app back', async () => {
    const file = damagedCopy('with-safety.sqlite', true);
    const { shell, close } = await openShell(file);
    const context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 860 } });
    try {
      const page = await context.newPage();
      const errors = collectPageErrors(page);
      await page.goto(shell.url);
      const screen = page.getByTestId('damaged-copy');
      await screen.waitFor();
      await poll(() => screen.textContent()).toContain(file);
      // Nothing else of the app is offered while the copy cannot be read.
      expect(await page.getByTestId('sync-button').count()).toBe(0);
      // The newest safety copy first, every copy listed, and what a new copy cannot bring back.
      expect(await page.locator('[data-testid=damaged-copy] button').first().getAttribute('data-testid')).toBe('recover-safety-copy');
      expect(await page.getByTestId('safety-copies').locator('dd').allTextContents()).toEqual(['before an update of the app']);
      expect(await page.getByTestId('fresh-copy-loses').textContent()).toMatch(/last 50 transactions of each account/);
      await screenshot(page, 'damaged-copy-en-light');
      await page.getByTestId('recover-safety-copy').click();
      await page.getByTestId('damaged-copy').waitFor({ state: 'detached' });
      await page.locator('main h1').waitFor();
      expect(readdirSync(dir).filter((f) => f.startsWith('with-safety.sqlite.damaged-'))).toHaveLength(1);
      expect(realErrors(errors).filter((e) => !/status of 4\d\d|damaged/.test(e))).toEqual([]);
    } finally {
      await context.close();
      await close();
    }
  });

  it('in Czech, with the safety copies listed by date and reason', async () => {
    const file = damagedCopy('with-safety-cs.sqlite', true);
    const { shell, close } = await openShell(file);
    const context = await browser.newContext({ locale: 'cs-CZ', viewport: { width: 1280, height: 900 } });
    try {
      const page = await context.newPage();
      await page.goto(shell.url);
      await page.getByTestId('damaged-copy').waitFor();
      await poll(() => page.getByTestId('safety-copies').locator('dd').allTextContents()).toEqual(['před aktualizací aplikace']);
      expect(await page.getByTestId('damaged-copy').textContent()).toMatch(/Obsahuje celou vaši historii/);
      await screenshot(page, 'damaged-copy-cs-light');
    } finally {
      await context.close();
      await close();
    }
  });

  it('without a safety copy, offers only a new empty copy, in Czech too', async () => {
    const file = damagedCopy('without-safety.sqlite', false);
    const { shell, close } = await openShell(file);
    const context = await browser.newContext({ locale: 'cs-CZ', colorScheme: 'dark', viewport: { width: 1280, height: 860 } });
    try {
      const page = await context.newPage();
      await page.goto(shell.url);
      await page.getByTestId('damaged-copy').waitFor();
      expect(await page.getByTestId('recover-safety-copy').count()).toBe(0);
      expect(await page.getByTestId('fresh-copy-loses').textContent()).toMatch(/posledních 50 transakcí každého účtu/);
      await screenshot(page, 'damaged-copy-cs-dark');
      await page.getByTestId('recover-empty').click();
      await page.getByTestId('damaged-copy').waitFor({ state: 'detached' });
      // A new empty copy holds no connection: the first-run screen.
      await page.locator('input[name=baseUrl]').waitFor();
      expect(readdirSync(dir).some((f) => f.startsWith('without-safety.sqlite.damaged-'))).toBe(true);
    } finally {
      await context.close();
      await close();
    }
  });
});
