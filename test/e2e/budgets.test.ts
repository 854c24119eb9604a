/**
 * Budgets in the browser shell against the real service and core, with the demo data: amounts typed in
 * place on the month's screen, over and under shown in words (figures from the core's own month, which
 * test/client/budgets.test.ts holds to an oracle), "same as last month" saying how many it copied, the year
 * view, the budget columns of the category report and this month's budgets on the Categories screen; the
 * screen says budgets stay on this computer, and nothing waits in the outbox. The last test photographs the
 * budget screen in both languages.
 */
/// <reference lib="dom" />
import { beforeAll, describe, expect, it } from 'vitest';
import { addMonths, monthEnd } from '../../src-shared/calendar';
import { browserFor } from '../support/browser';
import { TEST_TIME_ZONE } from '../support/service';
import {
  type AppPage,
  brokenLists,
  chainedTests,
  connectedApp,
  go,
  money,
  poll,
  screenshot,
  setAppearance,
  textOf,
  type Stack,
  unlabelledControls,
} from './stack';

/** A Chromium-family browser: without one, this file is skipped (named at the end of the run), or fails in CI. */
const found = browserFor(import.meta.url);

let stack: Stack;
let app: AppPage;
beforeAll(async () => {
  ({ stack, app } = await connectedApp());
});
chainedTests('failed-budgets-', () => ({ app, stack }));

const CZK = 203;
/** This month on the test's wall clock, as the screens (in the same zone) see it. */
const thisMonth = () => new Intl.DateTimeFormat('sv', { timeZone: TEST_TIME_ZONE, dateStyle: 'short' }).format(new Date()).slice(0, 7);
/** The month the test works in: the last whole one, which the demo data fills. */
const month = () => addMonths(thisMonth(), -1);
const row = (id: number) => app.page.locator(`[data-testid=budget-month] tbody tr[data-category-id="${id}"]`);
/** The demo's top-level categories that spent in the month, the most first. */
async function spenders(): Promise<{ id: number; name: string; spent: string }[]> {
  const view = await stack.core.getBudgetMonth({ month: month(), currency: CZK });
  return view.rows
    .filter((r) => r.depth === 0 && Number(r.months[0]!.spent) > 0)
    .sort((a, b) => Number(b.months[0]!.spent) - Number(a.months[0]!.spent))
    .map((r) => ({ id: r.categoryId, name: r.name!, spent: r.months[0]!.spent }));
}

