/**
 * The service's records as a whole: what a pull writes in one go, and forgetting all of it (a new
 * connection to another service or user). History the service no longer lists stays.
 */
import type { PulledCounts } from '../../../src-shared/app-api';
import { MARKED_RECORDS } from '../../../src-shared/records';
import { marksTable } from '../../../src-shared/records/fields';
import type { Accounts } from './accounts';
import type { Categories } from './categories';
import type { Prepare } from './record-sql';
import type { Refuelings } from './refuelings';
import type { AccountRow, CategoryForest, RefuelingRow, TemplateRow, TransactionRow } from './rows';
import type { Templates } from './templates';
import type { Transactions } from './transactions';

export interface PulledData {
  accounts: AccountRow[];
  /** The listed transactions per account (each account's last 50). */
  transactions: Map<number, TransactionRow[]>;
  templates: TemplateRow[];
  categories: CategoryForest;
  /** The listed refuelings per car (each car's last 50). */
  refuelings: Map<number, RefuelingRow[]>;
}

/** Whether `after` has a field (other than those ignored) whose value differs in `before`. */
function differs<T extends object>(before: T, after: T, ignore: readonly (keyof T)[]): boolean {
  return (Object.keys(after) as (keyof T)[]).some((k) => !ignore.includes(k) && before[k] !== after[k]);
}

/** Records new or changed from `before` to `after` (by id), and those no longer there. */
function changedRecords<T extends { id: number }>(before: readonly T[], after: readonly T[], ignore: readonly (keyof T)[]): number {
  const old = new Map(before.map((r) => [r.id, r]));
  let n = 0;
  for (const r of after) {
    const was = old.get(r.id);
    if (!was || differs(was, r, ignore)) n++;
    old.delete(r.id);
  }
  return n + old.size;
}

/** The tables of what the service said, and what this copy keeps of them (the marks, temporary ids, own records). */
const SERVER_TABLES = ['transactions', 'accounts', 'templates', 'categories', 'category_favorites', 'refuelings'] as const;

export class ServerCopy {
  constructor(
    private readonly sql: Prepare,
    /** The store's write transaction (nested: a savepoint). */
    private readonly transaction: <T>(fn: () => T) => T,
    private readonly repos: {
      accounts: Accounts;
      transactions: Transactions;
      templates: Templates;
      categories: Categories;
      refuelings: Refuelings;
    },
  ) {}

  /**
   * Writes everything a pull fetched, in one transaction. Returns what was new or changed per
   * kind, records the service no longer lists included: what the pull brought, which a sync reports ("3
   * transactions received"). An account's balance counts as its change only when none of its listed
   * transactions changed (they say why it moved).
   */
  apply(data: PulledData): PulledCounts {
    return this.transaction(() => this.write(data));
  }

  private write(data: PulledData): PulledCounts {
    const { accounts, transactions, templates, categories, refuelings } = this.repos;
    const accountsBefore = accounts.everyStored();
    const templatesBefore = templates.list();
    const categoriesBefore = categories.list();

    data.accounts.forEach((a, position) => accounts.upsert(a, position));
    let accountsChanged = accounts.unlistOthers(new Set(data.accounts.map((a) => a.id)));
    let transactionsChanged = 0;
    const moved = new Set<number>();
    for (const [accountId, rows] of data.transactions) {
      const n = transactions.upsert(rows);
      transactionsChanged += n;
      if (n > 0) moved.add(accountId);
    }
    for (const a of data.accounts) {
      const before = accountsBefore.get(a.id);
      if (!before?.listed || differs(before.row, a, ['balance']) || (before.row.balance !== a.balance && !moved.has(a.id))) {
        accountsChanged++;
      }
    }
    templates.replace(data.templates);
    categories.replace(data.categories);
    let refuelingsChanged = 0;
    for (const rows of data.refuelings.values()) refuelingsChanged += refuelings.upsert(rows);
    return {
      accounts: accountsChanged,
      transactions: transactionsChanged,
      templates: changedRecords(templatesBefore, data.templates, []),
      // A category's place among its siblings is the service's ordering, not a change of the category.
      categories: changedRecords(categoriesBefore, data.categories.all, ['position']),
      refuelings: refuelingsChanged,
    };
  }

  /** Forgets everything the service said, in one transaction. */
  clear(): void {
    this.transaction(() => {
      for (const table of [...SERVER_TABLES, ...MARKED_RECORDS.map(marksTable), 'id_map', 'own_records']) {
        this.sql(`DELETE FROM ${table}`).run();
      }
    });
  }
}
