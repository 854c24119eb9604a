/**
 * Words and numbers as a new English user meets them in Chromium through the browser shell, with the browser
 * and the machine in different time zones (the browser in Prague, the core in the machine's zone, Tokyo, as
 * a shell started with TZ=Asia/Tokyo would be): no Czech painted at any frame of an English first run, a
 * first sync that says what it received, and the core's own times (the last sync, when an outbox entry was
 * made) in the browser's zone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDateTimeInput } from '../../src-renderer/src/format/date-input';
import { formatWall, instantToWall, wallToInstant } from '../../src-shared/wire';
import { browserFor } from '../support/browser';
import { newAccount } from '../support/client';
import {
  type AppPage,
  chainedTests,
  connect,
  dismissSummary,
  go,
  openApp,
  poll,
  setAppearance,
  startStack,
  syncNow,
  textOf,
  type Stack,
} from './stack';

/** A Chromium-family browser: without one, this file is skipped (named at the end of the run), or fails in CI. */
const found = browserFor(import.meta.url);

const MACHINE_ZONE = 'Asia/Tokyo';
const BROWSER_ZONE = 'Europe/Prague';
let stack: Stack;
let app: AppPage;
const zoneBefore = process.env.TZ;

/**
 * Runs in the page before its own scripts: records every language the document says it is in and every text
 * the page puts on screen, from the first frame on (a flash between two frames is caught, a screenshot is not).
 */
