/**
 * What an operator does to the service's data, written once as flows (see store/flow.ts) over the store
 * seam: the command line runs them, on a SQLite file or a PostgreSQL database (session.ts), and tests
 * use them to set up data (on a file, synchronously: on-file.ts). Each runs in one write transaction, so
 * it is safe to run while the service is serving the same data. Arguments are checked before the
 * transaction begins (and the slow password hash made); refusals are RuleErrors with a one-line reason.
 */
import { isKnownCurrency } from '../../src-shared/money';
import { hasForbiddenXmlChar, localTimeZone } from '../../src-shared/wire';
import { DEFAULT_HASH_PARAMS, hashPassword, type HashParams } from '../auth/password';
import { RuleError } from '../errors';
import { createAccount } from '../operations/accounts';
import { saveRefueling } from '../operations/car-fuel';
import { createCategory } from '../operations/categories';
import type { CallContext } from '../operations/context';
import { description, wallDateTime } from '../operations/rules';
import { bookTransaction, createTemplate, type NewBooking, type NewTemplate } from '../operations/transactions';
import {
  CLIENT_KEY_MAX,
  LOGIN_MAX,
  PERMISSION,
  awaited,
  loginKey,
  type DataAccess,
  type Flow,
  type Permission,
  type StoreFlow,
  type UserRow,
} from '../store';

export interface HashOptions {
  /** scrypt cost; the secure default unless a test asks for a cheap one. */
  hashParams?: HashParams;
}

export { LOGIN_MAX, CLIENT_KEY_MAX } from '../store';
export const PASSWORD_MAX = 1024;

/** A context acting as the user `login`, for reusing the operations' rules. */
export function* contextOf(store: DataAccess, login: string, timeZone = localTimeZone()): Flow<CallContext> {
  return { store, user: yield* userOf(store, login), timeZone, now: Date.now };
}

function* userOf(store: DataAccess, login: string): Flow<UserRow> {
  const user = yield* awaited(store.users.byLogin(login));
  if (!user) throw new RuleError(`There is no user with login ${JSON.stringify(login)}.`);
  return user;
}

/** A flow run as the user `login`. */
function asUser<T>(login: string, fn: (ctx: CallContext) => Flow<T>): StoreFlow<T> {
  return function* (store) {
    return yield* fn(yield* contextOf(store, login));
  };
}

export function checkLogin(login: string): string {
  if (
    login.length < 1 ||
    login.length > LOGIN_MAX ||
    loginKey(login).length > LOGIN_MAX ||
    login.trim() !== login ||
    hasForbiddenXmlChar(login) ||
    /[\p{Cc}]/u.test(login)
  ) {
    throw new RuleError(`A login is 1 to ${LOGIN_MAX} characters, without control characters or surrounding spaces.`);
  }
  return login;
}

export function checkPassword(password: string): string {
  if (password.length < 1 || password.length > PASSWORD_MAX || hasForbiddenXmlChar(password)) {
    throw new RuleError(`A password is 1 to ${PASSWORD_MAX} characters that XML can carry.`);
  }
  return password;
}

export function checkClientKey(key: string): string {
  if (key.length < 1 || key.length > CLIENT_KEY_MAX || /[\s\p{Cc}]/u.test(key) || hasForbiddenXmlChar(key)) {
    throw new RuleError(`A client key is 1 to ${CLIENT_KEY_MAX} characters without spaces or control characters.`);
  }
  return key;
}

/** Registers a client application key (enabled). */
function addClient(key: string, label = ''): StoreFlow<void> {
  checkClientKey(key);
  description(label, 'label');
  return function* (store) {
    if (yield* awaited(store.users.clientExists(key))) throw new RuleError('That client key is already registered.');
    yield* awaited(store.users.insertClient(key, label));
  };
}

function isClientRegistered(key: string): StoreFlow<boolean> {
  return (store) => awaited(store.users.clientExists(key));
}

/** Enables or disables a client key; a disabled key is refused at once, also by a running service. */
function setClientEnabled(key: string, enabled: boolean): StoreFlow<void> {
  return function* (store) {
    if (!(yield* awaited(store.users.setClientEnabled(key, enabled)))) throw new RuleError('No client has that key.');
  };
}

export interface NewUserOptions extends HashOptions {
  /** The user's own currency (ISO 4217 numeric); default 203 (CZK). */
  currency?: number;
}

