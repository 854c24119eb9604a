/**
 * Small windows, in Chromium through the browser shell: at 800x600, and at 200% zoom (a window of 1280x800
 * and of 800x600 showing half as many CSS pixels, at twice the density), every screen in both languages:
 * the boxes of labels, inputs, buttons and navigation items do not overlap; the navigation takes at most
 * an eighth of the height or folds into a menu; the navigation item of the screen shown is in view.
 */
/// <reference lib="dom" />
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserFor, collectPageErrors } from '../support/browser';
import { TEST_TIME_ZONE } from '../support/service';
import { DEMO, everyScreen, go, poll, realErrors, screenshot, setAppearance, startStack, type Stack } from './stack';

/** A Chromium-family browser: without one, this file is skipped (named at the end of the run), or fails in CI. */
const found = browserFor(import.meta.url);

let stack: Stack;
let bank: number;

/** Windows as CSS pixels and density: 200% zoom halves the CSS pixels and doubles the density. */
const WINDOWS = [
  { name: '800x600', width: 800, height: 600, scale: 1 },
  { name: '1280x800-zoom200', width: 640, height: 400, scale: 2 },
  { name: '800x600-zoom200', width: 400, height: 300, scale: 2 },
] as const;

beforeAll(async () => {
  stack = await startStack();
  await stack.core.connect({ baseUrl: stack.service.url, ...DEMO });
  await stack.core.saveCar({ carId: 1, name: 'Octavia' });
  expect((await stack.core.sync()).error).toBeNull();
  bank = (await stack.soap.listAccounts()).find((a) => a.Name === 'Běžný účet')!.Id;
  // Something waiting to be sent, so that the outbox and the header show their counts.
  await stack.core.addCategory({ name: 'Cestování', parentId: 0 });
});
afterAll(async () => {
  await stack?.close();
});

/** Beyond the small windows, those where the registers lost Description before (1024) and the usual one (1280). */
const REGISTER_WINDOWS = [
  { name: '1024x768', width: 1024, height: 768, scale: 1 },
  { name: '1280x800', width: 1280, height: 800, scale: 1 },
] as const;

/** The narrowest a register's Description may be: some 20 characters of a payee. */
const REGISTER_DESCRIPTION_MIN = 160;

/** Every screen, with what shows it has loaded. */
const screens = () => everyScreen(bank);

/**
 * Pairs of visible labels, controls and navigation items whose boxes overlap (more than a pixel each way),
 * where neither holds the other (a label around its checkbox). Parts scrolled out of a box that clips them
 * (a table wider than its card) count only where they show.
 */
async function overlaps(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector =
      'label, legend, .field-label, input, select, textarea, button, a.nav-link, a.btn, .input-addon, .pill, h1, .field-hint, .field-error';
    const header = document.querySelector('header.app-header');
    const headerBottom = header?.getBoundingClientRect().bottom ?? 0;
    const visible = (el: Element): DOMRect | null => {
      // Not rendered: hidden, transparent, or in a closed <details> (its content is kept but not shown).
      if (!el.checkVisibility({ opacityProperty: true, visibilityProperty: true, contentVisibilityAuto: true })) return null;
      if ((el as HTMLInputElement).type === 'hidden' || el.closest('.visually-hidden, [hidden], dialog:not([open])')) return null;
      let r = el.getBoundingClientRect();
      // What scrolled under the sticky header is covered by it, not beside it.
      if (header && !header.contains(el) && r.top < headerBottom) r = new DOMRect(r.left, headerBottom, r.width, r.bottom - headerBottom);
      if (r.width < 2 || r.height < 2) return null;
      // Clipped by a scrolling or hidden-overflow ancestor: only the part that shows.
      for (let a = el.parentElement; a; a = a.parentElement) {
        const o = getComputedStyle(a);
        if (o.overflowX !== 'visible' || o.overflowY !== 'visible') {
          const c = a.getBoundingClientRect();
          const left = Math.max(r.left, c.left);
          const top = Math.max(r.top, c.top);
          const right = Math.min(r.right, c.right);
          const bottom = Math.min(r.bottom, c.bottom);
          if (right - left < 2 || bottom - top < 2) return null;
          r = new DOMRect(left, top, right - left, bottom - top);
        }
      }
      return r;
    };
    const items = [...document.querySelectorAll(selector)]
      .map((el) => ({ el, r: visible(el) }))
      .filter((x): x is { el: Element; r: DOMRect } => x.r !== null);
    const name = (el: Element) =>
      `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''}${el.getAttribute('name') ? `[name=${el.getAttribute('name')}]` : ''} "${(el.textContent ?? '').trim().slice(0, 30)}"`;
    const out: string[] = [];
    for (let i = 0; i < items.length; i++) {
      for (let j = i + 1; j < items.length; j++) {
        const a = items[i]!;
        const b = items[j]!;
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        // A control inside a label (its own) is the label's.
        const la = a.el.closest('label');
        const lb = b.el.closest('label');
        if (la && la === lb) continue;
        const w = Math.min(a.r.right, b.r.right) - Math.max(a.r.left, b.r.left);
        const h = Math.min(a.r.bottom, b.r.bottom) - Math.max(a.r.top, b.r.top);
        if (w > 1 && h > 1) out.push(`${name(a.el)} × ${name(b.el)}`);
      }
    }
    return out;
  });
}

