/** Every record's field table, by the record's kind. */
import { ACCOUNT } from './account';
import { BUDGET } from './budget';
import { CAR } from './car';
import { CATEGORY } from './category';
import { REFUELING } from './refueling';
import { TEMPLATE } from './template';
import { TRANSACTION } from './transaction';

export const RECORDS = {
  account: ACCOUNT,
  transaction: TRANSACTION,
  template: TEMPLATE,
  category: CATEGORY,
  car: CAR,
  refueling: REFUELING,
  budget: BUDGET,
} as const;

/** The records that have marks kept here only (local fields), each in its table `<record>_marks`. */
export const MARKED_RECORDS = Object.values(RECORDS).filter((r) => r.local.length > 0);
