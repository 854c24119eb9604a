/** New accounts (AddAccount) and account edits (EditAccount). */
import { AppError } from '../../../src-shared/app-api';
import type { ApiAccount2 } from '../../../src-shared/catalog';
import { DEFAULT_OWNER_PERMISSION } from '../outbox/learned';
import { changedFields, layEdit } from '../outbox/view-state';
import { accountFromApi } from '../store/rows';
import { baseFor, findEditEffect, prepareEdit } from './edits';
import type { ApplyContext, EditSpec, Effect, Fields, WriteKind } from './kind';
import { idsBefore, trimEq } from './listing';
import type { OutboxEntry } from '../outbox/entries';

/** The user may book on or edit an account with this permission code (1 is read only). */
export const canWrite = (permission: number): boolean => permission >= 2;

/** The service's account in the edit input's terms. */
export function accountFields(a: ApiAccount2): Fields {
  return { name: a.Name, description: a.Description, type: a.Type, isActive: a.IsActive, isHidden: a.IsHidden, locked: a.Locked, ord: a.Ord };
}

/** Stores an account the service answered with. */
function storeAccount(effect: Effect, ctx: ApplyContext): ApiAccount2 | null {
  if (effect.kind !== 'account') return null;
  ctx.store.upsertAccount(accountFromApi(effect.account));
  return effect.account;
}

const readAccount = (account: ApiAccount2): Effect => ({ kind: 'account', account });

export const addAccount: WriteKind<'addAccount'> = {
  label: 'new account',
  touches: ['accounts'],
  creates: ['account'],
  references: [],
  edit: null,
  keys: (entry) => [`account:${entry.createdIds[0]}`],
  check: (raw) => ({ input: raw, base: null }),
  lay(state, entry) {
    const i = entry.input;
    const id = entry.createdIds[0]!;
    state.accounts.set(id, {
      id,
      name: i.name,
      description: i.description,
      type: i.type,
      currency: i.currency,
      isActive: i.isActive,
      locked: i.locked,
      isHidden: i.isHidden,
      ord: i.ord,
      permission: state.learned.ownerPermission ?? DEFAULT_OWNER_PERMISSION,
      balance: '0',
      serverBalance: '0',
      pending: true,
      local: true,
    });
  },
  async prepare(entry, ctx) {
    const i = entry.input;
    const ids = [...(await ctx.snapshot.accounts()).keys()];
    return {
      action: 'send',
      call: {
        operation: 'AddAccount',
        params: { Name: i.name, Description: i.description, Currency: i.currency, Type: i.type, IsActive: i.isActive, IsHidden: i.isHidden, Locked: i.locked, Ord: i.ord },
      },
      probe: { ids },
    };
  },
  send: async (_entry, call, _probe, ctx) => readAccount(await ctx.client.call('AddAccount', call.params as never)),
  async findEffect(entry, ctx) {
    const before = idsBefore(entry.probe);
    const own = ctx.outbox.ownIds('account');
    const i = entry.input;
    for (const a of (await ctx.snapshot.accounts()).values()) {
      if (before.has(a.Id) || own.has(a.Id)) continue;
      if (trimEq(a.Name, i.name) && a.Currency === i.currency && a.Type === i.type && a.Description === i.description) return readAccount(a);
    }
    return null;
  },
  apply(entry, effect, ctx) {
    const account = storeAccount(effect, ctx);
    if (!account) return;
    ctx.outbox.markOwn('account', account.Id);
    ctx.outbox.replaceTempId('account', entry.createdIds[0]!, account.Id);
    ctx.learned.ownerPermission = account.UserAccountPermission;
  },
};

const accountEdit: EditSpec<'editAccount'> = {
  record: 'account',
  fields: ['name', 'description', 'type', 'isActive', 'isHidden', 'locked', 'ord'],
  async theirs(entry, ctx) {
    const a = (await ctx.snapshot.accounts()).get(entry.input.id);
    return a ? accountFields(a) : null;
  },
  call: (id, v) => ({
    operation: 'EditAccount',
    params: { Id_Account: id, Name: v.name, Description: v.description, Type: v.type, IsActive: v.isActive, IsHidden: v.isHidden, Locked: v.locked, Ord: v.ord },
  }),
};

export const editAccount: WriteKind<'editAccount'> = {
  label: 'account edit',
  touches: ['accounts'],
  creates: [],
  references: [['id', 'account']],
  edit: accountEdit,
  keys: (entry) => [`account:${entry.input.id}`],
  check(raw, ctx) {
    const id = ctx.resolve(raw.id);
    const account = ctx.state.accounts.get(id);
    if (!account) throw new AppError('accountMissing', { id: raw.id }, 'id');
    if (!canWrite(account.permission)) throw new AppError('accountReadOnly', { name: account.name }, 'id');
    return { input: { ...raw, id }, base: baseFor(accountEdit.fields, id, account, ctx.previous), targetId: id };
  },
  lay: (state, entry) => layEdit(state.accounts.get(entry.input.id), changedFields(entry, accountEdit.fields)),
  prepare: (entry, ctx) => prepareEdit(accountEdit, entry, ctx),
  send: async (_entry, call, _probe, ctx) => readAccount(await ctx.client.call('EditAccount', call.params as never)),
  findEffect: (entry, ctx) => findEditEffect(accountEdit, entry, ctx),
  apply: (_entry, effect, ctx) => void storeAccount(effect, ctx),
};
