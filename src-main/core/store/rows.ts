/**
 * The local copy's records, and how the service's records become them. Money and other decimal
 * quantities become canonical decimal text: the double on the wire is read as the decimal its
 * shortest text shows, so 0.1 stays 0.1.
 */
import { createHash } from 'node:crypto';
import { AppError, type WireRecord } from '../../../src-shared/app-api';
import type { ApiAccount2, ApiCarFuel, ApiCategory, ApiCategoryTree, ApiDefineTransaction2 } from '../../../src-shared/catalog';
import { decimalFromNumber, formatDecimal } from '../../../src-shared/money';
import { ACCOUNT, type AccountStored } from '../../../src-shared/records/account';
import type { CarStored } from '../../../src-shared/records/car';
import { CATEGORY, type CategoryStored } from '../../../src-shared/records/category';
import type { FieldTable, RecordSpec, ValuesOf } from '../../../src-shared/records/fields';
import { REFUELING, type RefuelingStored } from '../../../src-shared/records/refueling';
import { TEMPLATE, type TemplateStored } from '../../../src-shared/records/template';
import { TRANSACTION, type TransactionStored } from '../../../src-shared/records/transaction';
import type { ListedTransaction } from '../soap-client';

/** An account as the service listed it; `balance` is the balance the service reported. */
export type AccountRow = AccountStored;

/** A transaction as the service listed it; `key` is 'id:<Id>', or a content key when the service gives no ids. */
export type TransactionRow = TransactionStored & { key: string };

export type TemplateRow = TemplateStored;

/** A category with its parent (0 for top level) and its order among its siblings as the service listed them. */
export type CategoryRow = CategoryStored;

export interface FavoriteRow {
  id: number;
  name: string;
}

export interface CategoryForest {
  all: CategoryRow[];
  favorites: FavoriteRow[];
}

export type CarRow = CarStored;

/** A refueling as the service keeps it: the fields of its table that have a wire name. */
export type RefuelingRow = RefuelingStored;

/** A value of the service's the local copy cannot keep (not a finite number), said by its record, id and wire field. */
export class RecordError extends AppError<'serviceValueNotNumber'> {
  override name = 'RecordError';
}

/**
 * Canonical decimal text of a wire double; refuses NaN and infinities rather than storing them, naming the
 * value: its record, the record's id (null when the service gives none) and its wire field.
 */
export function decimalText(n: number, record: WireRecord, id: number | null, wire: string): string {
  if (!Number.isFinite(n)) throw new RecordError('serviceValueNotNumber', { record, id: id === null ? '?' : String(id), wire });
  return formatDecimal(decimalFromNumber(n));
}

/** These fields of the service's record, by the record's field table: each from its wire name, decimals as canonical text. */
export function fromWire<N extends WireRecord, T extends FieldTable, K extends keyof T & string>(
  record: RecordSpec<N, T>,
  keys: readonly K[],
  wire: { Id?: number | null },
): Pick<ValuesOf<T>, K> {
  const values = wire as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const f = record.fields[k]!;
    const value = values[f.wire!];
    out[k] = f.type === 'decimal' ? decimalText(value as number, record.name, wire.Id ?? null, f.wire!) : value;
  }
  return out as Pick<ValuesOf<T>, K>;
}

export function accountFromApi(a: ApiAccount2): AccountRow {
  return fromWire(ACCOUNT, ACCOUNT.stored, a);
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
  return { key, ...fromWire(TRANSACTION, TRANSACTION.stored, t), accountId };
}

export function templateFromApi(t: ApiDefineTransaction2): TemplateRow {
  return fromWire(TEMPLATE, TEMPLATE.stored, t);
}

const CATEGORY_WIRE = CATEGORY.wire;

/**
 * The forest flattened: every category once, with its parent and its place among its siblings. The tree
 * has passed the client's checks (soap-client/trust.ts: no category twice, no deeper than it takes).
 */
export function categoriesFromApi(tree: ApiCategoryTree): CategoryForest {
  const all: CategoryRow[] = [];
  const visit = (list: ApiCategory[], parentId: number) => {
    list.forEach((c, position) => {
      all.push({ ...fromWire(CATEGORY, CATEGORY_WIRE, c), parentId, position });
      if (c.ChildCategories) visit(c.ChildCategories, c.Id);
    });
  };
  visit(tree.AllCategories, 0);
  return { all, favorites: tree.FavoritCategories.map((c) => fromWire(CATEGORY, CATEGORY_WIRE, c)) };
}

/** The service's refueling by its field table: each wire field, decimals as canonical text. */
export function refuelingFromApi(r: ApiCarFuel): RefuelingRow {
  return fromWire(REFUELING, REFUELING.stored, r);
}
