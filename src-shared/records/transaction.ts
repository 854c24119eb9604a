/**
 * A transaction's fields (the service's apiTransaction2), in the order of the CSV export, and the fields
 * of a transfer (AddTranferToOtherAccount), the one write that makes transactions: two, one on each
 * account. A transaction's id is null when the service offered only the list without ids.
 */
import { v } from '../validate';
import { defineRecord, field, type Sent, type Stored } from './fields';
import { description } from './rules';

export const TRANSACTION = defineRecord('transaction', {
  paymentDate: field({ type: 'dateTime', wire: 'PaymentDate', column: 'payment_date', input: v.dateTime(), csv: { header: 'date' } }),
  accountId: field({ type: 'integer', wire: 'Id_Account', column: 'account_id', csv: { header: 'account_id' } }),
  amount: field({ type: 'decimal', wire: 'Amount', column: 'amount', csv: { header: 'amount' } }),
  type: field({ type: 'integer', wire: 'Type', column: 'type', csv: { header: 'type' } }),
  /** 0: none. */
  categoryId: field({
    type: 'integer',
    wire: 'Id_Category',
    column: 'category_id',
    input: v.whole({ min: Number.MIN_SAFE_INTEGER }),
    csv: { header: 'category_id' },
  }),
  description: field({ type: 'text', wire: 'Description', column: 'description', input: description(), csv: { header: 'description' } }),
  id: field({ type: 'id', wire: 'Id', column: 'id', nullable: true, csv: { header: 'id' } }),
  userId: field({ type: 'integer', wire: 'Id_User', column: 'user_id' }),
  userCreatedId: field({ type: 'integer', wire: 'Id_UserCreated', column: 'user_created_id' }),
});

/** A transaction as the service listed it (the local copy's transactions table, without its key). */
export type TransactionStored = Stored<typeof TRANSACTION>;

const T = TRANSACTION.fields;

/**
 * A transfer: from one account to another of the same currency, a positive amount. Its transactions are told
 * (after a lost answer) by the fields it shares with them, the amount without its sign.
 */
export const TRANSFER = defineRecord('transfer', {
  sourceId: field({ type: 'integer', param: 'Id_SourceAccount', input: v.id() }),
  targetId: field({ type: 'integer', param: 'Id_TargetAccount', input: v.id() }),
  amount: field({ ...T.amount, input: v.decimal({ positive: true }), match: true }),
  paymentDate: field({ ...T.paymentDate, match: true }),
  categoryId: field({ ...T.categoryId, match: true }),
  description: field({ ...T.description, match: true }),
});

export type TransferWrite = Sent<typeof TRANSFER>;
