/**
 * The compiler's check that each record's field table and the service's record shape (the operation
 * catalog, src-shared/catalog) name the same fields with the same types, and that the parameters a write
 * sends from a table are its operation's: a field the catalog gains that no table maps, a wire or
 * parameter name a table misspells, or a type that differs is a type error here, naming it.
 */
import type {
  ApiAccount2,
  ApiCarFuel,
  ApiCategory,
  ApiDefineTransaction2,
  ApiTransaction2,
  CATEGORY_FIELDS,
  FieldList,
  FLAT_RECORDS,
  OperationName,
  ParamsOf,
} from '../catalog';
import type { ACCOUNT } from './account';
import type { CATEGORY } from './category';
import type { EditedKey, FieldTable, SentKey, WireKey } from './fields';
import type { REFUELING } from './refueling';
import type { TEMPLATE } from './template';
import type { TRANSACTION, TRANSFER } from './transaction';

/** The value of a field's type as the wire carries it (decimals as doubles). */
interface WireValueOfType {
  id: number;
  integer: number;
  currency: number;
  decimal: number;
  dateTime: string;
  date: string;
  text: string;
  flag: boolean;
}

/**
 * The XML Schema type a field's type is written as: the catalog's `double` (money, litres, rates) and
 * `long` (ids, counts, codes) are both numbers in TypeScript, so the TypeScript shapes alone would let a
 * money field be declared a whole number (and skip the exact decimal text) without a word.
 */
interface XsdOfType {
  id: 'long';
  integer: 'long';
  currency: 'long';
  decimal: 'double';
  dateTime: 'dateTime';
  date: 'date';
  text: 'string';
  flag: 'boolean';
}

/** The table's fields the service keeps, by their wire names, with their XML Schema types. */
type XsdShape<T extends FieldTable> = { [K in WireKey<T> as T[K]['wire'] & string]: XsdOfType[T[K]['type']] };

/** A catalog record's fields with their XML Schema types. */
type CatalogXsd<F extends FieldList> = { -readonly [P in F[number] as P['name']]: P['type'] };

/** true when the table's wire fields have the catalog record's XML Schema types; else what differs. */
export type SameXsd<T extends FieldTable, F extends FieldList> = Match<XsdShape<T>, CatalogXsd<F>>;

/** The table's fields the service keeps, by their wire names, with their wire types. */
export type WireShape<T extends FieldTable> = { [K in WireKey<T> as T[K]['wire'] & string]: WireValueOfType[T[K]['type']] };

/** true when `Shape` has the fields of `Api` (but for the `Beside` names: kept otherwise), with their types; else what differs. */
type Match<Shape, Api, Beside extends keyof Api = never> = [
  Exclude<keyof Shape, keyof Api>,
  Exclude<keyof Api, keyof Shape | Beside>,
] extends [never, never]
  ? Shape extends Omit<Api, Beside>
    ? Omit<Api, Beside> extends Shape
      ? true
      : { typesDiffer: Shape }
    : { typesDiffer: Shape }
  : { notInTheShape: Exclude<keyof Shape, keyof Api>; notInTheTable: Exclude<keyof Api, keyof Shape | Beside> };

/** true when the table's wire fields are the record shape's (but for those `Beside` names); else what differs. */
export type Same<T extends FieldTable, Api, Beside extends keyof Api = never> = Match<WireShape<T>, Api, Beside>;

/** These fields of the table as a write's parameters: each by its parameter name, else its wire name. */
type ParamShape<T extends FieldTable, K extends keyof T> = {
  [P in K as T[P] extends { param: infer N extends string } ? N : T[P]['wire'] & string]: WireValueOfType[T[P]['type']];
};
/** The parameter that names the record an edit changes. */
type IdParam<T extends FieldTable> = T['id'] extends { param: infer N extends string } ? { [P in N]: number } : never;

/** true when a write's parameters, from the table (write-kinds/params.ts), are the operation's; else what differs. */
export type SameParams<T extends FieldTable, K extends keyof T, Op extends OperationName, WithId extends boolean = false> = Match<
  ParamShape<T, K> & (WithId extends true ? IdParam<T> : unknown),
  ParamsOf<Op>
>;

type Fields<R extends { fields: FieldTable }> = R['fields'];

export const WIRE_COVERAGE: {
  account: Same<Fields<typeof ACCOUNT>, ApiAccount2>;
  transaction: Same<Fields<typeof TRANSACTION>, ApiTransaction2>;
  template: Same<Fields<typeof TEMPLATE>, ApiDefineTransaction2>;
  /** A category's children are its place in the tree (parentId, position), read as the tree is walked. */
  category: Same<Fields<typeof CATEGORY>, ApiCategory, 'ChildCategories'>;
  refueling: Same<Fields<typeof REFUELING>, ApiCarFuel>;
} = { account: true, transaction: true, template: true, category: true, refueling: true };

/** The same, by XML Schema type: a decimal field is the catalog's double, an integer its long. */
export const XSD_COVERAGE: {
  account: SameXsd<Fields<typeof ACCOUNT>, (typeof FLAT_RECORDS)['apiAccount2']['fields']>;
  transaction: SameXsd<Fields<typeof TRANSACTION>, (typeof FLAT_RECORDS)['apiTransaction2']['fields']>;
  template: SameXsd<Fields<typeof TEMPLATE>, (typeof FLAT_RECORDS)['apiDefineTransaction2']['fields']>;
  category: SameXsd<Fields<typeof CATEGORY>, typeof CATEGORY_FIELDS>;
  refueling: SameXsd<Fields<typeof REFUELING>, (typeof FLAT_RECORDS)['apiCarFuel']['fields']>;
} = { account: true, transaction: true, template: true, category: true, refueling: true };

/** The writes' parameters, as the write kinds send them (the fields sent, or edited, and the edited record's id). */
export const PARAM_COVERAGE: {
  addAccount: SameParams<Fields<typeof ACCOUNT>, SentKey<Fields<typeof ACCOUNT>>, 'AddAccount'>;
  editAccount: SameParams<Fields<typeof ACCOUNT>, EditedKey<Fields<typeof ACCOUNT>>, 'EditAccount', true>;
  transfer: SameParams<Fields<typeof TRANSFER>, SentKey<Fields<typeof TRANSFER>>, 'AddTranferToOtherAccount'>;
  addCategory: SameParams<Fields<typeof CATEGORY>, SentKey<Fields<typeof CATEGORY>>, 'AddCategory'>;
  renameCategory: SameParams<Fields<typeof CATEGORY>, EditedKey<Fields<typeof CATEGORY>>, 'EditCategory', true>;
  /** EditCarFuel both creates (Id_CarFuel 0) and edits. */
  refueling: SameParams<Fields<typeof REFUELING>, SentKey<Fields<typeof REFUELING>>, 'EditCarFuel', true>;
} = { addAccount: true, editAccount: true, transfer: true, addCategory: true, renameCategory: true, refueling: true };
