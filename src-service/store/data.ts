/**
 * The store seam (seam.ts) written once for both databases: each area runs the statements of
 * statements.ts on a connection of either (sqlite/connection.ts answers at once, postgres/connection.ts
 * with promises), so a method holds no SQL and knows no database, only what the dialect offers (a
 * statement that is null where the database has no such thing).
 */
import { awaited, mapMaybe, run, type Flow, type Maybe } from './flow';
import {
  LAST_REFUELINGS,
  PERMISSION,
  categoryNameKey,
  clientKeyHash,
  loginKey,
  type AccountFields,
  type AccountRow,
  type CategoryRow,
  type EditableAccountFields,
  type NewTemplate,
  type Permission,
  type RefuelingFields,
  type RefuelingRow,
  type TemplateRow,
  type UserRow,
} from './rows';
import type { AccountAccess, CategoryAccess, DataAccess, RefuelingAccess, TemplateAccess, UserAccess } from './seam';
import type { StoreConnection } from './statements';
import { Transactions, type TransactionOptions } from './transactions';

const now = () => new Date().toISOString();

/** A call's end, whatever it answered (how many rows it changed, an id). */
const done = (answer: Maybe<unknown>): Maybe<void> => mapMaybe(answer, () => undefined);

export class Users implements UserAccess {
  private readonly q;

  constructor(private readonly db: StoreConnection) {
    this.q = db.statements.users;
  }

  byLogin(login: string): Maybe<UserRow | undefined> {
    return this.db.get(this.q.byLogin, [loginKey(login)]);
  }

  insert(login: string, passwordHash: string, currency: number): Maybe<number> {
    const row = { login, login_key: loginKey(login), password_hash: passwordHash, currency, created_at: now() };
    return this.db.insert(this.q.insert, row);
  }

  setPasswordHash(userId: number, passwordHash: string): Maybe<void> {
    return done(this.db.run(this.q.setHash, [passwordHash, userId]));
  }

  isClientEnabled(key: string): Maybe<boolean> {
    return mapMaybe(this.db.get(this.q.clientEnabled, [clientKeyHash(key)]), (enabled) => enabled === 1);
  }

  clientExists(key: string): Maybe<boolean> {
    return mapMaybe(this.db.get(this.q.clientEnabled, [clientKeyHash(key)]), (enabled) => enabled !== undefined);
  }

  insertClient(key: string, label: string): Maybe<void> {
    const row = { key_hash: clientKeyHash(key), label, enabled: 1, created_at: now() };
    return done(this.db.insert(this.q.insertClient, row));
  }

  setClientEnabled(key: string, enabled: boolean): Maybe<boolean> {
    return mapMaybe(this.db.run(this.q.setClientEnabled, [enabled ? 1 : 0, clientKeyHash(key)]), (changed) => changed > 0);
  }
}

export class Accounts implements AccountAccess {
  private readonly q;
  /**
   * The rows read with the booking's hold (holdForBooking), by id, and whose view they are: locked by
   * this transaction, they stay the database's until it writes, and each is answered once.
   */
  private held: { userId: number; rows: Map<number, AccountRow> } | undefined;

  constructor(private readonly db: StoreConnection) {
    this.q = db.statements.accounts;
  }

  /** The held rows are the database's no more: this transaction has written. */
  forgetHeld(): void {
    this.held = undefined;
  }

  listFor(userId: number): Maybe<AccountRow[]> {
    return this.db.all(this.q.listFor, [userId]);
  }

  getFor(accountId: number, userId: number): Maybe<AccountRow | undefined> {
    const held = this.held?.userId === userId ? this.held.rows.get(accountId) : undefined;
    if (held === undefined) return this.db.get(this.q.getFor, [accountId, userId]);
    this.held!.rows.delete(accountId);
    return held;
  }

  ownerOf(accountId: number): Maybe<number | undefined> {
    return this.db.get(this.q.ownerOf, [accountId]);
  }

  /** Call inside a transaction. */
  insert(ownerId: number, f: AccountFields): Maybe<number> {
    this.forgetHeld();
    const row = { ...f, owner_id: ownerId, created_at: now() };
    if (this.q.insertOwned !== null) return this.db.insert(this.q.insertOwned, row);
    return run(this.insertWithOwner(row));
  }

  private *insertWithOwner(row: AccountFields & { owner_id: number; created_at: string }): Flow<number> {
    const id = yield* awaited(this.db.insert(this.q.insert, row));
    yield* awaited(this.grant(id, row.owner_id, PERMISSION.owner));
    return id;
  }

