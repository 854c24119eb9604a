/**
 * What both stores hold, as the operations see it: the rows they answer, the fields they take, and the
 * keys things are looked up by. Money is in the currency's minor units (integers), booleans as 0/1.
 */
import { createHash } from 'node:crypto';
import type { ParamsOf } from '../../src-shared/catalog';

export interface UserRow {
  id: number;
  login: string;
  password_hash: string;
  currency: number;
}

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

export type Permission = 1 | 2 | 3;
export const PERMISSION = { read: 1, write: 2, owner: 3 } as const;

/** The fields of an account as AddAccount carries them (checked by the operation's rules first). */
export type AccountFields = ParamsOf<'AddAccount'>;
export type EditableAccountFields = Omit<AccountFields, 'Currency'>;

/** An account as one user sees it: with that user's permission on it. */
export interface AccountRow {
  id: number;
  owner_id: number;
  name: string;
  description: string;
  currency: number;
  type: number;
  is_active: number;
  is_hidden: number;
  locked: number;
  ord: number;
  balance_minor: number;
  permission: Permission;
}

export const TRANSACTION_TYPE = { income: 1, expense: 2, transfer: 3 } as const;

/** How many transactions TransactionListLast50 returns (interface section 8). */
export const LAST_N = 50;

export interface NewTransaction {
  accountId: number;
  userId: number;
  createdBy: number;
  paymentDate: string;
  type: number;
  amountMinor: number;
  description: string;
  /** null for none (0 on the wire). */
  categoryId: number | null;
}

export interface TransactionRow {
  id: number;
  account_id: number;
  user_id: number;
  created_by: number;
  payment_date: string;
  type: number;
  amount_minor: number;
  description: string;
  category_id: number | null;
}

/** The row a transaction becomes once stored with `id`: the values bound, nothing read back. */
export function transactionRow(id: number, t: NewTransaction): TransactionRow {
  return {
    id,
    account_id: t.accountId,
    user_id: t.userId,
    created_by: t.createdBy,
    payment_date: t.paymentDate,
    type: t.type,
    amount_minor: t.amountMinor,
    description: t.description,
    category_id: t.categoryId,
  };
}

export interface NewTemplate {
  userId: number;
  createdBy: number;
  accountId: number;
  type: number;
  amountMinor: number;
  description: string;
  categoryId: number | null;
  ord: number;
}

export interface TemplateRow {
  id: number;
  user_id: number;
  created_by: number;
  account_id: number;
  currency: number;
  type: number;
  amount_minor: number;
  description: string;
  category_id: number | null;
  ord: number;
}

export interface CategoryRow {
  id: number;
  parent_id: number | null;
  name: string;
}

/** Siblings are compared without regard to case (Unicode-aware, unlike SQLite's NOCASE). */
export function categoryNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

/** How many refuelings CarFuelList returns (interface section 8). */
export const LAST_REFUELINGS = 50;

export interface RefuelingFields {
  carId: number;
  dateOfPurchase: string;
  tachometer: number;
  liter: number;
  priceMinor: number;
  description: string;
  currency: number;
  rate: number;
}

export interface RefuelingRow {
  id: number;
  user_id: number;
  car_id: number;
  created_by: number;
  date_of_purchase: string;
  tachometer: number;
  liter: number;
  price_minor: number;
  description: string;
  currency: number;
  rate: number;
}
