/** A template (the service's apiDefineTransaction2): a transaction's fields, and its place in the list. */
import { defineRecord, field, type Stored } from './fields';
import { TRANSACTION } from './transaction';

const T = TRANSACTION.fields;

export const TEMPLATE = defineRecord('template', {
  id: field({ type: 'id', wire: 'Id', column: 'id' }),
  accountId: T.accountId,
  type: T.type,
  amount: T.amount,
  description: T.description,
  categoryId: T.categoryId,
  ord: field({ type: 'integer', wire: 'Ord', column: 'ord' }),
  userId: T.userId,
  userCreatedId: T.userCreatedId,
});

/** A template as the service listed it (the local copy's templates table). */
export type TemplateStored = Stored<typeof TEMPLATE>;
