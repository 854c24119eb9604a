/**
 * The search's filters and their form in the address, so that a drill-down from a report lands on a
 * ready search and Back returns to it. Only valid values are carried over; the rest are dropped.
 */
import type { InputOf } from '../../../src-shared/app-api';
import { parseDecimal } from '../../../src-shared/money';
import { isCalendarDate } from '../../../src-shared/validate';

export type SearchFilters = Omit<InputOf<'exportTransactionsCsv'>, 'dialect'>;

export const SEARCH_PAGE_SIZE = 50;

type Query = Record<string, unknown>;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const amount = (v: unknown): string | undefined => {
  if (typeof v !== 'string') return undefined;
  const d = parseDecimal(v);
  return d && d.units >= 0n ? v : undefined;
};
const integer = (v: unknown, min: number): number | undefined => {
  const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : NaN;
  return Number.isSafeInteger(n) && n >= min ? n : undefined;
};

/** Temporary ids of accounts made offline are negative; 0 is no account. */
const accountId = (v: unknown): number | undefined => {
  const n = integer(v, Number.MIN_SAFE_INTEGER);
  return n === 0 ? undefined : n;
};

/** A list of account ids in the address ("3,-1"); undefined unless every one is an id. */
export function accountIdsFromQuery(v: unknown): number[] | undefined {
  const ids = typeof v === 'string' && v ? v.split(',').map(Number) : [];
  return ids.length && ids.every((n) => Number.isSafeInteger(n) && n !== 0) ? ids : undefined;
}

/** Keeps the keys whose value is set, so that a filter object compares and serialises cleanly. */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export function filtersFromQuery(query: Query): SearchFilters {
  const direction = query.dir === 'in' || query.dir === 'out' ? query.dir : undefined;
  return defined({
    text: text(query.q),
    minAmount: amount(query.min),
    maxAmount: amount(query.max),
    direction,
    from: isCalendarDate(query.from) ? query.from : undefined,
    to: isCalendarDate(query.to) ? query.to : undefined,
    accountId: accountId(query.account),
    accountIds: accountIdsFromQuery(query.accounts),
    excludeTransfers: query.transfers === 'no' ? true : undefined,
    categoryId: integer(query.category, Number.MIN_SAFE_INTEGER),
  });
}

export function filtersToQuery(f: SearchFilters): Record<string, string> {
  const out: Record<string, string> = {};
  if (f.text) out.q = f.text;
  if (f.minAmount !== undefined) out.min = f.minAmount;
  if (f.maxAmount !== undefined) out.max = f.maxAmount;
  if (f.direction) out.dir = f.direction;
  if (f.from) out.from = f.from;
  if (f.to) out.to = f.to;
  if (f.accountId !== undefined) out.account = String(f.accountId);
  if (f.accountIds?.length) out.accounts = f.accountIds.join(',');
  if (f.excludeTransfers) out.transfers = 'no';
  if (f.categoryId !== undefined) out.category = String(f.categoryId);
  return out;
}

/** The 0-based page in the address (?page=2 is the second page). */
export function pageFromQuery(query: Query): number {
  return (integer(query.page, 1) ?? 1) - 1;
}

export const hasFilters = (f: SearchFilters): boolean => Object.keys(filtersToQuery(f)).length > 0;

/** Same filters, whatever the order of their keys. */
export const sameFilters = (a: SearchFilters, b: SearchFilters): boolean =>
  JSON.stringify(filtersToQuery(a)) === JSON.stringify(filtersToQuery(b));