/** How the navigation sits: its height as laid out (0 when folded into the header's menu), and the current item's place. */
async function navigation(page: Page): Promise<{
  folded: boolean;
  height: number;
  current: { top: number; bottom: number; left: number; right: number } | null;
  inView: boolean;
}> {
  return page.evaluate(() => {
    const nav = document.querySelector<HTMLElement>('#main-nav')!;
    const folded = getComputedStyle(document.querySelector('[data-testid=nav-toggle]')!).display !== 'none';
    const box = nav.getBoundingClientRect();
    const current = nav.querySelector('.nav-link.active');
    const r = current?.getBoundingClientRect() ?? null;
    const inView =
      !!r &&
      r.top >= box.top - 0.5 &&
      r.bottom <= Math.min(box.bottom, innerHeight) + 0.5 &&
      r.top >= 0 &&
      r.left >= 0 &&
      r.right <= innerWidth + 0.5 &&
      r.height > 0;
    return {
      folded,
      height: getComputedStyle(nav).display === 'none' ? 0 : box.height,
      current: r && { top: r.top, bottom: r.bottom, left: r.left, right: r.right },
      inView,
    };
  });
}

/**
 * How a register lays out: each header's width, whether its text is cut (wider than its cell) or lies
 * beyond the scroller's right edge (to be scrolled to), and how many rows show wholly below the header.
 */
async function registerLayout(page: Page): Promise<{
  headers: { text: string; width: number; cut: boolean; hidden: boolean }[];
  description: number;
  rows: number;
  cutCells: string[];
  fits: boolean;
}> {
  return page.evaluate(() => {
    const scroller = document.querySelector<HTMLElement>('[data-testid=register-scroll]')!;
    const box = scroller.getBoundingClientRect();
    const heads = [...scroller.querySelectorAll<HTMLElement>('thead th')];
    // Cut: a box whose text needs more room than it gives (an ellipsis, or clipped), or a name wrapped inside.
    const cut = (el: HTMLElement): boolean =>
      [el, ...el.querySelectorAll<HTMLElement>('*')].some((e) => e.scrollWidth > e.clientWidth + 1) ||
      [...el.querySelectorAll('*'), el].some((e) =>
        [...e.childNodes].some((n) => {
          if (n.nodeType !== Node.TEXT_NODE || !n.textContent!.trim()) return false;
          const range = document.createRange();
          range.selectNodeContents(n);
          return new Set([...range.getClientRects()].map((l) => Math.round(l.top))).size > 1;
        }),
      );
    const headers = heads.map((th) => {
      const r = th.getBoundingClientRect();
      return {
        text: th.textContent.replace(/\s+/g, ' ').trim(),
        width: Math.round(r.width),
        cut: cut(th),
        hidden: r.right > box.right + 1 || r.left < box.left - 1,
      };
    });
    const description = headers.find((_, i) => heads[i]!.dataset.column === 'description')?.width ?? 0;
    const headBottom = scroller.querySelector('thead')!.getBoundingClientRect().bottom;
    const shown = [...scroller.querySelectorAll<HTMLElement>('tbody tr[data-key]')].filter((tr) => {
      const r = tr.getBoundingClientRect();
      return r.top >= headBottom - 1 && r.bottom <= box.bottom + 1;
    });
    // The date and the amounts of the rows in view: never cut.
    const cells = shown.flatMap((tr) => [...tr.querySelectorAll<HTMLElement>('[data-cell]')]);
    const cutCells = cells.filter(cut).map((c) => `${c.dataset.cell} "${c.textContent.trim()}"`);
    // The register whole in the window under the app's header, once the page is scrolled to it.
    const room = innerHeight - document.querySelector('header.app-header')!.getBoundingClientRect().height;
    return { headers, description, rows: shown.length, cutCells, fits: box.height <= room };
  });
}

