/**
 * The local copy's records, and how the service's records become them. Money and other decimal
 * quantities become canonical decimal text: the double on the wire is read as the decimal its
 * shortest text shows, so 0.1 stays 0.1.
 */
import { createHash } from 'node:crypto';
import type { AccountView, TemplateView, TransactionView } from '../../../src-shared/app-api';
import { REFUELING_FIELDS, REFUELING_WIRE_FIELDS, type RefuelingValues, type RefuelingWireField } from '../../../src-shared/records/refueling';
import type { ApiAccount2, ApiCarFuel, ApiCategory, ApiCategoryTree, ApiDefineTransaction2 } from '../../../src-shared/catalog';
import { decimalFromNumber, formatDecimal } from '../../../src-shared/money';
import type { ListedTransaction } from '../soap-client';

/** An account as the service listed it; `balance` is the balance the service reported. */
export type AccountRow = Omit<AccountView, 'serverBalance' | 'pending' | 'local' | 'writable'>;

/** A transaction as the service listed it; `key` is 'id:<Id>', or a content key when the service gives no ids. */
export type TransactionRow = Omit<TransactionView, 'categoryName' | 'pending'> & { key: string };

export type TemplateRow = Omit<TemplateView, 'accountName' | 'categoryName'> & { userId: number; userCreatedId: number };

export interface CategoryRow {
  id: number;
  name: string;
  /** 0 for top level. */
  parentId: number;
  /** Order among its siblings as the service listed them. */
  position: number;
}

export interface FavoriteRow {
  id: number;
  name: string;
}

export interface CategoryForest {
  all: CategoryRow[];
  favorites: FavoriteRow[];
}

export interface CarRow {
  carId: number;
  name: string;
}

/** A refueling as the service keeps it: the fields of its table that have a wire name. */
export type RefuelingRow = Pick<RefuelingValues, RefuelingWireField>;

export class RecordError extends Error {
  override name = 'RecordError';
}

/** Canonical decimal text of a wire double; refuses NaN and infinities rather than storing them. */
export function decimalText(n: number, subject: string): string {
  if (!Number.isFinite(n)) throw new RecordError(`${subject} is not a finite number.`);
  return formatDecimal(decimalFromNumber(n));
}

export function accountFromApi(a: ApiAccount2): AccountRow {
  return {
    id: a.Id,
    name: a.Name,
    description: a.Description,
    type: a.Type,
    currency: a.Currency,
    isActive: a.IsActive,
    locked: a.Locked,
    isHidden: a.IsHidden,
    ord: a.Ord,
    permission: a.UserAccountPermission,
    balance: decimalText(a.Amount, `The balance of account ${a.Id}`),
  };
}

/** Key of a transaction without an id: the account it is listed for, its content, and which of equal ones it is. */
function contentKey(accountId: number, t: ListedTransaction, occurrence: number): string {
  const text = JSON.stringify([accountId, t.PaymentDate, t.Type, t.Amount, t.Description, t.Id_Category, t.Id_User, t.Id_UserCreated]);
  return `h:${createHash('sha256').update(text).digest('hex').slice(0, 32)}:${occurrence}`;
}

/**
 * The transactions of one account's list. The list is of `accountId`, so that is where they are
 * kept even if a foreign service filled Id_Account differently.
 */
export function transactionsFromApi(accountId: number, items: ListedTransaction[]): TransactionRow[] {
  const seen = new Map<string, number>();
  return items.map((t) => {
    let key: string;
    if (t.Id !== null) key = `id:${t.Id}`;
    else {
      const base = contentKey(accountId, t, 0);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      key = contentKey(accountId, t, n);
    }
    return transactionRow(accountId, t, key);
  });
}

export function transactionRow(accountId: number, t: ListedTransaction, key = `id:${t.Id}`): TransactionRow {
  return {
    key,
    id: t.Id,
    accountId,
    paymentDate: t.PaymentDate,
    type: t.Type,
    amount: decimalText(t.Amount, 'A transaction amount'),
    description: t.Description,
    categoryId: t.Id_Category,
    userId: t.Id_User,
    userCreatedId: t.Id_UserCreated,
  };
}

export function templateFromApi(t: ApiDefineTransaction2): TemplateRow {
  return {
    id: t.Id,
    accountId: t.Id_Account,
    type: t.Type,
    amount: decimalText(t.Amount, `The amount of template ${t.Id}`),
    description: t.Description,
    categoryId: t.Id_Category,
    ord: t.Ord,
    userId: t.Id_User,
    userCreatedId: t.Id_UserCreated,
  };
}

/** The forest flattened: every category once, with its parent and its place among its siblings. */
export function categoriesFromApi(tree: ApiCategoryTree): CategoryForest {
  const all: CategoryRow[] = [];
  const seen = new Set<number>();
  const visit = (list: ApiCategory[], parentId: number, depth: number) => {
    if (depth > 32) throw new RecordError('The category tree nests too deep.');
    list.forEach((c, position) => {
      if (seen.has(c.Id)) throw new RecordError(`Category ${c.Id} appears twice in the category tree.`);
      seen.add(c.Id);
      all.push({ id: c.Id, name: c.Name, parentId, position });
      if (c.ChildCategories) visit(c.ChildCategories, c.Id, depth + 1);
    });
  };
  visit(tree.AllCategories, 0, 0);
  return { all, favorites: tree.FavoritCategories.map((c) => ({ id: c.Id, name: c.Name })) };
}

/** The service's refueling by its field table: each wire field, decimals as canonical text. */
export function refuelingFromApi(r: ApiCarFuel): RefuelingRow {
  const wire = r as unknown as Record<string, number | string>;
  const out: Record<string, unknown> = {};
  for (const k of REFUELING_WIRE_FIELDS) {
    const f = REFUELING_FIELDS[k];
    const value = wire[f.wire]!;
    out[k] = f.type === 'decimal' ? decimalText(value as number, `${f.wire} of refueling ${r.Id}`) : value;
  }
  return out as RefuelingRow;
}
