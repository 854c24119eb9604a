/**
 * The command line's `budget`: list a month or a year, set, clear, copy last month, on a real local copy; its
 * help names the arguments by the budget's field table; a wrong value is refused in one sentence.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUDGET } from '../../src-shared/records/budget';
import { seedLocal } from '../insights/local-data';
import { expectCliFailure, runCliOn } from '../support/cli';
import { tempDir } from '../support/client';

const tmp = tempDir('bookkeeping-cli-budget-');
const data = tmp.file('local.sqlite');
const cli = (args: string[]) => runCliOn(data, args);
beforeAll(() =>
  seedLocal(data, {
    accounts: [
      { id: 1, name: 'Current', currency: 203, balance: '10000' },
      { id: 2, name: 'Euro', currency: 978, balance: '100' },
    ],
    categories: [
      { id: 10, name: 'Food', parentId: 0 },
      { id: 11, name: 'Groceries', parentId: 10 },
      { id: 40, name: 'Leisure', parentId: 0 },
    ],
    transactions: [
      { id: 1, accountId: 1, paymentDate: '2026-03-02T10:00:00', amount: '-1234.5', categoryId: 11 },
      { id: 2, accountId: 1, paymentDate: '2026-03-05T10:00:00', amount: '-900', categoryId: 40 },
      { id: 3, accountId: 2, paymentDate: '2026-03-05T10:00:00', amount: '-9', categoryId: 40 },
    ],
  }),
);
afterAll(() => tmp.remove());

describe('budget', () => {
  it('help names each argument by the field table, and says budgets stay on this computer', async () => {
    const help = (await cli(['budget', 'set', '--help'])).out;
    for (const key of ['categoryId', 'month', 'amount'] as const) expect(help).toContain(`the ${BUDGET.fields[key].words}`);
    expect(help).toContain('at most 4 decimals');
    expect(help).toContain('kept on this computer only');
    expect((await cli(['--help'])).out).toMatch(/budget list/);
  });

  it('sets, lists a month and a year with over and under in words, copies last month and clears', async () => {
    const set = await cli(['budget', 'set', '10', '2026-03', '2000']);
    expect(set.code).toBe(0);
    expect(set.out).toContain('kept on this computer only');
    expect((await cli(['budget', 'set', '40', '2026-03', '500.5'])).code).toBe(0);
    expect((await cli(['budget', 'set', '40', '2026-03', '20', '--currency', 'EUR'])).code).toBe(0);

    const month = await cli(['budget', 'list', '2026-03']);
    expect(month.code).toBe(0);
    const line = (name: string) => month.out.split('\n').find((l) => l.trimStart().startsWith(name)) ?? '';
    // Food: 1234.50 of 2000 (Groceries' spending is Food's); Leisure: 900 of 500.50.
    expect(line('Food')).toMatch(/2026-03\s+2000\s+1234\.5\s+765\.5\s+765\.5 left/);
    expect(line('Leisure')).toMatch(/500\.5\s+900\s+-399\.5\s+over by 399\.5/);
    expect(line('TOTAL')).toMatch(/2500\.5\s+2134\.5\s+366\s+366 left/);
    const euro = (await cli(['budget', 'list', '2026-03', '--currency', 'EUR', '--json'])).json();
    expect(euro.rows.find((r: { categoryId: number }) => r.categoryId === 40).months[0]).toEqual({
      budget: '20',
      spent: '9',
      difference: '11',
      state: 'under',
    });

    const copy = await cli(['budget', 'copy-last-month', '2026-04', '--json']);
    expect(copy.json()).toMatchObject({ copied: 2, kept: 0 });
    expect((await cli(['budget', 'copy-last-month', '2026-04'])).out).toContain(
      'Copied 0 budget(s) from the month before; 2 the month already had',
    );

    const year = (await cli(['budget', 'list', '2026', '--json'])).json();
    expect(year.months).toHaveLength(12);
    expect(year.rows.map((r: { categoryId: number }) => r.categoryId)).toEqual([10, 40]);
    expect(year.total).toEqual({ budget: '5001', spent: '2134.5', difference: '2866.5', state: 'under' });

    expect((await cli(['budget', 'clear', '10', '2026-04'])).code).toBe(0);
    expect((await cli(['budget', 'list', '2026-04', '--json'])).json().total.budget).toBe('500.5');
    // Nothing of it waits to be sent.
    expect((await cli(['outbox', '--json'])).json()).toEqual([]);
  });

  it('refuses a month that is none, an amount with too many decimals, an unknown category, in one sentence', async () => {
    expectCliFailure(await cli(['budget', 'set', '10', '2026-13', '1']), /month must be a month such as 2026-11/);
    expectCliFailure(await cli(['budget', 'set', '10', '2026-03', '1.005']), /more decimal places than CZK allows \(2\)/);
    expectCliFailure(await cli(['budget', 'set', '99', '2026-03', '1']), /Category 99 does not exist/);
    expectCliFailure(await cli(['budget', 'set', 'food', '2026-03', '1']), /category id must be a whole number/);
  });
});
