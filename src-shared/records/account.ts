/**
 * An account's fields (the service's apiAccount2), in the order of AddAccount's and EditAccount's
 * parameters. The currency is given when the account is made and never changed (`once`); the permission
 * and the balance are the service's. To add a field the service does not have (a local one): a row here
 * with `local` and `input`; a migration creating or extending account_marks (account_id, one column per
 * local field: src-main/core/store/migrations.ts); its label in cs and en (account.local.<name>).
 */
import { v } from '../validate';
import { defineRecord, field, type Edited, type Locals, type Sent, type Stored } from './fields';
import { code, currency, description, name } from './rules';

export const ACCOUNT = defineRecord('account', {
  id: field({ type: 'id', wire: 'Id', param: 'Id_Account', column: 'id' }),
  name: field({ type: 'text', wire: 'Name', column: 'name', input: name(), match: true }),
  description: field({ type: 'text', wire: 'Description', column: 'description', input: description(), match: true }),
  type: field({ type: 'integer', wire: 'Type', column: 'type', input: code(), match: true }),
  isActive: field({ type: 'flag', wire: 'IsActive', column: 'is_active', input: v.flag() }),
  isHidden: field({ type: 'flag', wire: 'IsHidden', column: 'is_hidden', input: v.flag() }),
  locked: field({ type: 'flag', wire: 'Locked', column: 'locked', input: v.flag() }),
  // The service's Ord is a long: the whole range a double holds exactly, not only 32 bits.
  ord: field({ type: 'integer', wire: 'Ord', column: 'ord', input: v.whole() }),
  currency: field({ type: 'currency', wire: 'Currency', column: 'currency', input: currency(), once: true, match: true }),
  /** The user's permission code on the account; 1 means read only. */
  permission: field({ type: 'integer', wire: 'UserAccountPermission', column: 'permission' }),
  /** The balance the service reported. */
  balance: field({ type: 'decimal', wire: 'Amount', column: 'balance' }),
});

/** An account as the service listed it (the local copy's accounts table). */
export type AccountStored = Stored<typeof ACCOUNT>;
export type AccountLocals = Locals<typeof ACCOUNT>;
/** What the outbox keeps of a new account; of an account edit. */
export type AccountWrite = Sent<typeof ACCOUNT>;
export type AccountEdit = Edited<typeof ACCOUNT>;
