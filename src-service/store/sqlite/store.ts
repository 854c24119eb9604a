/**
 * The SQLite store: one better-sqlite3 connection with every statement prepared once (connection.ts),
 * and the seam's areas on it (../data.ts). The running service uses two (a reader and a writer with
 * group commit: see serving.ts); the admin commands one.
 */
import { StoreData, type Accounts, type Categories, type Refuelings, type Templates, type Users } from '../data';
import type { AtOnce } from '../flow';
import { KeptTransactions } from '../kept-rows';
import type { DataAccess } from '../seam';
import type { Transactions } from '../transactions';
import { SqliteConnection } from './connection';
import { openDatabase, type Db } from './database';

export class Store implements DataAccess {
  // Every call answers at once: better-sqlite3 is synchronous.
  readonly users: AtOnce<Users>;
  readonly accounts: AtOnce<Accounts>;
  readonly transactions: AtOnce<Transactions>;
  readonly templates: AtOnce<Templates>;
  readonly categories: AtOnce<Categories>;
  readonly refuelings: AtOnce<Refuelings>;

  private readonly inTransaction;
  private writing = false;
  /** The rows kept (`keepRows` or `kept`), if any. */
  readonly kept: KeptTransactions | undefined;

  /**
   * `keepRows`: keep transaction rows once read (see KeptTransactions), for a connection that only ever
   * reads committed data and is told of every commit that adds rows (`transactions.booked`);
   * `forgetRows` when another process has changed the file. `kept`: keep them in this keep, another
   * connection's too. `recordInserts`: the inserted rows are recorded, to be taken once committed
   * (`transactions.takeInserted`).
   */
  constructor(
    readonly db: Db,
    options: { keepRows?: boolean; kept?: KeptTransactions; recordInserts?: boolean } = {},
  ) {
    const kept = options.kept ?? (options.keepRows ? new KeptTransactions(true) : undefined);
    const data = new StoreData(new SqliteConnection(db), {
      // Every commit that adds rows is this process's (a commit of another empties the keep): told of them all.
      ...(kept ? { kept } : {}),
      ...(options.recordInserts ? { recordInserts: true } : {}),
    });
    this.users = data.users as AtOnce<Users>;
    this.accounts = data.accounts as AtOnce<Accounts>;
    this.transactions = data.transactions as AtOnce<Transactions>;
    this.templates = data.templates as AtOnce<Templates>;
    this.categories = data.categories as AtOnce<Categories>;
    this.refuelings = data.refuelings as AtOnce<Refuelings>;
    this.inTransaction = db.transaction(<T>(fn: () => T): T => fn());
    this.kept = kept;
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
