/**
 * The search's reads of stored rows (insights/search.ts): every filter is SQL over indexed columns (the
 * text through the folded trigram index, text-search.ts; the amounts through their integer units,
 * amount-units.ts), so that the sums (integers summed by SQLite, transaction-sums.ts) and a page are each
 * one query, whatever the history's size.
 */
import type { Decimal } from '../../../src-shared/money';
import { amountCondition, type AmountBounds } from './amount-units';
import { monthGroups } from './month-totals';
import type { Prepare } from './record-sql';
import type { TransactionRow } from './rows';
import type { TextQuery } from './text-search';
import { groupedSums } from './transaction-sums';
import { NEWEST_FIRST, selectTransactions, type Condition } from './transactions';

/** What a search matches among the stored rows; each filter null when not given. */
export interface SearchQuery {
  /** Only these accounts. */
  accounts: readonly number[];
  /** Only these categories (a category with its descendants; 0: transactions without one). */
  categories: readonly number[] | null;
  /** Paid at or after this moment, and before this one. */
  from: string | null;
  before: string | null;
  /** Rows of this type left out (transfers). */
  leaveOut: number | null;
  text: TextQuery | null;
  amounts: AmountBounds | null;
}

/** The sums of one account's matching rows. */
export interface AccountSums {
  accountId: number;
  income: Decimal;
  expense: Decimal;
  count: number;
}

const ACCOUNTS_IN = 'account_id IN (SELECT value FROM json_each(@accounts))';

/** The filters beyond the accounts, as SQL (none: the accounts alone). */
function filters(q: SearchQuery): Condition[] {
  const conditions: Condition[] = [];
  if (q.categories) {
    conditions.push({
      sql: 'category_id IN (SELECT value FROM json_each(@categories))',
      params: { categories: JSON.stringify(q.categories) },
    });
  }
  if (q.from !== null) conditions.push({ sql: 'payment_date >= @from', params: { from: q.from } });
  if (q.before !== null) conditions.push({ sql: 'payment_date < @before', params: { before: q.before } });
  if (q.leaveOut !== null) conditions.push({ sql: 'type <> @leaveOut', params: { leaveOut: q.leaveOut } });
  if (q.text) conditions.push(q.text);
  if (q.amounts) conditions.push(amountCondition(q.amounts));
  return conditions;
}

/** The accounts (through an index of theirs, for sums; only filtered, for rows in the date index's order), and the filters. */
function condition(q: SearchQuery, accounts: string): Condition {
  const all = [{ sql: accounts, params: { accounts: JSON.stringify(q.accounts) } }, ...filters(q)];
  return { sql: all.map((c) => c.sql).join(' AND '), params: Object.assign({}, ...all.map((c) => c.params)) };
}

export class SearchQueries {
  constructor(private readonly sql: Prepare) {}

  /** The matching stored rows newest first, from `offset`, at most `limit` (-1: all). */
  rows(q: SearchQuery, offset: number, limit: number): TransactionRow[] {
    // The accounts only filtered (the unary plus), so that the date index gives the order without a sort.
    return selectTransactions(this.sql, { where: condition(q, `+${ACCOUNTS_IN}`), orderBy: NEWEST_FIRST, limit, offset });
  }

  /** The exact sums and counts of the matching stored rows by account (an account's in one part or several). */
  sumsByAccount(q: SearchQuery): AccountSums[] {
    let groups;
    // Without filters beyond the accounts the totals kept per month give the sums; else the matching rows do.
    if (filters(q).length === 0) groups = monthGroups(this.sql, { accounts: q.accounts, first: '0000-01', last: '9999-12' }, 'balances');
    else {
      // Few rows the text matched: read by their rowid (the accounts only filtered), not in a pass over an index.
      const c = condition(q, q.text?.few ? `+${ACCOUNTS_IN}` : ACCOUNTS_IN);
      groups = groupedSums(this.sql, { keys: ['account_id'], where: c.sql, params: c.params });
    }
    return groups.map((g) => ({ accountId: g.key[0] as number, income: g.income, expense: g.expense, count: g.count }));
  }
}
