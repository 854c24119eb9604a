/**
 * The sums a report reads (insights/reports.ts), grouped in SQL, never handing the rows themselves over:
 * whole months of the period from the totals kept per month, category, type and account (month-totals.ts);
 * the days of a short period and the parts of months at its ends from the rows, over the indexes by date
 * (integers summed: exact; see transaction-sums.ts); the rows after the period's end as one sum per account.
 */
import { add, type Decimal } from '../../../src-shared/money';
import { monthGroups } from './month-totals';
import type { Prepare } from './record-sql';
import { groupedSums } from './transaction-sums';

/**
 * A part of a report's period: whole months, YYYY-MM, both included (read from the monthly totals); or the
 * rows paid from `start` up to before `end`, each in the bucket of its day or its month.
 */
export type PeriodPart = { months: { first: string; last: string } } | { dates: { start: string; end: string }; bucket: 'day' | 'month' };

/** The accounts a report covers, and whether the copy stores rows of other accounts too (then they are filtered). */
export interface ReportAccounts {
  ids: readonly number[];
  othersStored: boolean;
}

/** Rows of one bucket (a day, or a month: YYYY-MM-DD or YYYY-MM), category and type: their positive and negative sums and count. */
export interface FlowGroup {
  bucket: string;
  categoryId: number;
  type: number;
  income: Decimal;
  expense: Decimal;
  count: number;
}

/** The net of one account's rows in a bucket. */
export interface AccountMove {
  accountId: number;
  bucket: string;
  net: Decimal;
}

const ACCOUNTS_IN = 'account_id IN (SELECT value FROM json_each(@accounts))';
const DATES = 'payment_date >= @start AND payment_date < @end';
const bucketColumn = (bucket: 'day' | 'month') => (bucket === 'day' ? 'substr(payment_date, 1, 10)' : 'month');

export class ReportQueries {
  constructor(private readonly sql: Prepare) {}

  /** Income, expense and count per bucket, category and type of the accounts' stored rows in a part of the period. */
  flows(part: PeriodPart, accounts: ReportAccounts): FlowGroup[] {
    const groups =
      'months' in part
        ? monthGroups(this.sql, { accounts: accounts.othersStored ? accounts.ids : null, ...part.months }, 'flows')
        : groupedSums(this.sql, {
            keys: [bucketColumn(part.bucket), 'category_id', 'type'],
            // The accounts only filtered (the unary plus), so that the date index serves the range.
            where: accounts.othersStored ? `+${ACCOUNTS_IN} AND ${DATES}` : DATES,
            params: { accounts: JSON.stringify(accounts.ids), ...part.dates },
          });
    return groups.map((g) => ({
      bucket: g.key[0] as string,
      categoryId: g.key[1] as number,
      type: g.key[2] as number,
      income: g.income,
      expense: g.expense,
      count: g.count,
    }));
  }

  /** The net per account and bucket of the accounts' stored rows in a part of the period (for their balances). */
  moves(part: PeriodPart, accounts: ReportAccounts): AccountMove[] {
    const groups =
      'months' in part
        ? monthGroups(this.sql, { accounts: accounts.othersStored ? accounts.ids : null, ...part.months }, 'balances')
        : groupedSums(this.sql, {
            keys: ['account_id', bucketColumn(part.bucket)],
            where: `${ACCOUNTS_IN} AND ${DATES}`,
            params: { accounts: JSON.stringify(accounts.ids), ...part.dates },
          });
    return groups.map((g) => ({ accountId: g.key[0] as number, bucket: g.key[1] as string, net: add(g.income, g.expense) }));
  }

  /** The net per account of the accounts' stored rows paid at or after `after` (the balances are worked back from now). */
  netAfter(accounts: ReportAccounts, after: string): Map<number, Decimal> {
    const groups = groupedSums(this.sql, {
      keys: ['account_id'],
      where: `${ACCOUNTS_IN} AND payment_date >= @after`,
      params: { accounts: JSON.stringify(accounts.ids), after },
    });
    return new Map(groups.map((g) => [g.key[0] as number, add(g.income, g.expense)]));
  }
}
