/** The app API tour's part for budgets, kept in the local copy only (see app-api-tour.ts). */
import { expect } from 'vitest';
import type { BudgetCopy, BudgetView, CategoryTreeView } from '../../src-shared/app-api';
import type { TourCall } from './app-api-tour';

export async function tourBudgets(ok: TourCall): Promise<void> {
  const category = (await ok<CategoryTreeView>('getCategoryTree')).all[0]!;
  const set = await ok<BudgetView>('setBudget', { month: '2026-10', categoryId: category.id, currency: 203, amount: '1500.5' });
  expect(set.rows.find((r) => r.categoryId === category.id)!.months[0]!.budget).toBe('1500.5');
  expect((await ok<BudgetView>('getBudgetMonth', { month: '2026-10', currency: 203 })).total.budget).toBe('1500.5');
  expect(await ok<BudgetCopy>('copyBudgetMonth', { month: '2026-11', currency: 203 })).toMatchObject({ copied: 1, kept: 0 });
  const year = await ok<BudgetView>('getBudgetYear', { year: 2026, currency: 203 });
  expect(year.rows.map((r) => r.categoryId)).toEqual([category.id]);
  expect(year.total.budget).toBe('3001');
  expect((await ok<BudgetView>('clearBudget', { month: '2026-11', categoryId: category.id, currency: 203 })).total.budget).toBeNull();
}
