/**
 * The store seam: what the operations, the credential check and the admin functions ask of a store,
 * whichever it is. Its areas are written once (data.ts, transactions.ts) over the statements of
 * statements.ts, on a connection of either database: SQLite (sqlite/, the embedded default: every call
 * answers at once) or PostgreSQL (postgres/: every call answers with a promise). The operations are
 * written once against these interfaces, as flows (see flow.ts). What differs between the two is how a
 * store runs reads and writes (ServiceStore), never what they ask.
 */
import type { LoginGuard, ThrottleOptions } from '../auth/login-throttle';
import type { Flow, Maybe } from './flow';
import type {
  AccountFields,
  AccountRow,
  CategoryRow,
  EditableAccountFields,
  NewTemplate,
  NewTransaction,
  Permission,
  RefuelingFields,
  RefuelingRow,
  TemplateRow,
  TransactionRow,
  UserRow,
} from './rows';

/** Users and registered client applications: what the credential check reads. */
export interface CredentialAccess {
  byLogin(login: string): Maybe<UserRow | undefined>;
  /** True when the key names a registered, enabled client application. */
  isClientEnabled(key: string): Maybe<boolean>;
}

export interface UserAccess extends CredentialAccess {
  insert(login: string, passwordHash: string, currency: number): Maybe<number>;
  setPasswordHash(userId: number, passwordHash: string): Maybe<void>;
  clientExists(key: string): Maybe<boolean>;
  insertClient(key: string, label: string): Maybe<void>;
  /** False when no client has that key. */
  setClientEnabled(key: string, enabled: boolean): Maybe<boolean>;
}

export interface AccountAccess {
  /** The accounts a user holds a permission on, by Ord then Id. */
  listFor(userId: number): Maybe<AccountRow[]>;
  /** The account as the user sees it; undefined when it does not exist or the user holds no permission. */
  getFor(accountId: number, userId: number): Maybe<AccountRow | undefined>;
  /** The id of the user who owns the account; undefined when there is no such account. */
  ownerOf(accountId: number): Maybe<number | undefined>;
  /** Creates an account owned by `ownerId` (permission 3). */
  insert(ownerId: number, f: AccountFields): Maybe<number>;
  /** Replaces every field but the currency, which no operation changes. */
  update(accountId: number, f: EditableAccountFields): Maybe<void>;
  grant(accountId: number, userId: number, permission: Permission): Maybe<void>;
  /**
   * Before a write reads the balances it books on: holds those accounts against every other booking
   * until the write ends, always in the order of their ids, so that two writes that book on the same
   * accounts wait for each other instead of deadlocking. (SQLite writes one at a time anyway.) Where it
   * holds them (PostgreSQL), it reads in the same round trip the rows of those `userId` holds a
   * permission on: `getFor` answers each of them once from there, until the write writes anything.
   */
  holdForBooking(accountIds: readonly number[], userId: number): Maybe<void>;
}

export interface TransactionAccess {
  /** The newest transactions of an account: PaymentDate descending, then Id descending. */
  last(accountId: number, limit?: number): Maybe<readonly TransactionRow[]>;
  /** Inserts one transaction (the balance follows); returns its row as stored. */
  insert(t: NewTransaction): Maybe<TransactionRow>;
  /** Inserts both halves of a transfer, each marked with the first half's id; returns their rows. */
  insertTransfer(first: NewTransaction, second: NewTransaction): Maybe<[TransactionRow, TransactionRow]>;
}

export interface TemplateAccess {
  /** A user's templates by Ord then Id. */
  listFor(userId: number): Maybe<TemplateRow[]>;
  insert(t: NewTemplate): Maybe<number>;
}

