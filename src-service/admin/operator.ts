/**
 * What an operator does to a data file, as plain synchronous functions: the command line calls them,
 * and so do tests to set up data. Each opens the file (creating and migrating it when needed), works in
 * one transaction and closes it again, so it is safe to run while the service is serving the same file.
 * Refusals are RuleErrors with a one-line reason.
 */
import { isKnownCurrency } from '../../src-shared/money';
import { hasForbiddenXmlChar, localTimeZone } from '../../src-shared/wire';
import { DEFAULT_HASH_PARAMS, hashPassword, type HashParams } from '../auth/password';
import { RuleError } from '../errors';
import { createAccount } from '../operations/accounts';
import { description, wallDateTime } from '../operations/rules';
import { saveRefueling } from '../operations/car-fuel';
import { createCategory } from '../operations/categories';
import type { CallContext } from '../operations/context';
import { bookTransaction, createTemplate, type NewBooking, type NewTemplate } from '../operations/transactions';
import { PERMISSION, Store, type Permission } from '../store';
import { CLIENT_KEY_MAX, LOGIN_MAX, loginKey, type UserRow } from '../store/users';

export interface HashOptions {
  /** scrypt cost; the secure default unless a test asks for a cheap one. */
  hashParams?: HashParams;
}

export { LOGIN_MAX, CLIENT_KEY_MAX } from '../store/users';
export const PASSWORD_MAX = 1024;

/** Runs `fn` on the store of a data file, closing it afterwards. */
export function withStore<T>(dataFile: string, fn: (store: Store) => T): T {
  const store = Store.open(dataFile);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

/** A context acting as the user `login`, for reusing the operations' rules. */
export function contextOf(store: Store, login: string, timeZone = localTimeZone()): CallContext {
  return { store, user: userOf(store, login), timeZone, now: Date.now };
}

function userOf(store: Store, login: string): UserRow {
  const user = store.users.byLogin(login);
  if (!user) throw new RuleError(`There is no user with login ${JSON.stringify(login)}.`);
  return user;
}

function asUser<T>(dataFile: string, login: string, fn: (ctx: CallContext) => T): T {
  return withStore(dataFile, (store) => fn(contextOf(store, login)));
}

export function checkLogin(login: string): string {
  if (login.length < 1 || login.length > LOGIN_MAX || loginKey(login).length > LOGIN_MAX || login.trim() !== login || hasForbiddenXmlChar(login) || /[\p{Cc}]/u.test(login)) {
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
export function addClient(dataFile: string, key: string, label = ''): void {
  checkClientKey(key);
  description(label, 'label');
  withStore(dataFile, (store) =>
    store.write(() => {
      if (store.users.clientExists(key)) throw new RuleError('That client key is already registered.');
      store.users.insertClient(key, label);
    }),
  );
}

export function isClientRegistered(dataFile: string, key: string): boolean {
  return withStore(dataFile, (store) => store.users.clientExists(key));
}

/** Enables or disables a client key; a disabled key is refused at once, also by a running service. */
export function setClientEnabled(dataFile: string, key: string, enabled: boolean): void {
  withStore(dataFile, (store) => {
    if (!store.users.setClientEnabled(key, enabled)) throw new RuleError('No client has that key.');
  });
}

export interface NewUserOptions extends HashOptions {
  /** The user's own currency (ISO 4217 numeric); default 203 (CZK). */
  currency?: number;
}

/** Creates a user; returns the user's id. */
export function addUser(dataFile: string, login: string, password: string, opts: NewUserOptions = {}): number {
  checkLogin(login);
  checkPassword(password);
  const currency = opts.currency ?? 203;
  if (!isKnownCurrency(currency)) throw new RuleError(`Currency ${currency} is not an ISO 4217 currency code this service knows.`);
  // Hash before taking the write lock: scrypt is slow on purpose.
  const hash = hashPassword(password, opts.hashParams ?? DEFAULT_HASH_PARAMS);
  return withStore(dataFile, (store) =>
    store.write(() => {
      if (store.users.byLogin(login)) throw new RuleError(`A user with login ${JSON.stringify(login)} already exists.`);
      return store.users.insert(login, hash, currency);
    }),
  );
}

/** Sets a user's password; credentials verified with the old one stop working at once. */
export function setPassword(dataFile: string, login: string, password: string, opts: HashOptions = {}): void {
  checkPassword(password);
  const hash = hashPassword(password, opts.hashParams ?? DEFAULT_HASH_PARAMS);
  withStore(dataFile, (store) => store.write(() => store.users.setPasswordHash(userOf(store, login).id, hash)));
}

/** Gives `login` a permission on an account (1 read, 2 write, 3 owner), replacing any they had. */
export function shareAccount(dataFile: string, accountId: number, login: string, permission: Permission): void {
  if (![PERMISSION.read, PERMISSION.write, PERMISSION.owner].includes(permission)) {
    throw new RuleError('The permission is 1 (read), 2 (write) or 3 (owner).');
  }
  withStore(dataFile, (store) =>
    store.write(() => {
      const user = userOf(store, login);
      const ownerId = store.accounts.ownerOf(accountId);
      if (ownerId === undefined) throw new RuleError(`Account ${accountId} does not exist.`);
      if (ownerId === user.id && permission !== PERMISSION.owner) {
        throw new RuleError(`${JSON.stringify(login)} owns account ${accountId}; the owner's permission stays 3.`);
      }
      store.accounts.grant(accountId, user.id, permission);
    }),
  );
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
export function addAccount(dataFile: string, login: string, a: NewAccount): number {
  return asUser(dataFile, login, (ctx) => accountFor(ctx, a));
}

export function accountFor(ctx: CallContext, a: NewAccount): number {
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
export function addTransaction(dataFile: string, login: string, t: NewBooking): number {
  return asUser(dataFile, login, (ctx) => bookTransaction(ctx, t));
}

/** Adds a category of `login` (parentId 0: top level); returns its id. */
export function addCategory(dataFile: string, login: string, name: string, parentId = 0): number {
  return asUser(dataFile, login, (ctx) => createCategory(ctx, { Name: name, Id_ParentCategory: parentId }));
}

/** Adds a transaction template of `login`; returns its id. */
export function addTemplate(dataFile: string, login: string, t: NewTemplate): number {
  return asUser(dataFile, login, (ctx) => createTemplate(ctx, t));
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
export function addRefueling(dataFile: string, login: string, r: NewRefueling): number {
  return asUser(dataFile, login, (ctx) => refuelingFor(ctx, r));
}

export function refuelingFor(ctx: CallContext, r: NewRefueling): number {
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
