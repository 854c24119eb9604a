/**
 * The register of a decade, in Chromium through the browser shell: a local copy of 100,000
 * transactions over ten years on 10 accounts (a tenth of them transfers). Open an account, jump to a
 * date, scroll a thousand rows, move by keyboard, open a row's detail: what each shows. How soon (the
 * first rows, the jump, the scroll, the long tasks, against the 100 ms and 50 ms):
 * `npm run bench -- register`. Then screenshots of the register and the detail in both languages and
 * both themes.
 */
/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserFor } from '../support/browser';
import {
  earliestAfterJump,
  openRegisterOfADecade,
  PENDING,
  REGISTER,
  scrollRows,
  topDate,
  type RegisterPage,
} from '../support/register-page';
import { go, poll, realErrors, screenshot, setAppearance, textOf } from './stack';

const found = browserFor(import.meta.url);
const TRANSACTIONS = REGISTER.transactions;

let opened: RegisterPage;
let page: Page;
let errors: string[];

beforeAll(async () => {
  if (!found) return;
  opened = await openRegisterOfADecade();
  ({ page, errors } = opened);
}, 180_000);

afterAll(async () => {
  await opened?.close();
});

const rows = () => page.locator('[data-testid=transactions-table] tbody tr[data-key]');

/** Jumps to a date and waits until the register shows the rows of that day and older (not the window before). */
async function jumpTo(day: string): Promise<void> {
  const earliest = earliestAfterJump(day);
  await page.getByTestId('jump-date').fill(day);
  await page.getByTestId('jump').click();
  await poll(async () => {
    const date = await topDate(page);
    const busy = await page.getByTestId('transactions-table').getAttribute('aria-busy');
    return busy === 'false' && date !== null && date <= day && date >= earliest ? 'there' : `busy ${busy}, first row ${date}`;
  }).toBe('there');
}

/** "Rows 4,201–4,230 of 100,002" (or "Řádky 4 201–4 230 z 100 002"): 4201. */
const positionFrom = (text: string) => Number(text.replace(/[^\d–]/g, '').split('–')[0]);