describe.skipIf(!found)('small windows', () => {
  for (const win of WINDOWS) {
    it(`${win.name}: nothing overlaps, the navigation is small or a menu, its current item in view, in both languages`, async () => {
      const context = await stack.browser.newContext({
        locale: 'en-US',
        viewport: { width: win.width, height: win.height },
        deviceScaleFactor: win.scale,
        timezoneId: TEST_TIME_ZONE,
      });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      const errors = collectPageErrors(page);
      try {
        await page.goto(stack.shell.url);
        await page.locator('main h1').waitFor();
        const problems: string[] = [];
        for (const lang of ['en', 'cs'] as const) {
          await setAppearance(page, lang, 'light');
          for (const [name, path, ready] of screens()) {
            await go(page, path);
            await page.locator(ready).first().waitFor({ state: 'attached' });
            await page.evaluate(() => document.fonts.ready);
            const where = `${win.name} ${lang} ${name}`;
            for (const o of await overlaps(page)) problems.push(`${where}: ${o}`);
            // Nothing runs out of the window sideways (a page that must be scrolled across to be read).
            const across = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
            if (across > 1) problems.push(`${where}: the page is ${across} px wider than the window`);

            const nav = await navigation(page);
            if (nav.folded) {
              // Folded: nothing of it takes room until its button opens it; then its current item is in view.
              expect(nav.height, where).toBe(0);
              await page.getByTestId('nav-toggle').click();
              await poll(() => page.locator('#main-nav').isVisible()).toBe(true);
              const open = await navigation(page);
              expect(open.inView, `${where}: current item in the open menu ${JSON.stringify(open.current)}`).toBe(true);
              // The open menu lies over the screen, as menus do; its own items must not overlap each other.
              for (const o of await overlaps(page)) {
                if (o.split(' × ').every((side) => side.includes('nav-link'))) problems.push(`${where} (menu open): ${o}`);
              }
              if (name === 'pump') await screenshot(page, `small-${win.name}-${lang}-menu`, true);
              await page.keyboard.press('Escape');
              await poll(() => page.locator('#main-nav').isVisible()).toBe(false);
              expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), where).toBe('nav-toggle');
              // The button names the section of the screen shown.
              expect(await page.getByTestId('nav-toggle').getAttribute('aria-expanded')).toBe('false');
            } else {
              const across = (await page.locator('#main-nav').boundingBox())!;
              // A sidebar beside the screen takes no height from it; a strip across it at most an eighth.
              if (across.width < win.width / 2) expect(across.height, where).toBeGreaterThan(0);
              else expect(across.height, where).toBeLessThanOrEqual(win.height / 8);
              expect(nav.inView, `${where}: current item ${JSON.stringify(nav.current)}`).toBe(true);
            }
            if (['accounts', 'pump', 'transfer', 'settings'].includes(name)) {
              await screenshot(page, `small-${win.name}-${lang}-${name}`, true);
            }
          }
        }
        expect(problems).toEqual([]);
        expect(realErrors(errors)).toEqual([]);
      } finally {
        await context.close();
      }
    }, 120_000);
  }

  it('the registers keep Description readable and no header cut, at 800x600, 1024x768 and 200% zoom, in both languages', async () => {
    const problems: string[] = [];
    for (const win of [...WINDOWS, ...REGISTER_WINDOWS]) {
      const context = await stack.browser.newContext({
        locale: 'en-US',
        viewport: { width: win.width, height: win.height },
        deviceScaleFactor: win.scale,
        timezoneId: TEST_TIME_ZONE,
      });
      const page = await context.newPage();
      page.setDefaultTimeout(10_000);
      try {
        await page.goto(stack.shell.url);
        await page.locator('main h1').waitFor();
        for (const lang of ['en', 'cs'] as const) {
          await setAppearance(page, lang, 'light');
          for (const [name, path] of [
            ['register', '/register'],
            ['account', `/accounts/${bank}`],
          ] as const) {
            await go(page, path);
            await page.locator('[data-testid=transactions-table] tbody tr[data-key]').first().waitFor();
            await page.evaluate(() => document.fonts.ready);
            const where = `${win.name} ${lang} ${name}`;
            const layout = await registerLayout(page);
            if (layout.description < REGISTER_DESCRIPTION_MIN) problems.push(`${where}: Description ${layout.description} px`);
            for (const h of layout.headers) {
              if (h.cut) problems.push(`${where}: header "${h.text}" cut at ${h.width} px`);
              if (h.hidden) problems.push(`${where}: header "${h.text}" beyond the register's right edge`);
            }
            // A register is for reading rows: at 800x600 (and more) a screenful, not a peephole.
            if (win.scale === 1 && layout.rows < 6) problems.push(`${where}: ${layout.rows} rows in view`);
            if (!layout.fits) problems.push(`${where}: the register is taller than the window`);
            for (const c of layout.cutCells) problems.push(`${where}: ${c} cut`);
            if (await page.evaluate(() => document.documentElement.scrollWidth > innerWidth + 1)) {
              problems.push(`${where}: the page is wider than the window`);
            }
            // The picture shows the register, the page scrolled to put it at the window's foot.
            await page.locator('.register').evaluate((el) => el.scrollIntoView({ block: 'end' }));
            await screenshot(page, `register-${win.name}-${lang}-${name}`, true);
          }
        }
      } finally {
        await context.close();
      }
    }
    expect(problems).toEqual([]);
  }, 120_000);

  it('in a window shorter than the sidebar, the current item is scrolled into view', async () => {
    const context = await stack.browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 360 }, timezoneId: TEST_TIME_ZONE });
    const page = await context.newPage();
    try {
      await page.goto(stack.shell.url);
      await page.locator('main h1').waitFor();
      for (const path of ['/settings', '/data', '/accounts', '/outbox']) {
        await go(page, path);
        await poll(async () => (await navigation(page)).inView).toBe(true);
      }
    } finally {
      await context.close();
    }
  });
});
