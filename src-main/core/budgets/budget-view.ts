/**
 * A month's or a year's budgets against what was spent (src-shared/app-api/budget-views.ts says what each
 * figure is): the budgets from the local copy, the spending from the month totals (spending.ts), both in
 * exact decimals, rolled up the category tree here.
 */
import type { BudgetCell, BudgetRow, BudgetView } from '../../../src-shared/app-api';
import { addMonths } from '../../../src-shared/calendar';
import { compare, DecimalSum, formatDecimal, parseDecimal, subtract, ZERO, type Decimal } from '../../../src-shared/money';
import type { CoreParts } from '../app/core-parts';
import { categoryTreeView } from '../app/read-views';
import { ancestry } from '../insights/category-tree';
import { mostCommonCurrency } from '../insights/currency';
import type { ViewCategory } from '../outbox/view-state';
import { monthlySpending } from './spending';

/** The currency of budgets when none is asked for and no account has one: the last one chosen, else the Czech crown. */
const FALLBACK_CURRENCY = 203;

export function budgetCurrency(parts: CoreParts, asked: number | undefined): number {
  return asked ?? mostCommonCurrency(parts.view.accounts()) ?? parts.preferences().lastCurrency ?? FALLBACK_CURRENCY;
}

/** A budget (null: none) against what was spent. */
export function budgetCell(budget: Decimal | null, spent: Decimal): BudgetCell {
  if (budget === null) return { budget: null, spent: formatDecimal(spent), difference: null, state: null };
  const difference = subtract(budget, spent);
  const sign = compare(difference, ZERO);
  return {
    budget: formatDecimal(budget),
    spent: formatDecimal(spent),
    difference: formatDecimal(difference),
    state: sign < 0 ? 'over' : sign > 0 ? 'under' : 'even',
  };
}

/** The categories with a budget whose branch an outer budgeted category already counts (a budgeted one above them). */
export function innerBudgeted(categories: ReadonlyMap<number, ViewCategory>, budgeted: ReadonlySet<number>): Set<number> {
  return new Set([...budgeted].filter((id) => ancestry(categories, id).some((c) => c.id !== id && budgeted.has(c.id))));
}

/** Budgets per month and category. */
type Budgets = Map<string, Map<number, Decimal>>;

function budgetsOf(parts: CoreParts, currency: number, months: readonly string[]): Budgets {
  const out: Budgets = new Map(months.map((m) => [m, new Map()]));
  for (const b of parts.store.budgets.list(currency, months[0]!, months.at(-1)!)) {
    out.get(b.month)?.set(b.categoryId, parseDecimal(b.amount) ?? ZERO);
  }
  return out;
}

/** What each category spent with every category below it, per month. */
function branchSpending(parts: CoreParts, categories: ReadonlyMap<number, ViewCategory>, currency: number, months: readonly string[]) {
  const out = new Map<string, Map<number, DecimalSum>>();
  for (const [month, byCategory] of monthlySpending(parts, currency, months)) {
    const rolled = new Map<number, DecimalSum>();
    const addTo = (id: number, amount: Decimal) => {
      let sum = rolled.get(id);
      if (!sum) rolled.set(id, (sum = new DecimalSum()));
      sum.add(amount);
    };
    for (const [id, amount] of byCategory) {
      const line = ancestry(categories, id);
      // A category the tree does not know (or none, 0) is a branch of its own.
      if (line.length === 0) addTo(id, amount);
      for (const c of line) addTo(c.id, amount);
    }
    out.set(month, rolled);
  }
  return (month: string, id: number): Decimal => out.get(month)?.get(id)?.value ?? ZERO;
}