describe.skipIf(!found)('the register of a decade', () => {
  it('opens an account, jumps to a date, scrolls a thousand rows: its rows, the date, a thousand rows further, in order', async () => {
    for (const [account, day] of [
      [5, '2019-03-14'],
      [6, '2021-11-02'],
    ] as const) {
      await go(page, '/accounts');
      await page.locator('[data-testid=accounts-table]').waitFor();
      await go(page, `/accounts/${account}`);
      await poll(() => textOf(page.locator('main h1'))).toBe(`Account ${account}`);
      await poll(() => rows().count()).toBeGreaterThan(5);

      await jumpTo(day);

      const before = positionFrom(await textOf(page.getByTestId('register-position')));
      await scrollRows(page, 1000);
      const after = positionFrom(await textOf(page.getByTestId('register-position')));
      // A thousand rows further (the last step may land a row beyond: the view moves by whole steps).
      expect(after - before).toBeGreaterThanOrEqual(1000);
      expect(after - before).toBeLessThanOrEqual(1001);
      // The rows in the page are consecutive rows of the register (no gap where pages met).
      const indexes = await rows().evaluateAll((list) => list.map((tr) => Number(tr.getAttribute('aria-rowindex'))));
      expect(indexes.every((x, k) => k === 0 || x === indexes[k - 1]! + 1)).toBe(true);
      // Only the rows in view and two more on each side are in the page: each frame of scrolling mounts,
      // lays out and paints every row that came into that range (RegisterTable's OVERSCAN).
      const { inView, mounted } = await page.evaluate(() => {
        const el = document.querySelector<HTMLElement>('[data-testid=register-scroll]')!;
        const height = el.querySelector<HTMLElement>('tbody tr[data-key]')!.offsetHeight;
        return { inView: Math.ceil(el.clientHeight / height) + 1, mounted: el.querySelectorAll('tbody tr[data-key]').length };
      });
      expect(mounted).toBeGreaterThanOrEqual(inView - 2);
      expect(mounted).toBeLessThanOrEqual(inView + 2 * 2);
    }

    // The newest row's balance is the account's balance now.
    await page.getByTestId('register-newest').click();
    await poll(() => textOf(page.getByTestId('register-position'))).toMatch(/^Rows 1–/);
    expect(await textOf(rows().first().locator('td').last())).toBe(
      (await textOf(page.getByTestId('account-balance'))).replace(/CZK\s*/, ''),
    );
    expect(realErrors(errors)).toEqual([]);
  }, 180_000);

  it('keeps its row elements while scrolling, each showing its own row, and a row scrolled away gives up the focus', async () => {
    await go(page, '/accounts/2');
    await poll(() => rows().count()).toBeGreaterThan(5);
    await page.getByTestId('register-newest').click();
    await poll(() => textOf(page.getByTestId('register-position'))).toMatch(/^Rows 1–/);
    // Every row element in the page now, and the row each shows.
    const before = await rows().evaluateAll((list) => {
      (window as unknown as { seenRows: WeakSet<Element> }).seenRows = new WeakSet(list);
      return list.map((tr) => tr.getAttribute('data-key'));
    });
    const reused = () =>
      rows().evaluateAll((list) => list.map((tr) => (window as unknown as { seenRows: WeakSet<Element> }).seenRows.has(tr)));
    const keyed = () => rows().evaluateAll((list) => list.map((tr) => [tr.getAttribute('data-key'), tr.getAttribute('aria-rowindex')]));

    // A few rows further: the rows still in range keep their elements, in order, and the ones that came take the
    // elements of the ones that left.
    await scrollRows(page, 5);
    const after = await keyed();
    expect(after.map(([key]) => key)).not.toEqual(before);
    expect(after.filter(([key]) => before.includes(key ?? null)).length).toBeGreaterThan(0);
    expect(await reused()).toEqual(after.map(() => true));
    // Each element shows its own row: consecutive places, and the keys the register has there.
    const indexes = after.map(([, index]) => Number(index));
    expect(indexes.every((x, k) => k === 0 || x === indexes[k - 1]! + 1)).toBe(true);
    expect(new Set(after.map(([key]) => key)).size).toBe(after.length);

    // A focused row scrolled out of the range by exactly as many rows as the page holds: every element is handed
    // to the row as many places further, in place, and the focused one, now another row's, does not keep the focus.
    await rows().nth(3).focus();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-key'))).toBe(after[3]![0]);
    await page.evaluate((n) => {
      const el = document.querySelector<HTMLElement>('[data-testid=register-scroll]')!;
      el.scrollTop += n * el.querySelector<HTMLElement>('tbody tr[data-key]')!.offsetHeight;
    }, after.length);
    await poll(() => rows().first().getAttribute('aria-rowindex')).toBe(String(indexes[0]! + after.length));
    expect(await page.evaluate(() => document.activeElement?.closest('tr')?.getAttribute('data-key') ?? null)).toBeNull();
    expect(realErrors(errors)).toEqual([]);
  }, 60_000);

  it('moves by keyboard, opens a row in full and closes it with Esc', async () => {
    await go(page, '/accounts/3');
    await poll(() => rows().count()).toBeGreaterThan(5);
    await page.getByTestId('register-newest').click();
    await poll(() => textOf(page.getByTestId('register-position'))).toMatch(/^Rows 1–/);
    await rows().first().focus();
    const keyOf = () => page.evaluate(() => document.activeElement?.getAttribute('data-key'));
    const first = await keyOf();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const third = await keyOf();
    expect(third).not.toBe(first);
    expect(await rows().nth(2).getAttribute('data-key')).toBe(third);
    await page.keyboard.press('PageDown');
    await page.keyboard.press('PageDown');
    const below = await page.evaluate(() => Number(document.activeElement?.getAttribute('aria-rowindex')));
    expect(below).toBeGreaterThan(12);
    await page.keyboard.press('PageUp');
    expect(await page.evaluate(() => Number(document.activeElement?.getAttribute('aria-rowindex')))).toBeLessThan(below);
    await page.keyboard.press('End');
    await poll(() => page.evaluate(() => Number(document.activeElement?.getAttribute('aria-rowindex')))).toBeGreaterThan(9000);
    await page.keyboard.press('Home');
    await poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-rowindex'))).toBe('2');

    // The pending transfer: its row in full, then Esc back to the row.
    await jumpTo(PENDING.date);
    const pending = page.locator('[data-testid=transactions-table] tbody tr.is-pending');
    await poll(() => pending.count()).toBe(1);
    expect(await textOf(pending)).toContain(PENDING.description);
    expect(await textOf(pending)).toContain('to Account 4');
    await pending.focus();
    await page.keyboard.press('Enter');
    const detail = page.getByTestId('transaction-detail');
    await poll(() => textOf(detail)).toContain(PENDING.description);
    expect(await textOf(page.getByTestId('detail-state'))).toMatch(/^Waiting Change number \d+ in the outbox, made .* · Open outbox$/);
    expect(await textOf(detail)).toContain('Account 4');
    await screenshot(page, 'register-detail-pending-en-light', true);
    await page.keyboard.press('Escape');
    await poll(() => page.locator('dialog[open]').count()).toBe(0);
    expect(await page.evaluate(() => document.activeElement?.classList.contains('is-pending'))).toBe(true);

    // A synced transfer: its other side named, the row confirmed by the service.
    const transfer = rows()
      .filter({ hasText: /Transfer \d+/ })
      .first();
    await transfer.click();
    await poll(() => textOf(detail)).toContain('Confirmed by the service');
    expect(await textOf(detail)).toMatch(/Other side of the transfer Account \d+/);
    await page.keyboard.press('Escape');
  }, 60_000);

  it('across accounts: every account of the currency, the balance of them all', async () => {
    await go(page, '/accounts');
    await page.getByTestId('register-link-203').click();
    await poll(() => textOf(page.locator('main h1'))).toBe('All transactions');
    await poll(() => rows().count()).toBeGreaterThan(5);
    const total = Number((await textOf(page.getByTestId('register-position'))).replace(/,/g, '').match(/of (\d+)/)![1]);
    expect(total).toBe(TRANSACTIONS + 2);
    expect(await textOf(rows().first().locator('td').last())).toBe(
      (await textOf(page.getByTestId('register-balance'))).replace(/CZK\s*/, ''),
    );
  }, 60_000);

  it('screenshots: the register and a row in full, in both languages and both themes', async () => {
    for (const lang of ['en', 'cs'] as const) {
      for (const theme of ['light', 'dark'] as const) {
        await setAppearance(page, lang, theme);
        await go(page, '/accounts/4');
        await jumpTo(PENDING.date);
        await poll(() => page.locator('[data-testid=transactions-table] tbody tr.is-pending').count()).toBe(1);
        await screenshot(page, `register-${lang}-${theme}`, true);
        await page.locator('[data-testid=transactions-table] tbody tr.is-pending').click();
        await page.getByTestId('transaction-detail').waitFor();
        await screenshot(page, `register-detail-${lang}-${theme}`, true);
        await page.keyboard.press('Escape');
        await go(page, '/register');
        await poll(() => rows().count()).toBeGreaterThan(5);
        await screenshot(page, `register-all-${lang}-${theme}`, true);
      }
    }
    await setAppearance(page, 'en', 'light');
    expect(realErrors(errors)).toEqual([]);
  }, 120_000);
});