  update(accountId: number, f: EditableAccountFields): Maybe<void> {
    this.forgetHeld();
    return done(this.db.run(this.q.update, { ...f, id: accountId }));
  }

  grant(accountId: number, userId: number, permission: Permission): Maybe<void> {
    this.forgetHeld();
    return done(this.db.run(this.q.grant, [accountId, userId, permission]));
  }

  /** Nothing to do where the database has no row locks (SQLite: a write holds the whole file). */
  holdForBooking(accountIds: readonly number[], userId: number): Maybe<void> {
    if (this.q.hold === null) return undefined;
    return mapMaybe(this.db.all(this.q.hold, [[...accountIds], userId]), (rows) => {
      this.held = { userId, rows: new Map(rows.map((row) => [row.id, row])) };
    });
  }
}

export class Templates implements TemplateAccess {
  private readonly q;

  constructor(private readonly db: StoreConnection) {
    this.q = db.statements.templates;
  }

  listFor(userId: number): Maybe<TemplateRow[]> {
    return this.db.all(this.q.listFor, [userId]);
  }

  insert(t: NewTemplate): Maybe<number> {
    return this.db.insert(this.q.insert, { ...t, created_at: now() });
  }
}

export class Categories implements CategoryAccess {
  private readonly q;

  constructor(private readonly db: StoreConnection) {
    this.q = db.statements.categories;
  }

  listFor(userId: number): Maybe<CategoryRow[]> {
    return this.db.all(this.q.listFor, [userId]);
  }

  getFor(categoryId: number, userId: number): Maybe<CategoryRow | undefined> {
    return this.db.get(this.q.getFor, [categoryId, userId]);
  }

  depth(categoryId: number): Maybe<number> {
    return mapMaybe(this.db.get(this.q.depth, [categoryId]), (depth) => depth ?? 0);
  }

  siblingNamed(userId: number, parentId: number | null, name: string, exceptId = 0): Maybe<boolean> {
    const found = this.db.get(this.q.sibling, [userId, parentId ?? 0, categoryNameKey(name), exceptId]);
    return mapMaybe(found, (id) => id !== undefined);
  }

  insert(userId: number, parentId: number | null, name: string): Maybe<number> {
    const row = { user_id: userId, parent_id: parentId, name, name_key: categoryNameKey(name), created_at: now() };
    return this.db.insert(this.q.insert, row);
  }

  rename(categoryId: number, name: string): Maybe<void> {
    return done(this.db.run(this.q.rename, { name, name_key: categoryNameKey(name), id: categoryId }));
  }

  favorites(userId: number, from: string, to: string, limit: number): Maybe<CategoryRow[]> {
    return this.db.all(this.q.favorites, [userId, from, to, limit]);
  }
}

export class Refuelings implements RefuelingAccess {
  private readonly q;

  constructor(private readonly db: StoreConnection) {
    this.q = db.statements.refuelings;
  }

  last(userId: number, carId: number, limit = LAST_REFUELINGS): Maybe<RefuelingRow[]> {
    return this.db.all(this.q.last, [userId, carId, limit]);
  }

  getFor(id: number, userId: number): Maybe<RefuelingRow | undefined> {
    return this.db.get(this.q.getFor, [id, userId]);
  }

  insert(userId: number, createdBy: number, f: RefuelingFields): Maybe<number> {
    const at = now();
    return this.db.insert(this.q.insert, { ...f, user_id: userId, created_by: createdBy, created_at: at, updated_at: at });
  }

  update(id: number, f: RefuelingFields): Maybe<void> {
    return done(this.db.run(this.q.update, { ...f, id, updated_at: now() }));
  }
}

/** Every area on one connection. */
export class StoreData implements DataAccess {
  readonly users: Users;
  readonly accounts: Accounts;
  readonly transactions: Transactions;
  readonly templates: Templates;
  readonly categories: Categories;
  readonly refuelings: Refuelings;

  constructor(db: StoreConnection, options: TransactionOptions = {}) {
    this.users = new Users(db);
    this.accounts = new Accounts(db);
    const accounts = this.accounts;
    this.transactions = new Transactions(db, { ...options, onInsert: () => accounts.forgetHeld() });
    this.templates = new Templates(db);
    this.categories = new Categories(db);
    this.refuelings = new Refuelings(db);
  }
}
