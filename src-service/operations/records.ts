/**
 * Stored rows as the interface's records, made from the record field tables (src-shared/records): every
 * field the service keeps, by its wire name, from the column of the row that holds it (`HOLDS` here,
 * the one list of which column holds which field; the compiler asks for a column for every field the
 * table gives a wire name). How a value is turned follows from the field's type and the column's
 * (schema.ts): minor units back to doubles, 0/1 to booleans, a null reference to 0. The field tables and
 * the catalog's records are the same fields (src-shared/records/wire-coverage.ts). The other way, a write's
 * parameters become the columns that keep them by the same tables (rowFromParams), each checked by its rule.
 */
import type { ApiAccount2, ApiCarFuel, ApiCategory, ApiDefineTransaction2, ApiTransaction2 } from '../../src-shared/catalog';
import { ACCOUNT } from '../../src-shared/records/account';
import { CATEGORY } from '../../src-shared/records/category';
import type { AnyRecord, EditedKey, FieldSpec, FieldTable, SentKey, WireKey } from '../../src-shared/records/fields';
import { REFUELING } from '../../src-shared/records/refueling';
import { TEMPLATE } from '../../src-shared/records/template';
import { TRANSACTION } from '../../src-shared/records/transaction';
import type { WireShape } from '../../src-shared/records/wire-coverage';
import { unchanging } from '../../src-shared/wire';
import { ROWS, minorToAmount, type AccountRow, type CategoryRow, type RefuelingRow, type TemplateRow, type TransactionRow } from '../store';
import { identifier, literalFunction } from '../store/object-literal';
import { TABLES, type Column, type Selected, type Selection } from '../store/schema';

/** For each field the service keeps (the table's fields with a wire name), the column of the row holding it. */
type Holds<T extends FieldTable, R> = { readonly [K in WireKey<T>]: keyof R & string };

/** A field's value on the wire, as an expression of `row` (and of `currency`, the currency of its amounts). */
function wireValue(key: string, field: FieldSpec, column: Column & { name: string }, currency: string): string {
  const value = `row.${identifier(column.name)}`;
  if (field.type === 'flag') return `${value} === 1`;
  if (column.money) {
    if (field.type !== 'decimal') throw new Error(`${key}: money is a decimal field.`);
    return `minorToAmount(${value}, ${currency})`;
  }
  if (field.type === 'decimal' && column.type !== 'double') throw new Error(`${key}: a decimal is kept in minor units or as a double.`);
  // A reference to nothing (a transaction without a category) is 0 on the wire.
  return column.nullable ? `(${value} ?? 0)` : value;
}

/**
 * The function making the record of a row. Its amounts are in the row's currency where the row has one,
 * else in the `currency` it is given (a transaction's: its account's).
 */
function recordOf<T extends FieldTable, R>(
  record: { fields: T; wire: readonly WireKey<T>[] },
  rows: Selection<R>,
  holds: Holds<T, R>,
): (row: R, currency: number) => WireShape<T> {
  const columnOf = (c: Selected) => ({ ...(TABLES[c.table].columns as Record<string, Column>)[c.name]!, name: c.name });
  const columns = new Map(rows.columns.map((c) => [c.name, columnOf(c)]));
  const currency = columns.has('currency') ? 'row.currency' : 'currency';
  const entries = record.wire.map((key): [string, string] => {
    const field = record.fields[key]!;
    return [field.wire!, wireValue(key, field, columns.get(holds[key])!, currency)];
  });
  return literalFunction(['row', 'currency'], entries, { minorToAmount });
}

export const HOLDS = {
  account: {
    id: 'id',
    name: 'name',
    description: 'description',
    type: 'type',
    isActive: 'is_active',
    isHidden: 'is_hidden',
    locked: 'locked',
    ord: 'ord',
    currency: 'currency',
    permission: 'permission',
    balance: 'balance_minor',
  },
  transaction: {
    id: 'id',
    paymentDate: 'payment_date',
    accountId: 'account_id',
    amount: 'amount_minor',
    type: 'type',
    categoryId: 'category_id',
    description: 'description',
    userId: 'user_id',
    userCreatedId: 'created_by',
  },
  template: {
    id: 'id',
    accountId: 'account_id',
    type: 'type',
    amount: 'amount_minor',
    description: 'description',
    categoryId: 'category_id',
    ord: 'ord',
    userId: 'user_id',
    userCreatedId: 'created_by',
  },
  category: {
    id: 'id',
    name: 'name',
  },
  refueling: {
    id: 'id',
    carId: 'car_id',
    dateOfPurchase: 'date_of_purchase',
    tachometer: 'tachometer',
    liter: 'liter',
    price: 'price_minor',
    currency: 'currency',
    rate: 'rate',
    description: 'description',
    userCreatedId: 'created_by',
  },
} as const satisfies {
  account: Holds<typeof ACCOUNT.fields, AccountRow>;
  transaction: Holds<typeof TRANSACTION.fields, TransactionRow>;
  template: Holds<typeof TEMPLATE.fields, TemplateRow>;
  category: Holds<typeof CATEGORY.fields, CategoryRow>;
  refueling: Holds<typeof REFUELING.fields, RefuelingRow>;
};

