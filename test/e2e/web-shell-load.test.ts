/**
 * `npm run web`'s entry point, started as a user starts it, serves the app, and Chromium loads it with
 * no console errors.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newLocalDataFile } from '../support/app';
import { browserFor, collectPageErrors, launchChromium } from '../support/browser';
import { poll, realErrors, reload } from './stack';

/** A Chromium-family browser: without one, this file is skipped (named at the end of the run), or fails in CI. */
const found = browserFor(import.meta.url);

const root = join(import.meta.dirname, '..', '..');
let child: ChildProcess;
let browser: Browser;
let url: string;
const local = newLocalDataFile();

beforeAll(async () => {
  child = spawn(
    join(root, 'node_modules', '.bin', 'tsx'),
    [join(root, 'src-main', 'web-shell', 'main.ts'), '--port', '0', '--data', local.dataFile],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /open at (http:\/\/127\.0\.0\.1:\d+\/#key=[\w-]+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => reject(new Error(`npm run web exited with ${code}: ${out}`)));
  });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  child?.kill('SIGTERM');
  local.remove();
});

it.skipIf(!found)('serves the app, which loads in Chromium with no console errors', async () => {
  const page = await browser.newPage();
  const errors = collectPageErrors(page);
  await page.goto(url);
  await page.locator('#app > *').first().waitFor();
  await page.getByRole('heading').first().waitFor();
  expect(await page.title()).toMatch(/Bookkeeping|Účetnictví|Evidence/i);
  // The key came in the address's fragment and is out of it now; a reload finds it in the tab.
  expect(page.url()).not.toContain('key=');
  await reload(page, errors);
  await page.getByRole('heading').first().waitFor();
  expect(await page.locator('[role=alert]').count()).toBe(0);
  expect(realErrors(errors), 'errors after the reload').toEqual([]);
  // An address with another key (a guess, or an earlier run's) opens nothing.
  const stranger = await browser.newPage();
  await stranger.goto(url.replace(/key=.*/, 'key=guess'));
  await poll(() => stranger.locator('[role=alert]').textContent()).toContain(
    'This address holds the key of an earlier run of “npm run web”.',
  );
});

it.skipIf(!found)('reads the other screens ahead once the first is shown: the charts and every screen, each once', async () => {
  const page = await browser.newPage();
  const errors = collectPageErrors(page);
  await page.goto(url);
  await page.getByRole('heading').first().waitFor();
  const scripts = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => new URL(e.name).pathname.split('/').pop()!)
        .filter((name) => name.endsWith('.js'))
        .map((name) => name.replace(/-[\w-]{8}\.js$/, '')),
    );
  // Read in idle time, without opening a screen: the charts' chunk and the screens' (15 of them).
  const screens = ['ChartCanvas', 'ReportsView', 'FuelStatsView', 'AccountView', 'RegisterView', 'SettingsView', 'DataView'];
  await poll(async () => {
    const read = await scripts();
    return screens.filter((s) => !read.includes(s));
  }).toEqual([]);
  await poll(async () => (await scripts()).filter((s) => s.endsWith('View')).length).toBeGreaterThanOrEqual(15);
  // Each read once: the shell's caching aside, nothing is read twice.
  const read = await scripts();
  expect(read.length).toBe(new Set(read).size);
  expect(realErrors(errors)).toEqual([]);
  await page.close();
});

it.skipIf(!found)('reads the messages of the language it shows only: English at opening, Czech once picked', async () => {
  const page = await browser.newPage({ locale: 'en-US' });
  const errors = collectPageErrors(page);
  await page.goto(url);
  await poll(() => page.locator('h1').first().textContent()).toBe('Welcome');
  const messages = () =>
    page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((e) => new URL(e.name).pathname.split('/').pop()!)
        .filter((name) => /^(en|cs)-[\w-]{8}\.js$/.test(name))
        .map((name) => name.slice(0, 2)),
    );
  expect(await messages()).toEqual(['en']);
  // Picked on the first-run screen: Czech read then, and shown.
  await page.locator('label', { hasText: 'Čeština' }).click();
  await poll(() => page.locator('h1').first().textContent()).toBe('Vítejte');
  expect((await messages()).sort()).toEqual(['cs', 'en']);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('cs');
  expect(realErrors(errors)).toEqual([]);
  await page.close();
});

it.skipIf(!found)('gives V8 every script whole at load (the compile hint) and warms Intl in a worker the policy allows', async () => {
  const page = await browser.newPage();
  const errors = collectPageErrors(page);
  await page.goto(url);
  await page.getByRole('heading').first().waitFor();
  const scripts = await page.evaluate(() =>
    performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((name) => name.endsWith('.js')),
  );
  // The worker that makes the first Intl objects off the page's thread (format/intl-warm.ts) was read.
  expect(scripts.some((name) => /\/intl-warm\.worker-[\w-]{8}\.js$/.test(name))).toBe(true);
  // Each script the opening read begins with the hint, as served (scripts/compile-hints.ts).
  const firstLines = await page.evaluate(
    (names) => Promise.all(names.map(async (name) => (await (await fetch(name)).text()).split('\n')[0])),
    scripts.filter((name) => !name.includes('intl-warm')),
  );
  expect(firstLines.length).toBeGreaterThan(3);
  expect(new Set(firstLines)).toEqual(new Set(['//# allFunctionsCalledOnLoad']));
  expect(realErrors(errors)).toEqual([]);
  await page.close();
});