/** The categories in the tree's order, with how deep each is. */
function treeOrder(parts: CoreParts): { id: number; name: string; depth: number }[] {
  const out: { id: number; name: string; depth: number }[] = [];
  const walk = (nodes: readonly { id: number; name: string; children: readonly unknown[] }[], depth: number) => {
    for (const n of nodes) {
      out.push({ id: n.id, name: n.name, depth });
      walk(n.children as typeof nodes, depth + 1);
    }
  };
  walk(categoryTreeView(parts.store, parts.view).all, 0);
  return out;
}

/** Sums of cells over months (a missing budget counts as nothing; no budget at all stays none). */
function summed(cells: readonly { budget: Decimal | null; spent: Decimal }[]): BudgetCell {
  const budget = new DecimalSum();
  const spent = new DecimalSum();
  let any = false;
  for (const c of cells) {
    if (c.budget !== null) {
      any = true;
      budget.add(c.budget);
    }
    spent.add(c.spent);
  }
  return budgetCell(any ? budget.value : null, spent.value);
}

/**
 * The view of these months (one, or a year's twelve) in a currency: `rows` 'all' lists every category of the
 * tree, 'budgeted' those with a budget in one of the months.
 */
export function budgetView(parts: CoreParts, currency: number, months: readonly string[], rows: 'all' | 'budgeted'): BudgetView {
  const categories = new Map(parts.view.categories().map((c) => [c.id, c]));
  const budgets = budgetsOf(parts, currency, months);
  const spent = branchSpending(parts, categories, currency, months);
  const budgeted = new Set([...budgets.values()].flatMap((m) => [...m.keys()]));
  const inner = innerBudgeted(categories, budgeted);

  const listed = treeOrder(parts);
  const inTree = new Set(listed.map((c) => c.id));
  const lost = [...budgeted].filter((id) => !inTree.has(id)).sort((a, b) => a - b);
  const shown = [...listed.filter((c) => rows === 'all' || budgeted.has(c.id)), ...lost.map((id) => ({ id, name: null, depth: 0 }))];
  const raw = (id: number) => months.map((m) => ({ budget: budgets.get(m)!.get(id) ?? null, spent: spent(m, id) }));
  const viewRows: BudgetRow[] = shown.map((c) => {
    const cells = raw(c.id);
    return {
      categoryId: c.id,
      name: c.name,
      depth: c.depth,
      inner: inner.has(c.id),
      months: cells.map((x) => budgetCell(x.budget, x.spent)),
      total: summed(cells),
    };
  });
  // The totals: the outer budgeted categories' branches, which do not overlap.
  const outer = [...budgeted].filter((id) => !inner.has(id)).map(raw);
  const monthTotals = months.map((_, k) => summed(outer.map((cells) => cells[k]!)));
  const previous = addMonths(months[0]!, -1);
  return {
    currency,
    months: [...months],
    rows: viewRows,
    totals: monthTotals,
    total: summed(outer.flat()),
    previousMonthBudgets: parts.store.budgets.list(currency, previous, previous).length,
    currencies: [...new Set([...parts.view.accounts().map((a) => a.currency), currency])].sort((a, b) => a - b),
  };
}

/**
 * The budgets of each top-level category's branch over these months (a report's): the outer budgeted categories'
 * (innerBudgeted, over the months together), each added to its top-level category.
 */
export function branchBudgets(
  parts: CoreParts,
  currency: number,
  months: readonly string[],
  categories: ReadonlyMap<number, ViewCategory>,
  top: (categoryId: number) => number,
): Map<number, Decimal> {
  const budgets = budgetsOf(parts, currency, months);
  const inner = innerBudgeted(categories, new Set([...budgets.values()].flatMap((m) => [...m.keys()])));
  const sums = new Map<number, DecimalSum>();
  for (const byCategory of budgets.values()) {
    for (const [id, amount] of byCategory) {
      if (inner.has(id)) continue;
      let sum = sums.get(top(id));
      if (!sum) sums.set(top(id), (sum = new DecimalSum()));
      sum.add(amount);
    }
  }
  return new Map([...sums].map(([id, s]) => [id, s.value]));
}
