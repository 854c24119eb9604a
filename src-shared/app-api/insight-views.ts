/**
 * What the app computes from the local history beyond what the service offers: fuel statistics,
 * reports and search. Money and litres travel as canonical decimal text, computed with exact decimals;
 * ratios (l/100 km, price per litre) are rounded once, where they are made, to the places named here.
 */
import type { BudgetCell } from './budget-views';
import type { Id, RefuelingView, TransactionView } from './views';

// ---- fuel statistics ------------------------------------------------------------------------------

/** Why a refueling does not take part in consumption. */
export type FuelFillNote =
  /** The car's first refueling (in the period's history): the tank level before it is unknown. */
  | 'first'
  /** The odometer is not above the previous reading: the chain restarts here. */
  | 'odometer-not-increasing';

/** One refueling as the statistics see it, oldest first (`price` as entered, in `currency`). */
export interface FuelFill extends Pick<
  RefuelingView,
  'id' | 'dateOfPurchase' | 'tachometer' | 'liter' | 'price' | 'currency' | 'rate' | 'partial' | 'pending'
> {
  /** price × rate in the statistics' currency, rounded to its minor units. */
  cost: string;
  /** cost / liter, 3 decimals; null when liter is 0 (which the service refuses, but a foreign one may send). */
  pricePerLiter: string | null;
  /** Kilometres since the previous refueling; null for the first and after an odometer going back. */
  distance: number | null;
  /** l/100 km (2 decimals) of the chain of fills this full fill closes; null for partial ones and the first. */
  consumption: string | null;
  /** Cost per 100 km of that chain, in the statistics' currency, rounded to its minor units. */
  costPer100Km: string | null;
  note: FuelFillNote | null;
  /** A reading that cannot be right: its odometer does not fit those around it, or its chain's consumption is far from the others'. */
  flag: FuelFlag | null;
  /** Whether it counts in the distance, consumption and cost per 100 km (a flagged one only when asked to). */
  counted: boolean;
}

export type FuelFlag = 'odometer' | 'consumption';

export interface FuelMonth {
  /** YYYY-MM */
  month: string;
  refuelings: number;
  liters: string;
  cost: string;
  /** Kilometres between readings, counted in the month of the later reading. */
  distance: number;
  /** l/100 km (2 decimals) of the counted chains closed in the month: their litres / their kilometres × 100; null without one. */
  consumption: string | null;
  /** cost / liters of the month's refuelings, 3 decimals; null without litres. */
  pricePerLiter: string | null;
}

export interface FuelSummary {
  refuelings: number;
  liters: string;
  cost: string;
  /** The sum of the refuelings' distances: from the first to the last reading, gaps from odometer resets left out. */
  distance: number;
  /** Litres of all closed chains / their kilometres × 100, 2 decimals; null until one chain closes. */
  consumption: string | null;
  costPer100Km: string | null;
  /** cost / liters over all refuelings, 3 decimals; null without any. */
  pricePerLiter: string | null;
  firstDate: string | null;
  lastDate: string | null;
}

export interface FuelStats {
  carId: number;
  /** The currency every cost is given in: the one the car's refuelings have with Rate 1. */
  currency: number;
  from: string | null;
  to: string | null;
  /** Flagged readings count in the figures (asked for); otherwise they are left out. */
  includeFlagged: boolean;
  /** How many of the fills shown are flagged. */
  flagged: number;
  summary: FuelSummary;
  /** The fills of the period, oldest first: all of them, or the page asked for (counted from the newest). */
  fills: FuelFill[];
  /** How many fills the period has, and how many newer ones come before the page. */
  fillCount: number;
  fillsOffset: number;
  months: FuelMonth[];
}

// ---- reports --------------------------------------------------------------------------------------

/** Income (positive amounts) and expense (negative amounts, given as a positive number). */
export interface IncomeExpense {
  income: string;
  expense: string;
  /** income - expense */
  net: string;
  count: number;
}

export interface CategoryRow extends IncomeExpense {
  /** A top-level category (its children's transactions included); 0 for transactions without one. */
  categoryId: Id;
  name: string | null;
  /** One entry per month of the report, in the order of `CategoryReport.months`. */
  byMonth: IncomeExpense[];
  /**
   * The budgets of the category's branch (outer ones: budget-views.ts) over every month the period touches,
   * against what the row spent (expense − income); null when the branch has no budget in those months.
   */
  budget: BudgetCell | null;
}

export interface BalancePoint {
  /** End of this day (YYYY-MM-DD). */
  date: string;
  balance: string;
}

export interface BalanceSeries {
  accountId: Id;
  name: string;
  points: BalancePoint[];
}

export interface CategoryReport {
  currency: number;
  from: string;
  to: string;
  /** YYYY-MM of every month the period touches. */
  months: string[];
  accountIds: Id[];
  includeTransfers: boolean;
  total: IncomeExpense;
  byMonth: IncomeExpense[];
  /** Top-level categories, largest expense first, then largest income. */
  categories: CategoryRow[];
  /** The budgets of every category over the months the period touches, against what they spent; null without any. */
  budget: BudgetCell | null;
  /** Balance at the end of each day (periods up to 62 days) or month, per account. */
  balances: BalanceSeries[];
  /** Currencies that have accounts, for choosing another report. */
  currencies: number[];
}

// ---- search ---------------------------------------------------------------------------------------

export interface FoundTransaction extends TransactionView {
  accountName: string;
  currency: number;
}

export interface SearchResult {
  items: FoundTransaction[];
  total: number;
  offset: number;
  limit: number;
  /** Exact sum of every match (not only this page), per currency. */
  sums: { currency: number; total: string; count: number }[];
}
