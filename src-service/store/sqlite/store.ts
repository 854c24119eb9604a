/**
 * The SQLite store: one better-sqlite3 connection and the prepared statements of each area.
 * Statements are prepared once per connection, so a request costs only their execution. The running
 * service uses two (a reader and a writer with group commit: see serving.ts); the admin commands one.
 */
import type { DataAccess } from '../seam';
import { AccountStore } from './accounts';
import { CategoryStore } from './categories';
import { openDatabase, type Db } from './database';
import { RefuelingStore } from './refuelings';
import { TemplateStore, TransactionStore } from './transactions';
import { UserStore } from './users';

export class Store implements DataAccess {
  readonly users: UserStore;
  readonly accounts: AccountStore;
  readonly transactions: TransactionStore;
  readonly templates: TemplateStore;
  readonly categories: CategoryStore;
  readonly refuelings: RefuelingStore;

  private readonly inTransaction;
  private writing = false;

  /**
   * `keepRows`: keep transaction rows once read (see TransactionStore), for a connection that only
   * ever reads committed data and is told of every commit that adds rows (`transactions.booked`);
   * `forgetRows` when another process has changed the file. `recordInserts`: the inserted rows are
   * recorded, to be taken once committed (`transactions.takeInserted`).
   */
  constructor(
    readonly db: Db,
    options: { keepRows?: boolean; recordInserts?: boolean } = {},
  ) {
    this.inTransaction = db.transaction(<T>(fn: () => T): T => fn());
    this.users = new UserStore(db);
    this.accounts = new AccountStore(db);
    this.transactions = new TransactionStore(db, options.keepRows, options.recordInserts);
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
   * Inside a transaction already open (the service's group commit) it is a savepoint of it instead:
   * either everything `fn` wrote stays in the group or nothing does. Inside another `write` it is part
   * of that one.
   */
  write<T>(fn: () => T): T {
    // A write inside a write is part of it: the outer one's transaction or savepoint already makes the
    // whole atomic (an error inside fails the outer write), and a savepoint per level cost two
    // statements and a journal of every changed page each.
    if (this.writing) return fn();
    this.writing = true;
    try {
      return this.inTransaction.immediate(fn) as T;
    } finally {
      this.writing = false;
    }
  }

  /**
   * Runs `fn`, which only reads, in one DEFERRED transaction: all its queries see one snapshot of the
   * data, and SQLite takes its WAL read lock once rather than for every statement.
   */
  read<T>(fn: () => T): T {
    return this.inTransaction.deferred(fn) as T;
  }

  /** Forgets what `keepRows` kept: another process has changed the file. */
  forgetRows(): void {
    this.transactions.forgetRows();
  }

  close(): void {
    this.db.close();
  }
}

