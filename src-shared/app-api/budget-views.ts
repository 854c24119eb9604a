/**
 * Budgets against what was spent (src-shared/records/budget.ts says what a budget is). Money travels as
 * canonical decimal text in the budget's currency, computed with exact decimals.
 *
 * - Spent: what left the accounts of the currency in the category and every category below it, less what
 *   came back into them (refunds): expense − income, transfers left out, waiting writes included.
 * - A month without a budget counts as a budget of nothing in a sum over months (a year's total).
 * - Totals add up the outer budgeted categories only (those without a budgeted category above them in the
 *   months shown): an inner one's budget and spending are already in its outer one's branch.
 */
import type { Id } from './views';

/** Over budget (spent more than it), under it (spent less) or exactly on it. */
export type BudgetState = 'over' | 'under' | 'even';

/** A budget and what was spent against it, in a month or summed over months. */
export interface BudgetCell {
  /** The budget; null where none is set (in every month summed). */
  budget: string | null;
  spent: string;
  /** budget − spent: what is left, negative when overspent; null without a budget. */
  difference: string | null;
  /** null without a budget. */
  state: BudgetState | null;
}

/** A category of a budget view, in the tree's order. */
export interface BudgetRow {
  categoryId: Id;
  /** null: a category with a budget that is no longer in the tree. */
  name: string | null;
  /** How deep in the tree (0: top level). */
  depth: number;
  /** A category with a budgeted category above it: its figures are in that one's, not again in the totals. */
  inner: boolean;
  /** One per month of the view, in the order of its `months`. */
  months: BudgetCell[];
  /** Over the view's months. */
  total: BudgetCell;
}

export interface BudgetView {
  currency: number;
  /** YYYY-MM of each month shown: one (a month's view) or twelve (a year's). */
  months: string[];
  /** Every category of the tree (a month's view), or those with a budget in one of the months (a year's). */
  rows: BudgetRow[];
  /** Over the outer budgeted categories: per month, and over all the months. */
  totals: BudgetCell[];
  total: BudgetCell;
  /** How many budgets the month before the first one has (what "same as last month" would copy). */
  previousMonthBudgets: number;
  /** Currencies that have accounts, for choosing another. */
  currencies: number[];
}

/** What "same as last month" did: how many budgets it copied, and the month as it is now. */
export interface BudgetCopy {
  copied: number;
  /** Budgets the month already had for categories of the previous month: left as they were. */
  kept: number;
  view: BudgetView;
}