/** Creates a user; returns the user's id. */
function addUser(login: string, password: string, opts: NewUserOptions = {}): StoreFlow<number> {
  checkLogin(login);
  checkPassword(password);
  const currency = opts.currency ?? 203;
  if (!isKnownCurrency(currency)) throw new RuleError(`Currency ${currency} is not an ISO 4217 currency code this service knows.`);
  // Hash before taking the write lock: scrypt is slow on purpose.
  const hash = hashPassword(password, opts.hashParams ?? DEFAULT_HASH_PARAMS);
  return function* (store) {
    if (yield* awaited(store.users.byLogin(login))) throw new RuleError(`A user with login ${JSON.stringify(login)} already exists.`);
    return yield* awaited(store.users.insert(login, hash, currency));
  };
}

/** Sets a user's password; credentials verified with the old one stop working at once. */
function setPassword(login: string, password: string, opts: HashOptions = {}): StoreFlow<void> {
  checkPassword(password);
  const hash = hashPassword(password, opts.hashParams ?? DEFAULT_HASH_PARAMS);
  return function* (store) {
    yield* awaited(store.users.setPasswordHash((yield* userOf(store, login)).id, hash));
  };
}

/** Gives `login` a permission on an account (1 read, 2 write, 3 owner), replacing any they had. */
function shareAccount(accountId: number, login: string, permission: Permission): StoreFlow<void> {
  if (![PERMISSION.read, PERMISSION.write, PERMISSION.owner].includes(permission)) {
    throw new RuleError('The permission is 1 (read), 2 (write) or 3 (owner).');
  }
  return function* (store) {
    const user = yield* userOf(store, login);
    const ownerId = yield* awaited(store.accounts.ownerOf(accountId));
    if (ownerId === undefined) throw new RuleError(`Account ${accountId} does not exist.`);
    if (ownerId === user.id && permission !== PERMISSION.owner) {
      throw new RuleError(`${JSON.stringify(login)} owns account ${accountId}; the owner's permission stays 3.`);
    }
    yield* awaited(store.accounts.grant(accountId, user.id, permission));
  };
}

export interface NewAccount {
  name: string;
  currency: number;
  /** Default 2 (bank account). */
  type?: number;
  description?: string;
  isActive?: boolean;
  isHidden?: boolean;
  locked?: boolean;
  ord?: number;
}

/** Creates an account owned by `login`; returns its id. */
function addAccount(login: string, a: NewAccount): StoreFlow<number> {
  return asUser(login, (ctx) => accountFor(ctx, a));
}

export function accountFor(ctx: CallContext, a: NewAccount): Flow<number> {
  return createAccount(ctx, {
    Name: a.name,
    Description: a.description ?? '',
    Currency: a.currency,
    Type: a.type ?? 2,
    IsActive: a.isActive ?? true,
    IsHidden: a.isHidden ?? false,
    Locked: a.locked ?? false,
    Ord: a.ord ?? 0,
  });
}

export type { NewBooking as NewTransaction, NewTemplate } from '../operations/transactions';

/** Books an income or expense on an account `login` may write to; returns the transaction's id. */
function addTransaction(login: string, t: NewBooking): StoreFlow<number> {
  return asUser(login, (ctx) => bookTransaction(ctx, t));
}

/** Adds a category of `login` (parentId 0: top level); returns its id. */
function addCategory(login: string, name: string, parentId = 0): StoreFlow<number> {
  return asUser(login, (ctx) => createCategory(ctx, { Name: name, Id_ParentCategory: parentId }));
}

/** Adds a transaction template of `login`; returns its id. */
function addTemplate(login: string, t: NewTemplate): StoreFlow<number> {
  return asUser(login, (ctx) => createTemplate(ctx, t));
}

export interface NewRefueling {
  carId: number;
  dateOfPurchase: string;
  tachometer: number;
  liter: number;
  price: number;
  currency: number;
  rate?: number;
  description?: string;
}

/** Adds a refueling to one of `login`'s cars; returns its id. */
function addRefueling(login: string, r: NewRefueling): StoreFlow<number> {
  return asUser(login, (ctx) => refuelingFor(ctx, r));
}

export function refuelingFor(ctx: CallContext, r: NewRefueling): Flow<number> {
  return saveRefueling(ctx, {
    CarId: r.carId,
    Id_CarFuel: 0,
    Liter: r.liter,
    Price: r.price,
    Tachometer: r.tachometer,
    DateOfPurchase: wallDateTime(r.dateOfPurchase, 'dateOfPurchase'),
    Currency: r.currency,
    Description: r.description ?? '',
    Rate: r.rate ?? 1,
  });
}

/**
 * The operator's functions: each takes its arguments (checked at once, before any transaction) and
 * gives the flow that does the work in one write.
 */
export const OPERATOR = {
  addClient,
  isClientRegistered,
  setClientEnabled,
  addUser,
  setPassword,
  shareAccount,
  addAccount,
  addTransaction,
  addCategory,
  addTemplate,
  addRefueling,
};
