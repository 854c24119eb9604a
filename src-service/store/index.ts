/**
 * The service's storage: one better-sqlite3 connection and the prepared statements of each area.
 * Statements are prepared once per connection, so a request costs only their execution.
 */
import { AccountStore } from './accounts';
import { CategoryStore } from './categories';
import { openDatabase, type Db } from './database';
import { RefuelingStore } from './refuelings';
import { TemplateStore, TransactionStore } from './transactions';
import { UserStore } from './users';

export class Store {
  readonly users: UserStore;
  readonly accounts: AccountStore;
  readonly transactions: TransactionStore;
  readonly templates: TemplateStore;
  readonly categories: CategoryStore;
  readonly refuelings: RefuelingStore;

  private readonly dataVersionStmt;
  private readonly inTransaction;
  private dataVersion = -1;
  private generationCount = 0;
  private versionFresh = false;

  constructor(readonly db: Db) {
    this.dataVersionStmt = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.inTransaction = db.transaction(<T>(fn: () => T): T => fn());
    this.users = new UserStore(db);
    this.accounts = new AccountStore(db);
    this.transactions = new TransactionStore(db);
    this.templates = new TemplateStore(db);
    this.categories = new CategoryStore(db);
    this.refuelings = new RefuelingStore(db);
  }

  static open(file: string): Store {
    return new Store(openDatabase(file));
  }

  /**
   * Runs `fn` in one IMMEDIATE transaction: it takes the write lock first (so a concurrent admin command
   * waits rather than failing halfway), and either everything `fn` wrote is committed or nothing is.
   */
  write<T>(fn: () => T): T {
    try {
      return this.inTransaction.immediate(fn) as T;
    } finally {
      this.generationCount += 1;
    }
  }

  /**
   * Runs `fn`, which only reads, in one DEFERRED transaction: all its queries see one snapshot of the
   * data, and SQLite takes its WAL read lock once rather than for every statement.
   */
  read<T>(fn: () => T): T {
    return this.inTransaction.deferred(fn) as T;
  }

  /**
   * A number that changes whenever the data may have changed: after each write of this connection, and
   * when SQLite's data_version shows a commit by any other connection (the admin command line, another
   * process). Caches of derived answers are valid only while it stays the same.
   */
  generation(): number {
    // PRAGMA data_version costs as much as a small query, and each request asked it twice or more: it is
    // asked once per turn of the event loop. A commit by another process within the turn is then seen at
    // the next one; the generation can only lag the data, never run ahead of it, so no answer is ever
    // kept under a generation newer than the data it was built from.
    if (!this.versionFresh) {
      this.versionFresh = true;
      setImmediate(() => (this.versionFresh = false));
      const version = this.dataVersionStmt.get()!;
      if (version !== this.dataVersion) {
        this.dataVersion = version;
        this.generationCount += 1;
      }
    }
    return this.generationCount;
  }

  close(): void {
    this.db.close();
  }
}

export { PERMISSION, type Permission, type AccountRow, type AccountFields } from './accounts';
export { TRANSACTION_TYPE, type TransactionRow, type TemplateRow } from './transactions';
export type { CategoryRow } from './categories';
export type { RefuelingRow, RefuelingFields } from './refuelings';
export { DataFileError, openDatabase, type Db } from './database';
export { MAX_MINOR, amountToMinor, minorToAmount } from './money';