export interface CategoryAccess {
  /** All of a user's categories, by Id. */
  listFor(userId: number): Maybe<CategoryRow[]>;
  getFor(categoryId: number, userId: number): Maybe<CategoryRow | undefined>;
  /** How many levels the category is deep: 1 for a top-level one. */
  depth(categoryId: number): Maybe<number>;
  /** True when another category under the same parent has this name (compared case-insensitively). */
  siblingNamed(userId: number, parentId: number | null, name: string, exceptId?: number): Maybe<boolean>;
  insert(userId: number, parentId: number | null, name: string): Maybe<number>;
  rename(categoryId: number, name: string): Maybe<void>;
  /** The categories booked most often with a PaymentDate in [from, to], ties by Id. */
  favorites(userId: number, from: string, to: string, limit: number): Maybe<CategoryRow[]>;
}

export interface RefuelingAccess {
  /** The newest refuelings of one of a user's cars: DateOfPurchase descending, then Id descending. */
  last(userId: number, carId: number, limit?: number): Maybe<RefuelingRow[]>;
  /** The refueling when it belongs to one of the user's cars. */
  getFor(id: number, userId: number): Maybe<RefuelingRow | undefined>;
  insert(userId: number, createdBy: number, f: RefuelingFields): Maybe<number>;
  update(id: number, f: RefuelingFields): Maybe<void>;
}

/** Everything a flow may ask inside one read or one write. */
export interface DataAccess {
  readonly users: UserAccess;
  readonly accounts: AccountAccess;
  readonly transactions: TransactionAccess;
  readonly templates: TemplateAccess;
  readonly categories: CategoryAccess;
  readonly refuelings: RefuelingAccess;
}

/** A flow over the store: what an operation or an admin function is. */
export type StoreFlow<T> = (store: DataAccess) => Flow<T>;

/** The store as the running service uses it. */
export interface ServiceStore {
  /**
   * Whether the writes begun in one turn of the event loop share one commit (SQLite's group commit): a
   * write held back a moment for others then costs them less. Where each write is a transaction of its
   * own (PostgreSQL), a write held back would wait for nothing.
   */
  readonly groupsCommits: boolean;
  /**
   * Whether every commit that changes what an answer shows is known here before the next request is read,
   * so that `generation()` never lags a write answered anywhere and answers may be kept under it (one
   * process on SQLite). Not where another instance's write is answered before this one hears of it
   * (PostgreSQL): an answer kept from before it, given in between, would break read-after-write for a
   * client that meets both.
   */
  readonly knowsEveryCommit: boolean;
  /**
   * Where not every commit is known here (PostgreSQL): the stamp of what an answer for `userId` shows,
   * read from the database in one round trip. `accountId` names the one account the answer is about (a
   * transaction list), 0 all the user's accounts (the account lists) and whatever else of theirs an
   * answer shows. It changes in the very transaction of every change of what it covers, by any instance
   * or process, and never comes back to a value it had: an answer kept with the stamp read before its
   * data is still the database's answer while the stamp read now is the same. Absent where
   * `knowsEveryCommit`.
   */
  readonly answerStamp?: (userId: number, accountId: number) => Promise<string>;
  /**
   * Runs `flow`, which only reads, on committed data. On SQLite at once, in one snapshot; on PostgreSQL
   * each of its statements sees what was committed when it began.
   */
  read<T>(flow: StoreFlow<T>): Maybe<T>;
  /**
   * Runs `flow` in a transaction of its own (on SQLite: a savepoint of the group commit): all it wrote,
   * or nothing. Resolves only once that is committed; rejects with the flow's error, or the commit's.
   */
  write<T>(flow: StoreFlow<T>): Promise<T>;
  /** Users and client keys as committed. */
  readonly credentials: CredentialAccess;
  /**
   * A number that changes whenever the data may have changed, here or elsewhere: answers derived from
   * the data are kept only while it stays the same. It may lag a change made elsewhere by the moment
   * that change takes to be seen (SQLite: a turn of the event loop; PostgreSQL: its notification).
   */
  generation(): number;
  /** A number that changes whenever users or client keys may have changed (never through the operations). */
  outsideGeneration(): number;
  /** The login throttle: in this process on SQLite, shared by every instance on PostgreSQL. */
  loginGuard(
    options: Partial<ThrottleOptions>,
    now: () => number,
    onLock: (login: string, failures: number, ms: number) => void,
  ): LoginGuard;
  close(): Promise<void>;
}
