/** AccountList2, AccountListWithAmount2, AccountListWithAmount, AddAccount, EditAccount. */
import type { ApiAccount2, ParamsOf, ResultOf } from '../../src-shared/catalog';
import { ACCOUNT } from '../../src-shared/records/account';
import { RuleError } from '../errors';
import { PERMISSION, awaited, type AccountFields, type EditableAccountFields, type Flow } from '../store';
import type { CallContext } from './context';
import { apiAccount, HOLDS, rowFromParams, type EditRules, type SentRules } from './records';
import * as rule from './rules';

/**
 * Every account the caller holds a permission on, by Ord then Id, hidden ones included. AccountList2
 * answers with the balance too: the interface gives its records an `Amount` like the other lists, and the
 * balance is stored with the account, so leaving it out would only give clients a wrong zero.
 */
export function* listAccounts(ctx: CallContext): Flow<ApiAccount2[]> {
  return (yield* awaited(ctx.store.accounts.listFor(ctx.user.id))).map(apiAccount);
}

/**
 * The service's rule of each field EditAccount sends (the name trimmed, the flags as 0/1), and AddAccount's,
 * which gives the currency too; the parameters become the row's columns by the account's table.
 */
const EDIT_RULES = {
  name: (value: string, param) => rule.name(value, param),
  description: (value: string, param) => rule.description(value, param),
  type: (code: number, param) => rule.accountType(code, param),
  isActive: (flag: boolean) => +flag,
  isHidden: (flag: boolean) => +flag,
  locked: (flag: boolean) => +flag,
  ord: (value: number) => value,
} satisfies EditRules<typeof ACCOUNT.fields>;
const ADD_RULES = { ...EDIT_RULES, currency: (code: number, param) => rule.currency(code, param) } satisfies SentRules<
  typeof ACCOUNT.fields
>;

/** Creates an account owned by the caller (permission 3); returns its id. */
export function* createAccount(ctx: CallContext, p: ParamsOf<'AddAccount'>): Flow<number> {
  const fields: AccountFields = rowFromParams(ACCOUNT, HOLDS.account, ADD_RULES, p);
  return yield* awaited(ctx.store.accounts.insert(ctx.user.id, fields));
}

export function* addAccount(ctx: CallContext, p: ParamsOf<'AddAccount'>): Flow<ResultOf<'AddAccount'>> {
  const id = yield* createAccount(ctx, p);
  return apiAccount((yield* awaited(ctx.store.accounts.getFor(id, ctx.user.id)))!);
}

/** Replaces the fields of an account the caller may write (permission 2 or 3); the currency stays. */
export function* editAccount(ctx: CallContext, p: ParamsOf<'EditAccount'>): Flow<ResultOf<'EditAccount'>> {
  const { store, user } = ctx;
  const account = yield* rule.visibleAccount(store, user.id, p.Id_Account, 'Id_Account');
  if (account.permission < PERMISSION.write) {
    throw new RuleError(`Id_Account: account ${p.Id_Account} is read-only for you; editing it needs permission 2 or 3.`);
  }
  const fields: EditableAccountFields = rowFromParams(ACCOUNT, HOLDS.account, EDIT_RULES, p);
  yield* awaited(store.accounts.update(account.id, fields));
  return apiAccount((yield* awaited(store.accounts.getFor(account.id, user.id)))!);
}
