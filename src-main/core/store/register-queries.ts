/**
 * The register's reads of stored rows (register/register.ts): a page from a cursor by keyset, never an OFFSET
 * and never a sort; counts; and the exact sums the running balances are worked out from. The stored part of
 * the register's order (register/keyset.ts) is exactly the order of the indexes transactions_register (one
 * account) and transactions_by_date (several), read backwards, so that a page is a range scan from a cursor.
 */
import { addMonths } from '../../../src-shared/calendar';
import { DecimalSum, type Decimal } from '../../../src-shared/money';
import { monthGroups } from './month-totals';
import type { Prepare } from './record-sql';
import type { TransactionRow } from './rows';
import type { TextQuery } from './text-search';
import { netSum } from './transaction-sums';
import { countTransactions, selectTransactions, type Condition } from './transactions';

/** What places a row in the register's order. */
export interface SortKey {
  paymentDate: string;
  key: string;
  id: number | null;
  /** The outbox entry of a pending row; null for a stored row. */
  outboxId: number | null;
}

/**
 * Where a read starts: after a row (a cursor), or at a date bound (a jump: rows paid before `bound`
 * are older), or at an end of the register.
 */
export type Boundary = { row: SortKey } | { bound: string } | null;

/** The stored rows of the accounts a register covers, and the index that serves them in the register's order. */
export interface RegisterScope {
  readonly where: Condition;
  readonly index: string;
  /** Their ids, for the monthly totals; null when every stored row is theirs. */
  readonly filter: number[] | null;
}

/**
 * Stored rows older (side 'older') or newer than the boundary, as SQL over `transactions` with
 * parameters @<p>d, @<p>i, @<p>k (`p` tells two boundaries of one query apart). Each begins with a range
 * on payment_date, so that the index is entered at the boundary; the rest only sorts out the rows of
 * the boundary's own date.
 */
function storedSide(at: Boundary, side: 'older' | 'newer', p = 'k'): Condition {
  if (at === null) return { sql: '1', params: {} };
  const [d, i, k] = [`@${p}d`, `@${p}i`, `@${p}k`];
  if ('bound' in at) return { sql: side === 'older' ? `payment_date < ${d}` : `payment_date >= ${d}`, params: { [`${p}d`]: at.bound } };
  const r = at.row;
  if (r.outboxId !== null) {
    // On its date a pending row comes before every stored one.
    return { sql: side === 'older' ? `payment_date <= ${d}` : `payment_date > ${d}`, params: { [`${p}d`]: r.paymentDate } };
  }
  const params = { [`${p}d`]: r.paymentDate, [`${p}i`]: r.id, [`${p}k`]: r.key };
  if (side === 'older') {
    return {
      sql: `payment_date <= ${d} AND (payment_date < ${d} OR (CASE WHEN ${i} IS NULL THEN id IS NULL AND key < ${k} ELSE id IS NULL OR id < ${i} OR (id = ${i} AND key < ${k}) END))`,
      params,
    };
  }
  return {
    sql: `payment_date >= ${d} AND (payment_date > ${d} OR (CASE WHEN ${i} IS NULL THEN id IS NOT NULL OR key > ${k} ELSE id > ${i} OR (id = ${i} AND key > ${k}) END))`,
    params,
  };
}

function and(...conditions: (Condition | null)[]): Condition {
  const present = conditions.filter((c): c is Condition => c !== null && c.sql !== '1');
  return { sql: present.map((c) => `(${c.sql})`).join(' AND ') || '1', params: Object.assign({}, ...present.map((c) => c.params)) };
}

const EVERY_MONTH = { first: '0000-01', last: '9999-12' };

export class RegisterQueries {
  constructor(
    private readonly sql: Prepare,
    /** Whether the copy holds accounts other than these (then their rows are filtered out). */
    private readonly othersStored: (ids: readonly number[]) => boolean,
  ) {}

  /**
   * The stored rows of these accounts. One account: its own index. Several: the date index in order, the
   * accounts only filtered (the unary plus keeps the planner from reading them by account and sorting), or
   * not at all when every stored row is theirs.
   */
  scope(ids: readonly number[]): RegisterScope {
    const single = ids.length === 1;
    const filter = single || this.othersStored(ids) ? [...ids] : null;
    return {
      where: single
        ? { sql: 'account_id = @account', params: { account: ids[0] } }
        : filter
          ? { sql: '+account_id IN (SELECT value FROM json_each(@accounts))', params: { accounts: JSON.stringify(ids) } }
          : { sql: '1', params: {} },
      index: single ? 'transactions_register' : 'transactions_by_date',
      filter,
    };
  }

  /** Stored rows of the scope beyond the boundary, newest first ('older') or oldest first ('newer'), at most `limit` (those the text matches). */
  rows(scope: RegisterScope, at: Boundary, side: 'older' | 'newer', limit: number, text: TextQuery | null): TransactionRow[] {
    const order = side === 'older' ? 'DESC' : 'ASC';
    return selectTransactions(this.sql, {
      indexedBy: `INDEXED BY ${scope.index}`,
      where: and(scope.where, storedSide(at, side), text),
      orderBy: `payment_date ${order}, id ${order}, key ${order}`,
      limit,
    });
  }

  /**
   * The exact sum and the count of the scope's stored rows newer than `row`: the totals kept per month
   * for the months after its own (month-totals.ts), and the rows of its own month that come before it.
   */
  newer(scope: RegisterScope, row: SortKey): { net: Decimal; count: number } {
    const month = row.paymentDate.slice(0, 7);
    const net = new DecimalSum();
    let count = 0;
    for (const g of monthGroups(this.sql, { accounts: scope.filter, first: addMonths(month, 1), last: '9999-12' }, 'all')) {
      net.add(g.income);
      net.add(g.expense);
      count += g.count;
    }
    const c = and(scope.where, storedSide({ row }, 'newer'), {
      sql: 'payment_date < @monthAfter',
      params: { monthAfter: `${addMonths(month, 1)}-01` },
    });
    const within = netSum(this.sql, { where: c.sql, params: c.params, indexedBy: scope.index });
    net.add(within.net);
    return { net: net.value, count: count + within.count };
  }

  /** How many stored rows of the scope are newer than the boundary (the text matches); all of them at no boundary. */
  count(scope: RegisterScope, at: Boundary, text: TextQuery | null): number {
    if (at === null && !text) {
      // The whole register: the monthly totals' counts.
      return monthGroups(this.sql, { accounts: scope.filter, ...EVERY_MONTH }, 'all').reduce((n, g) => n + g.count, 0);
    }
    // Few rows the text matched: counted by their rowid (NOT INDEXED still reads by rowid), not in a pass over the index.
    return countTransactions(
      this.sql,
      and(scope.where, storedSide(at, 'newer'), text),
      text?.few ? 'NOT INDEXED' : `INDEXED BY ${scope.index}`,
    );
  }

  /** The net sum of the scope's stored rows newer than `row` up to and including `upTo` (a newer row). */
  between(scope: RegisterScope, row: SortKey, upTo: SortKey): Decimal {
    const upper = storedSide({ row: upTo }, 'older', 'b');
    // The plain range on both ends keeps the read between the two rows (the OR alone would not bound it).
    const c = and(
      scope.where,
      storedSide({ row }, 'newer', 'a'),
      { sql: 'payment_date <= @bcap', params: { bcap: upTo.paymentDate } },
      { sql: `(${upper.sql}) OR key = @bkey`, params: { ...upper.params, bkey: upTo.key } },
    );
    return netSum(this.sql, { where: c.sql, params: c.params, indexedBy: scope.index }).net;
  }
}
