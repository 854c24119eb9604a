/**
 * Exact sums of stored transactions, grouped in SQL. SQLite sums the integer ten-thousandths
 * (amount_units) of the rows that have them; the rows that do not (an amount with more decimals or
 * beyond ±10^14, only from a foreign service) are read one by one and added here from their text. If
 * a sum ever overflows SQLite's 64 bits (SUM fails rather than round), every row is summed here: slower,
 * never wrong.
 */
import type Database from 'better-sqlite3';
import { DecimalSum, parseDecimal, ZERO, type Decimal } from '../../../src-shared/money';
import { unitsDecimal } from './amount-units';

export interface SumQuery {
  /** SQL expressions over `transactions` to group by (none: one group). */
  keys: readonly string[];
  /** A WHERE condition over `transactions`, with named parameters. */
  where: string;
  params: Record<string, unknown>;
  /** An index to read the sums through (when the planner's own pick is known to be worse). */
  indexedBy?: string;
}

export interface Group {
  key: unknown[];
  /** The sum of positive amounts. */
  income: Decimal;
  /** The sum of negative amounts (zero or negative). */
  expense: Decimal;
  count: number;
}

class Accumulator {
  readonly income = new DecimalSum();
  readonly expense = new DecimalSum();
  count = 0;

  constructor(readonly key: unknown[]) {}

  add(amount: Decimal): void {
    if (amount.units > 0n) this.income.add(amount);
    else if (amount.units < 0n) this.expense.add(amount);
    this.count++;
  }

  group(): Group {
    return { key: this.key, income: this.income.value, expense: this.expense.value, count: this.count };
  }
}

const isOverflow = (e: unknown): boolean => e instanceof Error && /integer overflow/i.test(e.message);
const plain = (v: unknown) => (typeof v === 'bigint' ? Number(v) : v);

/**
 * Groups being summed. SQL's grouped rows come one per key and are taken as they are; single rows added
 * in code (the rare ones without units) find their group through an index built only when needed.
 */
export class GroupSet {
  private readonly list: Accumulator[] = [];
  private index: Map<string, Accumulator> | null = null;

  private find(key: unknown[]): Accumulator {
    if (!this.index) this.index = new Map(this.list.map((g) => [JSON.stringify(g.key), g]));
    const k = JSON.stringify(key);
    let g = this.index.get(k);
    if (!g) {
      g = new Accumulator(key);
      this.list.push(g);
      this.index.set(k, g);
    }
    return g;
  }

  /**
   * Totals as SQL gave them (integer ten-thousandths). `unique`: SQL grouped by exactly this key, so it
   * comes once (taken as it is); else it is added to its group.
   */
  addTotals(key: unknown[], income: bigint | null, expense: bigint | null, count: number, unique = true): void {
    let g: Accumulator;
    if (unique && !this.index) this.list.push((g = new Accumulator(key.map(plain))));
    else g = this.find(key.map(plain));
    if (income !== null) g.income.add(unitsDecimal(income));
    if (expense !== null) g.expense.add(unitsDecimal(expense));
    g.count += count;
  }

  /** One row's amount, added to its group. */
  addRow(key: unknown[], amount: Decimal): void {
    this.find(key.map(plain)).add(amount);
  }

  clear(): void {
    this.list.length = 0;
    this.index = null;
  }

  groups(): Group[] {
    return this.list.map((g) => g.group());
  }
}

/**
 * Income, expense and count per group of the rows matching `q`. Statements are prepared through
 * `prepare` (the store's cache): the same query shape is prepared once.
 */
export function groupedSums(prepare: (sql: string) => Database.Statement, q: SumQuery): Group[] {
  const keys = q.keys.join(', ');
  const keyColumns = q.keys.length;
  // The index named serves the sums; the odd rows are best found through their own partial index.
  const indexed = `transactions${q.indexedBy ? ` INDEXED BY ${q.indexedBy}` : ''}`;
  const groups = new GroupSet();
  const oneByOne = (onlyOdd: boolean) => {
    const from = onlyOdd ? 'transactions INDEXED BY transactions_odd_amounts' : 'transactions';
    const rows = prepare(
      `SELECT ${keys ? `${keys}, ` : ''}amount FROM ${from} WHERE (${q.where})${onlyOdd ? ' AND amount_units IS NULL' : ''}`,
    )
      .raw(true)
      .all(q.params) as unknown[][];
    for (const row of rows) groups.addRow(row.slice(0, keyColumns), parseDecimal(String(row[keyColumns])) ?? ZERO);
  };
  try {
    const rows = prepare(
      `SELECT ${keys ? `${keys}, ` : ''}SUM(CASE WHEN amount_units > 0 THEN amount_units END), SUM(CASE WHEN amount_units < 0 THEN amount_units END), COUNT(*)
       FROM ${indexed} WHERE (${q.where}) AND amount_units IS NOT NULL${keys ? ` GROUP BY ${keys}` : ''}`,
    )
      .raw(true)
      .safeIntegers(true)
      .all(q.params) as unknown[][];
    for (const row of rows) {
      const count = Number(row[keyColumns + 2]);
      if (count > 0) {
        groups.addTotals(row.slice(0, keyColumns), row[keyColumns] as bigint | null, row[keyColumns + 1] as bigint | null, count);
      }
    }
    oneByOne(true);
  } catch (e) {
    if (!isOverflow(e)) throw e;
    groups.clear();
    oneByOne(false);
  }
  return groups.groups();
}

/** The net sum (income + expense) of the rows matching `q`. */
export function netSum(prepare: (sql: string) => Database.Statement, q: Omit<SumQuery, 'keys'>): { net: Decimal; count: number } {
  const [g] = groupedSums(prepare, { ...q, keys: [] });
  if (!g) return { net: ZERO, count: 0 };
  const net = new DecimalSum();
  net.add(g.income);
  net.add(g.expense);
  return { net: net.value, count: g.count };
}
