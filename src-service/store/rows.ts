/**
 * What both stores hold, as the operations see it: the rows they answer, the rows they take, and the
 * keys things are looked up by, all in the columns of the tables (schema.ts). Money is in the currency's
 * minor units (integers), flags are 0/1.
 */
import { createHash } from 'node:crypto';
import { columnsBut, joined, select, selectAllBut, type RowOf } from './schema';

/** Longest login (as its loginKey) and client key the service stores. */
export const LOGIN_MAX = 100;
export const CLIENT_KEY_MAX = 200;

/** Logins are matched without regard to case or Unicode normal form. */
export function loginKey(login: string): string {
  return login.normalize('NFC').toLowerCase();
}

/** Client keys are stored as their SHA-256: the store alone never gives a usable key. */
export function clientKeyHash(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Siblings are compared without regard to case (Unicode-aware, unlike SQLite's NOCASE). */
export function categoryNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

export type Permission = 1 | 2 | 3;
export const PERMISSION = { read: 1, write: 2, owner: 3 } as const;

export const TRANSACTION_TYPE = { income: 1, expense: 2, transfer: 3 } as const;

/** How many transactions TransactionListLast50 returns (interface section 8). */
export const LAST_N = 50;

/** How many refuelings CarFuelList returns (interface section 8). */
export const LAST_REFUELINGS = 50;

/** The rows the stores answer: which columns each holds (the statements read exactly these). */
export const ROWS = {
  user: select('users', ['id', 'login', 'password_hash', 'currency']),
  /** An account as one user sees it: with that user's permission on it. */
  account: joined(selectAllBut('accounts', ['created_at']), select('account_permissions', ['permission'])),
  /** The link of a transfer's halves is not part of the row (a stored row never changes: see kept-rows.ts). */
  transaction: selectAllBut('transactions', ['transfer_id', 'created_at']),
  /** The currency comes along because a template's amount is in its account's minor units. */
  template: joined(selectAllBut('templates', ['created_at']), select('accounts', ['currency'])),
  category: select('categories', ['id', 'parent_id', 'name']),
  refueling: selectAllBut('refuelings', ['created_at', 'updated_at']),
};

type RowOfSelection<S> = S extends { pick: (values: infer R) => unknown } ? R : never;

export type UserRow = RowOfSelection<typeof ROWS.user>;
export type AccountRow = RowOfSelection<typeof ROWS.account>;
export type TransactionRow = RowOfSelection<typeof ROWS.transaction>;
export type TemplateRow = RowOfSelection<typeof ROWS.template>;
export type CategoryRow = RowOfSelection<typeof ROWS.category>;
export type RefuelingRow = RowOfSelection<typeof ROWS.refueling>;

/** The fields of a new account (its owner, balance and creation time are the store's). */
export const ACCOUNT_FIELDS = columnsBut('accounts', ['id', 'owner_id', 'balance_minor', 'created_at']);
export type AccountFields = RowOf<'accounts', (typeof ACCOUNT_FIELDS)[number]>;
/** What an edit replaces: every field but the currency, which no operation changes. */
export type EditableAccountFields = Omit<AccountFields, 'currency'>;
export const EDITABLE_ACCOUNT_FIELDS = ACCOUNT_FIELDS.filter((c): c is keyof EditableAccountFields => c !== 'currency');

/** A transaction to book: its row as it will be stored, but for the id the store gives it. */
export const NEW_TRANSACTION = columnsBut('transactions', ['id', 'transfer_id', 'created_at']);
export type NewTransaction = RowOf<'transactions', (typeof NEW_TRANSACTION)[number]>;

/** The row a transaction becomes once stored with `id`: the values bound, nothing read back. */
export function transactionRow(id: number, t: NewTransaction): TransactionRow {
  return ROWS.transaction.pick({ ...t, id });
}

export const NEW_TEMPLATE = columnsBut('templates', ['id', 'created_at']);
export type NewTemplate = RowOf<'templates', (typeof NEW_TEMPLATE)[number]>;

/** The fields of a refueling an edit replaces; its user and creator are given when it is made. */
export const REFUELING_FIELDS = columnsBut('refuelings', ['id', 'user_id', 'created_by', 'created_at', 'updated_at']);
export type RefuelingFields = RowOf<'refuelings', (typeof REFUELING_FIELDS)[number]>;