function watchWhatIsPainted(): void {
  const seen = { langs: [] as string[], texts: [] as string[] };
  (window as unknown as { painted: typeof seen }).painted = seen;
  const note = (node: Node) => {
    const text = node.nodeType === Node.TEXT_NODE ? node.textContent : node instanceof Element ? node.textContent : null;
    if (text?.trim()) seen.texts.push(text.trim());
  };
  new MutationObserver((records) => {
    for (const r of records) {
      if (r.type === 'attributes') seen.langs.push(document.documentElement.lang);
      else if (r.type === 'characterData') note(r.target);
      else r.addedNodes.forEach(note);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['lang'] });
  // Every frame drawn while a sync runs: what the main area shows below its heading (nothing: a blank frame).
  const blank: string[] = [];
  const syncing = { frames: 0 };
  Object.assign(window, { blankWhileSyncing: blank, syncingFrames: syncing });
  const sample = () => {
    const main = document.querySelector('main');
    if (document.querySelector('[data-testid=sync-status]') && main) {
      syncing.frames++;
      const shown = [...main.querySelectorAll('.page > :not(.page-header)')].some((e) => e.getBoundingClientRect().height > 0);
      if (!shown) blank.push(location.hash);
    }
    requestAnimationFrame(sample);
  };
  requestAnimationFrame(sample);
}

/** Words of the app's Czech screens that no English screen and no demo record has. */
const CZECH_WORDS = /Účty|Synchroniz|Nastavení|Připoj|Převod|Pohyby|Přehledy|Šablony|Kategorie|Hledat|Odchozí fronta/;

beforeAll(async () => {
  if (!found) return;
  // The machine's zone is this process's: the core takes it as the shell does.
  process.env.TZ = MACHINE_ZONE;
  stack = await startStack({ machineZone: true });
  app = await openApp(stack, 'en-US', 'light', { timezoneId: BROWSER_ZONE, initScript: watchWhatIsPainted });
});
afterAll(() => {
  if (zoneBefore === undefined) delete process.env.TZ;
  else process.env.TZ = zoneBefore;
});
chainedTests('words-', () => ({ app, stack }));

describe.skipIf(!found)('words and numbers', () => {
  it('an English first run: no Czech painted at any frame through Connect and the first sync, which says what it received', async () => {
    const { page } = app;
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone, 'the core runs in another zone than the browser').toBe(MACHINE_ZONE);
    await connect(page, stack.service);
    await page.waitForURL(/#\/accounts$/);
    const summary = page.getByTestId('sync-summary').filter({ hasText: 'Sync finished' });
    await summary.waitFor();
    const accounts = (await stack.soap.listAccounts()).length;
    // Every account came with this sync: received, not changed.
    expect(await textOf(summary)).toContain(`${accounts} accounts received`);
    expect(await textOf(summary)).not.toContain('changed');
    await page.locator('[data-testid=accounts-table]').waitFor();
    const painted = await page.evaluate(() => (window as unknown as { painted: { langs: string[]; texts: string[] } }).painted);
    expect(painted.langs.length, 'the page says its language').toBeGreaterThan(0);
    expect(painted.langs.filter((l) => l !== 'en')).toEqual([]);
    expect(painted.texts.filter((t) => CZECH_WORDS.test(t))).toEqual([]);
    // While the first sync ran, the main area showed its progress or what had arrived, at every frame.
    expect(await page.evaluate(() => (window as unknown as { syncingFrames: { frames: number } }).syncingFrames.frames)).toBeGreaterThan(0);
    expect(await page.evaluate(() => (window as unknown as { blankWhileSyncing: string[] }).blankWhileSyncing)).toEqual([]);
  });

  it("the last sync and an outbox entry's time in the browser's zone, not the machine's: just now, at the browser's clock", async () => {
    const { page } = app;
    await dismissSummary(page);
    // The header says the sync that just went through was just now (the machine's wall clock is 8 hours ahead).
    await poll(() => textOf(page.getByTestId('last-sync'))).toBe('Synced just now');
    // An offline change made now says when it was made on the browser's clock: the instant the core recorded
    // (its wall clock in the machine's zone), shown in the browser's zone.
    await stack.core.addAccount(newAccount('Cash box'));
    const entry = (await stack.core.listOutbox()).find((e) => e.kind === 'addAccount')!;
    const instant = wallToInstant(entry.createdAt, MACHINE_ZONE);
    const inBrowserZone = formatDateTimeInput(formatWall(instantToWall(instant, BROWSER_ZONE)).slice(0, 16), 'en');
    await go(page, '/outbox');
    const card = page.locator(`[data-outbox-id="${entry.id}"]`);
    await poll(() => textOf(card)).toContain(`Made ${inBrowserZone}`);
  });

  it('Czech headers set in capitals keep the currency sign as written: "ČÁSTKA (Kč)", "CELKEM Kč", never "KČ"', async () => {
    const { page } = app;
    await setAppearance(page, 'cs', 'light');
    await go(page, '/register');
    const table = page.getByTestId('transactions-table');
    await table.locator('tbody tr').first().waitFor();
    // innerText is the text as drawn, capitals included.
    const heads = await textOf(table.locator('thead'));
    expect(heads).toContain('ČÁSTKA (Kč)');
    expect(heads).toContain('ZŮSTATEK (Kč)');
    expect(await textOf(page.locator('main .stat-label').first())).toMatch(/^CELKEM Kč( |$)/);
    await go(page, '/accounts');
    expect(await textOf(page.getByTestId('totals').locator('.stat-label').first())).toMatch(/^CELKEM Kč( |$)/);
    expect(await page.locator('main').innerText()).not.toContain('KČ');
  });

  it('a currency named one way: its sign, with the code where one is chosen ("Kč (CZK)"), never the code beside the sign', async () => {
    const { page } = app;
    await go(page, '/accounts');
    const tile = page.getByTestId('totals').locator('.stat').first();
    expect(await textOf(tile.getByTestId('register-link-203'))).toBe('Všechny pohyby v měně Kč');
    expect(await textOf(tile)).not.toContain('CZK');
    await page.getByTestId('add-account').click();
    const currency = page.getByRole('dialog').locator('select:has(option[value="978"])');
    expect(await textOf(currency.locator('option[value="203"]'))).toBe('Kč (CZK)');
    await page.keyboard.press('Escape');
    await go(page, '/register');
    expect(await textOf(page.locator('main select[name=currency] option:checked'))).toBe('Kč (CZK)');
  });

  it('report tiles show an amount of 10 digits whole, at 800 and 1280 px', async () => {
    const { page } = app;
    await setAppearance(page, 'en', 'light');
    const accounts = await stack.soap.listAccounts();
    const [from, to] = [accounts.find((a) => a.Name === 'Běžný účet')!, accounts.find((a) => a.Name === 'Spořicí účet')!];
    const wall = new Intl.DateTimeFormat('sv', { timeZone: 'Europe/Prague', dateStyle: 'short', timeStyle: 'medium' });
    await stack.soap.call('AddTranferToOtherAccount', {
      Amount: 1411381916.2,
      Description: 'A large sum',
      Id_SourceAccount: from.Id,
      Id_TargetAccount: to.Id,
      Id_Category: 0,
      PaymentDate: wall.format(new Date(2026, 0, 15)).replace(' ', 'T'),
    });
    await syncNow(page);
    await dismissSummary(page);
    for (const width of [800, 1280]) {
      await page.setViewportSize({ width, height: 800 });
      await go(page, `/reports?acc=${to.Id}&from=2026-01-01&to=2026-01-31&transfers=1`);
      const tiles = page.getByTestId('report-totals');
      await poll(() => textOf(tiles)).toMatch(/CZK 1,411,\d{3},\d{3}\.\d{2}/);
      const cut = await tiles
        .locator('.stat')
        .evaluateAll((stats) =>
          stats
            .filter((s) => s.scrollWidth > s.clientWidth || [...s.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth + 0.5))
            .map((s) => s.textContent),
        );
      expect(cut, `tiles cut at ${width} px`).toEqual([]);
    }
  });
});
