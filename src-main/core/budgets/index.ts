/**
 * Budgets (src-shared/records/budget.ts): kept in the local copy only, never queued or sent. Each write
 * tells the screens that showing budgets (the 'budgets' table) changed, and answers the month as it is now.
 */
import { AppError, type InputOf } from '../../../src-shared/app-api';
import { addMonths } from '../../../src-shared/calendar';
import { currencyDigits, currencyLabel, decimalPlaces, parseDecimal } from '../../../src-shared/money';
import type { CoreParts, Handlers } from '../app/core-parts';
import { budgetCurrency, budgetView } from './budget-view';

export type BudgetMethod = 'getBudgetMonth' | 'getBudgetYear' | 'setBudget' | 'clearBudget' | 'copyBudgetMonth';

const yearMonths = (year: number): string[] =>
  Array.from({ length: 12 }, (_, k) => `${String(year).padStart(4, '0')}-${String(k + 1).padStart(2, '0')}`);

/** A budget's amount has at most its currency's decimals, and its category is in the tree. */
function checkBudget(parts: CoreParts, i: InputOf<'setBudget'>): void {
  const digits = currencyDigits(i.currency);
  if (decimalPlaces(parseDecimal(i.amount)!) > digits) {
    throw new AppError('amountDecimals', { currency: currencyLabel(i.currency), max: digits }, 'amount');
  }
  if (!parts.view.categories().some((c) => c.id === i.categoryId)) {
    throw new AppError('categoryMissing', { id: i.categoryId }, 'categoryId');
  }
}

export function budgetHandlers(parts: CoreParts): Handlers<BudgetMethod> {
  const month = (currency: number, m: string) => budgetView(parts, currency, [m], 'all');
  return {
    getBudgetMonth: async (i) => month(budgetCurrency(parts, i.currency), i.month),
    getBudgetYear: async (i) => budgetView(parts, budgetCurrency(parts, i.currency), yearMonths(i.year), 'budgeted'),
    setBudget: async (i) => {
      checkBudget(parts, i);
      parts.store.budgets.save(i);
      await parts.changed(['budgets']);
      return month(i.currency, i.month);
    },
    clearBudget: async (i) => {
      parts.store.budgets.clear(i.currency, i.month, i.categoryId);
      await parts.changed(['budgets']);
      return month(i.currency, i.month);
    },
    copyBudgetMonth: async (i) => {
      const previous = addMonths(i.month, -1);
      const { copied, offered } = parts.store.transaction(() => ({
        offered: parts.store.budgets.list(i.currency, previous, previous).length,
        copied: parts.store.budgets.copyMonth(i.currency, previous, i.month),
      }));
      if (copied > 0) await parts.changed(['budgets']);
      return { copied, kept: offered - copied, view: month(i.currency, i.month) };
    },
  };
}