describe.skipIf(!found)('budgets', () => {
  it('amounts typed in place show over and under in words; nothing is queued and the screen says so', async () => {
    const { page } = app;
    await go(page, `/budgets?view=month&month=${month()}&currency=${CZK}`);
    await page.getByTestId('budget-month').waitFor();
    expect(await textOf(page.getByTestId('budgets-local-only'))).toContain('Kept on this computer only');
    const [first, second] = await spenders();
    expect(second, 'the demo data spends in two categories a month').toBeDefined();

    // Over: half of what was spent. Under: twice as much.
    const over = (Number(first!.spent) / 2).toFixed(0);
    const under = (Number(second!.spent) * 2).toFixed(0);
    await row(first!.id).getByTestId('budget-input').fill(over);
    await row(first!.id).getByTestId('budget-input').press('Enter');
    await poll(() => row(first!.id).locator('[data-col=state]').textContent()).toMatch(/Over by/);
    await row(second!.id).getByTestId('budget-input').fill(under);
    await row(second!.id).getByTestId('budget-input').press('Tab');
    await poll(() => row(second!.id).locator('[data-col=state]').textContent()).toMatch(/left/);

    const view = await stack.core.getBudgetMonth({ month: month(), currency: CZK });
    const cellOf = (id: number) => view.rows.find((r) => r.categoryId === id)!.months[0]!;
    expect(cellOf(first!.id)).toMatchObject({ budget: over, state: 'over' });
    expect(cellOf(second!.id)).toMatchObject({ budget: under, state: 'under' });
    const overBy = money(cellOf(first!.id).difference!.replace('-', ''), CZK);
    expect(await textOf(row(first!.id).locator('[data-col=state]'))).toBe(`Over by ${overBy}`);
    expect(await textOf(row(second!.id).locator('[data-col=state]'))).toBe(`${money(cellOf(second!.id).difference!, CZK)} left`);
    expect(await page.locator('[data-testid=budget-month] tfoot .budget-state').getAttribute('data-state')).toBe(view.total.state);

    // A wrong amount is refused beside its field, in words, and nothing is saved.
    await row(second!.id).getByTestId('budget-input').fill('12.345');
    await row(second!.id).getByTestId('budget-input').press('Enter');
    await poll(() => row(second!.id).locator('.field-error').textContent()).toMatch(/decimal/);
    expect((await stack.core.getBudgetMonth({ month: month(), currency: CZK })).total.budget).toBe(view.total.budget);
    await row(second!.id).getByTestId('budget-input').fill(under);
    await row(second!.id).getByTestId('budget-input').press('Enter');
    await poll(() => row(second!.id).locator('.field-error').count()).toBe(0);

    expect(await stack.core.listOutbox()).toEqual([]);
  });

  it('"same as last month" copies the budgets into the next month and says how many', async () => {
    const { page } = app;
    await page.getByTestId('budget-next').click();
    await poll(() => page.url()).toContain(`month=${thisMonth()}`);
    const copy = page.getByTestId('same-as-last-month');
    await poll(() => copy.isEnabled()).toBe(true);
    await copy.click();
    await poll(() => textOf(page.locator('.toast').first())).toContain('Copied 2 budgets from last month.');
    await poll(
      async () => (await stack.core.getBudgetMonth({ month: thisMonth(), currency: CZK })).rows.filter((r) => r.months[0]!.budget).length,
    ).toBe(2);
    // Again: nothing left to copy, and it says so.
    await copy.click();
    await poll(() => textOf(page.locator('.toast').first())).toContain('Nothing copied');
  });

  it('the year shows the budgeted categories by month; the report and the Categories screen compare too', async () => {
    const { page } = app;
    const [first, second] = await spenders();
    await page.locator('input[name=budget-view][value=year]').check({ force: true });
    const year = page.getByTestId('budget-year');
    await year.waitFor();
    const ids = await year
      .locator('thead th[data-category-id]')
      .evaluateAll((cols) => cols.map((c) => Number(c.getAttribute('data-category-id'))));
    expect(new Set(ids)).toEqual(new Set([first!.id, second!.id]));
    expect(await textOf(year)).toMatch(/Over by/);

    const from = `${month()}-01`;
    const to = monthEnd(month());
    await go(page, `/reports?from=${from}&to=${to}`);
    const table = page.getByTestId('report-categories');
    await table.locator('thead', { hasText: 'Compared with budget' }).waitFor();
    const report = await stack.core.getReport({ from, to, currency: CZK });
    const budgeted = report.categories.find((r) => r.categoryId === first!.id)!.budget!;
    const shown = table.locator(`tbody[data-category-id="${first!.id}"] [data-col=budget-state]`);
    expect(await textOf(shown)).toBe(
      budgeted.state === 'over'
        ? `Over by ${money(budgeted.difference!.replace('-', ''), CZK)}`
        : `${money(budgeted.difference!, CZK)} left`,
    );

    await go(page, '/categories');
    const card = page.getByTestId('category-budgets');
    await card.locator('tbody tr').first().waitFor();
    expect(await textOf(card)).toContain('Kept on this computer only');
  });

  it('screenshots of the budget screen, month and year, in both languages', async () => {
    const { page } = app;
    for (const lang of ['en', 'cs'] as const) {
      await setAppearance(page, lang, 'light');
      for (const view of ['month', 'year'] as const) {
        await go(page, `/budgets?view=${view}&month=${month()}&currency=${CZK}`);
        await page.getByTestId(`budget-${view}`).locator('tbody tr').first().waitFor();
        expect(await unlabelledControls(page), view).toEqual([]);
        expect(await brokenLists(page), view).toEqual([]);
        const words = lang === 'en' ? ['Kept on this computer only', 'Over by'] : ['Uloženo jen v tomto počítači', 'Překročeno o'];
        await screenshot(page, `budgets-${view}-${lang}-light`, false, words);
      }
    }
    await setAppearance(page, 'en', 'light');
  }, 60_000);
});
