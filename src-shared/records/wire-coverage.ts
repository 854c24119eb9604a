/**
 * The compiler's check that each record's field table and the service's record shape (the operation
 * catalog, src-shared/catalog) name the same fields with the same types: a field the catalog gains that
 * no table maps, a wire name a table misspells, or a type that differs is a type error here, naming it.
 */
import type { ApiAccount2, ApiCarFuel, ApiCategory, ApiDefineTransaction2, ApiTransaction2 } from '../catalog';
import type { ACCOUNT } from './account';
import type { CATEGORY } from './category';
import type { FieldTable, WireKey } from './fields';
import type { REFUELING } from './refueling';
import type { TEMPLATE } from './template';
import type { TRANSACTION } from './transaction';

/** The value of a field's type as the wire carries it (decimals as doubles). */
interface WireValueOfType {
  id: number;
  integer: number;
  currency: number;
  decimal: number;
  dateTime: string;
  text: string;
  flag: boolean;
}

/** The table's fields the service keeps, by their wire names, with their wire types. */
type WireShape<T extends FieldTable> = { [K in WireKey<T> as T[K]['wire'] & string]: WireValueOfType[T[K]['type']] };

/** true when the table's wire fields are the shape's (but for those `Beside` names: kept otherwise); else what differs. */
export type Same<T extends FieldTable, Api, Beside extends keyof Api = never> = [
  Exclude<keyof WireShape<T>, keyof Api>,
  Exclude<keyof Api, keyof WireShape<T> | Beside>,
] extends [never, never]
  ? WireShape<T> extends Omit<Api, Beside>
    ? Omit<Api, Beside> extends WireShape<T>
      ? true
      : { typesDiffer: WireShape<T> }
    : { typesDiffer: WireShape<T> }
  : { notInTheShape: Exclude<keyof WireShape<T>, keyof Api>; notInTheTable: Exclude<keyof Api, keyof WireShape<T> | Beside> };

export const WIRE_COVERAGE: {
  account: Same<(typeof ACCOUNT)['fields'], ApiAccount2>;
  transaction: Same<(typeof TRANSACTION)['fields'], ApiTransaction2>;
  template: Same<(typeof TEMPLATE)['fields'], ApiDefineTransaction2>;
  /** A category's children are its place in the tree (parentId, position), read as the tree is walked. */
  category: Same<(typeof CATEGORY)['fields'], ApiCategory, 'ChildCategories'>;
  refueling: Same<(typeof REFUELING)['fields'], ApiCarFuel>;
} = { account: true, transaction: true, template: true, category: true, refueling: true };
