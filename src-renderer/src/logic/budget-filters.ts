/** What the Budgets screen shows, kept in its address: a month or a year, and a currency (none: the core's default). */
import { addMonths } from '../../../src-shared/calendar';
import { MONTH_PATTERN } from '../../../src-shared/records/budget';

export interface BudgetFilters {
  view: 'month' | 'year';
  /** YYYY-MM */
  month: string;
  currency: number | null;
}

const first = (value: unknown): string | undefined =>
  Array.isArray(value) ? (value[0] as string | undefined) : (value as string | undefined);

/** The filters of an address; `today` (YYYY-MM-DD) gives the month when it names none. */
export function budgetFromQuery(query: Record<string, unknown>, today: string): BudgetFilters {
  const month = first(query.month);
  const currency = Number(first(query.currency));
  return {
    view: first(query.view) === 'year' ? 'year' : 'month',
    month: month && MONTH_PATTERN.test(month) ? month : today.slice(0, 7),
    currency: Number.isInteger(currency) && currency > 0 && currency < 1000 ? currency : null,
  };
}

export function budgetToQuery(f: BudgetFilters): Record<string, string> {
  return { view: f.view, month: f.month, ...(f.currency === null ? {} : { currency: String(f.currency) }) };
}

/** The month or year before (-1) or after (+1) the one shown. */
export function stepped(f: BudgetFilters, by: -1 | 1): BudgetFilters {
  return { ...f, month: addMonths(f.month, f.view === 'year' ? 12 * by : by) };
}
