/**
 * Budgets (src-shared/records/budget.ts): an amount per month, category and currency, kept here only. Keyed
 * by currency first, so that a month or a year of one currency's budgets is one range of the key.
 */
import { BUDGET, type BudgetStored } from '../../../src-shared/records/budget';
import { columnList, columnsOf, paramList, rowParams, rowReader, type Prepare, type Row } from './record-sql';

const COLUMNS = columnsOf(BUDGET, BUDGET.stored);
const SAVE = `INSERT INTO budgets (${columnList(COLUMNS)}) VALUES (${paramList(COLUMNS)})
  ON CONFLICT (currency, month, category_id) DO UPDATE SET amount = excluded.amount`;
const budgetOf = rowReader<BudgetStored>(BUDGET, BUDGET.stored);

export class Budgets {
  constructor(private readonly sql: Prepare) {}

  /** The budgets of a currency from month `first` to `last` (YYYY-MM, both included), by month and category. */
  list(currency: number, first: string, last: string): BudgetStored[] {
    const rows = this.sql(
      `SELECT ${columnList(COLUMNS)} FROM budgets WHERE currency = ? AND month BETWEEN ? AND ? ORDER BY month, category_id`,
    ).all(currency, first, last) as Row[];
    return rows.map(budgetOf);
  }

  /** Sets a month's budget of a category (a new one, or another amount). */
  save(budget: BudgetStored): void {
    this.sql(SAVE).run(rowParams(BUDGET, BUDGET.stored, budget));
  }

  /** Takes a month's budget of a category away; false when there was none. */
  clear(currency: number, month: string, categoryId: number): boolean {
    return (
      this.sql('DELETE FROM budgets WHERE currency = ? AND month = ? AND category_id = ?').run(currency, month, categoryId).changes > 0
    );
  }

  /** Copies every budget of month `from` into month `to` that `to` does not have yet; returns how many it copied. */
  copyMonth(currency: number, from: string, to: string): number {
    return this.sql(
      `INSERT INTO budgets (month, category_id, currency, amount)
         SELECT ?, category_id, currency, amount FROM budgets WHERE currency = ? AND month = ?
         ON CONFLICT (currency, month, category_id) DO NOTHING`,
    ).run(to, currency, from).changes;
  }

  /** The budgets of a category created offline follow it to the service's id. */
  moveCategory(tempId: number, realId: number): void {
    this.sql('UPDATE OR REPLACE budgets SET category_id = ? WHERE category_id = ?').run(realId, tempId);
  }

  count(): number {
    return this.sql('SELECT COUNT(*) FROM budgets').pluck().get() as number;
  }
}
