/**
 * A budget: an amount to spend in a category in a month, in a currency. The service has no budgets: they are
 * kept in the local copy only (never queued, never sent), and travel with its backups and safety copies.
 *
 * - The currency is the budget's own (one of the accounts' currencies): what is spent is counted over the
 *   accounts of that currency, as a report is, so a household with crowns and euros keeps a budget in each.
 * - A budget covers its category and every category below it. Where a category and one below it both have a
 *   budget in a month, the outer one counts in the totals of the category's branch (its own spending includes
 *   the inner one's), so nothing is counted twice.
 * - The amount is what may be spent (at least zero, at most the currency's decimals), exact decimal text.
 */
import { v } from '../validate';
import { defineRecord, field, type Stored } from './fields';
import { currency } from './rules';

/** YYYY-MM, the month of a budget. */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;
export const month = () => v.text({ min: 7, max: 7, pattern: MONTH_PATTERN, patternCode: 'notMonth' });

export const BUDGET = defineRecord('budget', {
  month: field({ type: 'text', column: 'month', input: month(), words: 'month, as YYYY-MM' }),
  categoryId: field({ type: 'integer', column: 'category_id', input: v.id(), words: 'category id' }),
  currency: field({ type: 'currency', column: 'currency', input: currency(), words: 'currency' }),
  amount: field({ type: 'decimal', column: 'amount', input: v.decimal({ nonNegative: true, maxScale: 4 }), words: 'amount to spend' }),
});

/** A budget as the local copy keeps it. */
export type BudgetStored = Stored<typeof BUDGET>;