const accountRecord = recordOf(ACCOUNT, ROWS.account, HOLDS.account);
const transactionRecord = recordOf(TRANSACTION, ROWS.transaction, HOLDS.transaction);
const templateRecord = recordOf(TEMPLATE, ROWS.template, HOLDS.template);
const refuelingRecord = recordOf(REFUELING, ROWS.refueling, HOLDS.refueling);
const categoryRecord = recordOf(CATEGORY, ROWS.category, HOLDS.category);

export function apiAccount(row: AccountRow): ApiAccount2 {
  return accountRecord(row, row.currency);
}

/**
 * The records made of kept rows (frozen: see KeptTransactions), by the very row object, made unchanging
 * in turn so that the codec keeps their XML: a list of kept rows is answered without building anything.
 * Weakly: a record lives as long as its row is kept (in the keep or in a kept list), and no count of
 * entries needs a limit (a Map by id, emptied whole at 20,000 entries, was emptied every few seconds
 * under the benchmark's 2,000 new rows a second, and every list then built its 50 records and XML anew).
 */
const transactionRecords = new WeakMap<TransactionRow, { currency: number; record: ApiTransaction2 }>();

/** A transaction of an account in `currency`. */
export function apiTransaction(row: TransactionRow, currency: number): ApiTransaction2 {
  return Object.isFrozen(row) ? apiKeptTransaction(row, currency) : transactionRecord(row, currency);
}

/**
 * The record of a kept (frozen) row, such as every row of a kept list is: asked for the 50 rows of a list
 * that changed, it skips asking each row whether it is frozen (Object.isFrozen walks every property of a
 * frozen row: 4% of the mix's CPU).
 */
export function apiKeptTransaction(row: TransactionRow, currency: number): ApiTransaction2 {
  const known = transactionRecords.get(row);
  if (known !== undefined && known.currency === currency) return known.record;
  const record = unchanging(transactionRecord(row, currency));
  transactionRecords.set(row, { currency, record });
  return record;
}

export function apiDefineTransaction(row: TemplateRow): ApiDefineTransaction2 {
  return templateRecord(row, row.currency);
}

export function apiCarFuel(row: RefuelingRow): ApiCarFuel {
  return refuelingRecord(row, row.currency);
}

/** A category of the tree with its children (null for a leaf: the interface's nil). */
export function apiCategory(row: CategoryRow, children: ApiCategory[] | null): ApiCategory {
  return { ...categoryRecord(row, 0), ChildCategories: children };
}

/**
 * The service's rule of one field a write sends: the parameter's value (named `param` in a refusal) as its
 * column keeps it; `params`, the write's parameters, for a rule across fields (a price in its currency's units).
 */
export type ParamRule = (value: never, param: string, params: Readonly<Record<string, unknown>>) => unknown;
/** A rule for every field a write of the record sends: a table of rules `satisfies` it, so a field added needs one. */
export type SentRules<T extends FieldTable> = { readonly [K in SentKey<T>]: ParamRule };
/** A rule for every field an edit of the record sends. */
export type EditRules<T extends FieldTable> = { readonly [K in EditedKey<T>]: ParamRule };

type RowOfRules<H, Rules> = {
  -readonly [F in keyof Rules & keyof H as H[F] & string]: Rules[F] extends (...args: never[]) => infer V ? V : never;
};

/**
 * A write's parameters as the columns of the row that keeps them, by the record's field table: each field the
 * rules name (in the rules' order: a rule may rely on one before it), read from its parameter (`param`, else its
 * wire name) and checked by its rule, into the column `holds` names (HOLDS, the same as the records' way back).
 */
export function rowFromParams<H extends Readonly<Record<string, string>>, Rules extends { readonly [F in keyof H]?: ParamRule }>(
  record: AnyRecord,
  holds: H,
  rules: Rules,
  params: object,
): RowOfRules<H, Rules> {
  const given = params as Readonly<Record<string, unknown>>;
  const row: Record<string, unknown> = {};
  for (const [key, rule] of Object.entries(rules) as [keyof H & string, ParamRule][]) {
    const f = record.fields[key]!;
    const param = f.param ?? f.wire!;
    row[holds[key]!] = rule(given[param] as never, param, given);
  }
  return row as RowOfRules<H, Rules>;
}
