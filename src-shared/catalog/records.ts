/**
 * The record shapes of service-interface.md section 2, fields in the interface's order (which is also
 * the order they are written on the wire).
 */
import { field, type ValuesOf } from './wire-types';

const accountFields = [
  field('Id', 'long'),
  field('Name', 'string'),
  field('Type', 'long'),
  field('Currency', 'long'),
  field('IsActive', 'boolean'),
  field('Locked', 'boolean'),
  field('Description', 'string'),
  field('Ord', 'long'),
  field('UserAccountPermission', 'long'),
  field('Amount', 'double'),
] as const;

const transactionFields = [
  field('Id_User', 'long'),
  field('Id_UserCreated', 'long'),
  field('Id_Account', 'long'),
  field('PaymentDate', 'dateTime'),
  field('Type', 'long'),
  field('Amount', 'double'),
  field('Description', 'string'),
  field('Id_Category', 'long'),
] as const;

const defineTransactionFields = [
  field('Id', 'long'),
  field('Id_User', 'long'),
  field('Id_UserCreated', 'long'),
  field('Id_Account', 'long'),
  field('Type', 'long'),
  field('Amount', 'double'),
  field('Description', 'string'),
  field('Id_Category', 'long'),
] as const;

/**
 * The flat records: every field is a scalar. `required` names the fields without which a record read
 * from a service is unusable (a missing one is a malformed response); other missing fields read as the
 * type's default, as a .NET client would.
 */
export const FLAT_RECORDS = {
  apiAccount: { fields: accountFields, required: ['Id'] },
  apiAccount2: { fields: [...accountFields, field('IsHidden', 'boolean')] as const, required: ['Id'] },
  apiTransaction: { fields: transactionFields, required: ['Id_Account'] },
  apiTransaction2: { fields: [field('Id', 'long'), ...transactionFields] as const, required: ['Id', 'Id_Account'] },
  apiDefineTransaction: { fields: defineTransactionFields, required: ['Id'] },
  apiDefineTransaction2: {
    fields: [...defineTransactionFields, field('Ord', 'long')] as const,
    required: ['Id'],
  },
  apiCarFuel: {
    fields: [
      field('Id', 'long'),
      field('Id_UserCreated', 'long'),
      field('DateOfPurchase', 'dateTime'),
      field('Id_Car', 'long'),
      field('Tachometer', 'long'),
      field('Liter', 'double'),
      field('Price', 'double'),
      field('Description', 'string'),
      field('Currency', 'long'),
      field('Rate', 'double'),
    ] as const,
    required: ['Id'],
  },
} as const;

export type FlatRecordName = keyof typeof FLAT_RECORDS;
export type FlatRecord<N extends FlatRecordName> = ValuesOf<(typeof FLAT_RECORDS)[N]['fields']>;

export type ApiAccount = FlatRecord<'apiAccount'>;
export type ApiAccount2 = FlatRecord<'apiAccount2'>;
export type ApiTransaction = FlatRecord<'apiTransaction'>;
export type ApiTransaction2 = FlatRecord<'apiTransaction2'>;
export type ApiDefineTransaction = FlatRecord<'apiDefineTransaction'>;
export type ApiDefineTransaction2 = FlatRecord<'apiDefineTransaction2'>;
export type ApiCarFuel = FlatRecord<'apiCarFuel'>;

/** `apiCategory`: `ChildCategories` is nil (null) for a category without children. */
export interface ApiCategory {
  Id: number;
  Name: string;
  ChildCategories: ApiCategory[] | null;
}

export const CATEGORY_RECORD = 'apiCategory';
export const CATEGORY_FIELDS = [field('Id', 'long'), field('Name', 'string')] as const;

/** The `Data` of CategoryTree, AddCategory and EditCategory. The spelling `FavoritCategories` is the interface's. */
export interface ApiCategoryTree {
  FavoritCategories: ApiCategory[];
  AllCategories: ApiCategory[];
}
export const CATEGORY_TREE_LISTS = ['FavoritCategories', 'AllCategories'] as const;

/** The result of AddTranferToOtherAccount: two transactions, no `Data` wrapper. */
export interface ApiTransferPair {
  Transaction1: ApiTransaction2;
  Transaction2: ApiTransaction2;
}
export const TRANSFER_PAIR_ELEMENTS = ['Transaction1', 'Transaction2'] as const;
