/** New accounts (AddAccount) and account edits (EditAccount). */
import { AppError, RECORD_TABLES } from '../../../src-shared/app-api';
import type { ApiAccount2 } from '../../../src-shared/catalog';
import { ACCOUNT, type AccountWrite } from '../../../src-shared/records/account';
import { pick } from '../../../src-shared/records/fields';
import { DEFAULT_OWNER_PERMISSION } from '../outbox/learned';
import { changedFields, layEdit } from '../outbox/view-state';
import { accountFromApi, fromWire } from '../store/rows';
import { baseFor, findEditEffect, prepareEdit } from './edits';
import type { ApplyContext, EditSpec, Effect, Fields, WriteKind } from './kind';
import { assertNothingUnexplained, idsBefore, revivedProbe, sameFields } from './listing';
import { idParam, paramsOf } from './params';

/** The user may book on or edit an account with this permission code (1 is read only). */
export const canWrite = (permission: number): boolean => permission >= 2;

/** The service's account in the edit input's terms. */
export function accountFields(a: ApiAccount2): Fields {
  return fromWire(ACCOUNT, ACCOUNT.edited, a);
}

/** Stores an account the service answered with. */
function storeAccount(effect: Effect, ctx: ApplyContext): ApiAccount2 | null {
  if (effect.kind !== 'account') return null;
  ctx.store.accounts.upsert(accountFromApi(effect.account));
  return effect.account;
}

const readAccount = (account: ApiAccount2): Effect => ({ kind: 'account', account });

/** Whether a listed account holds what a new account sent, in the fields an account is told by. */
export const accountMatches = (a: ApiAccount2, i: AccountWrite): boolean => sameFields(ACCOUNT, fromWire(ACCOUNT, ACCOUNT.matched, a), i);

export const addAccount: WriteKind<'addAccount'> = {
  label: 'new account',
  touches: RECORD_TABLES.accounts,
  creates: ['account'],
  references: [],
  marks: ACCOUNT,
  edit: null,
  keys: (entry) => [`account:${entry.createdIds[0]}`],
  check: (raw) => ({ input: raw, base: null }),
  lay(state, entry) {
    const i = entry.input;
    const id = entry.createdIds[0]!;
    state.accounts.set(id, {
      ...pick(i, ACCOUNT.sent),
      id,
      permission: state.learned.ownerPermission ?? DEFAULT_OWNER_PERMISSION,
      balance: '0',
      serverBalance: '0',
      pending: true,
      local: true,
    });
  },
  async prepare(entry, ctx) {
    const ids = [...(await ctx.snapshot.accounts()).keys()];
    return { action: 'send', call: { operation: 'AddAccount', params: paramsOf(ACCOUNT, ACCOUNT.sent, entry.input) }, probe: { ids } };
  },
  send: async (_entry, call, _probe, ctx) => readAccount(await ctx.client.call('AddAccount', call.params as never)),
  probeFromCopy: (_entry, store) => revivedProbe(store.accounts.ids()),
  async findEffect(entry, ctx) {
    const before = idsBefore(entry.probe);
    const own = ctx.outbox.ownIds('account');
    const i = entry.input;
    let unexplained = 0;
    for (const a of (await ctx.snapshot.accounts()).values()) {
      if (before.has(a.Id) || own.has(a.Id)) continue;
      if (accountMatches(a, i)) return readAccount(a);
      unexplained++;
    }
    assertNothingUnexplained(entry.probe, unexplained);
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
  fields: ACCOUNT.edited,
  async theirs(entry, ctx) {
    const a = (await ctx.snapshot.accounts()).get(entry.input.id);
    return a ? accountFields(a) : null;
  },
  call: (id, v) => ({ operation: 'EditAccount', params: { ...idParam(ACCOUNT, id), ...paramsOf(ACCOUNT, ACCOUNT.edited, v) } }),
  stored(id, store) {
    const a = store.accounts.get(id);
    return a ? pick(a, ACCOUNT.edited) : null;
  },
};

export const editAccount: WriteKind<'editAccount'> = {
  label: 'account edit',
  touches: RECORD_TABLES.accounts,
  creates: [],
  references: [['id', 'account']],
  marks: ACCOUNT,
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
  probeFromCopy: () => null,
  findEffect: (entry, ctx) => findEditEffect(accountEdit, entry, ctx),
  apply: (_entry, effect, ctx) => void storeAccount(effect, ctx),
};
