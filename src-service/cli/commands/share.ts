/** `share`: gives a user a permission on an account. */
import { withAdmin } from '../../index';
import type { Permission } from '../../store';
import { defineCommand, loginOption, storeOf, storeOptions } from '../command';
import { codeOption, idOption } from '../values';

const PERMISSIONS = { read: 1, write: 2, owner: 3 };

export const share = defineCommand({
  name: 'share',
  summary: 'Give a user a permission on an account.',
  options: {
    ...storeOptions,
    account: { type: 'string', value: '<id>', description: 'the account id', required: true, read: idOption },
    login: loginOption,
    permission: { type: 'string', value: '<read|write|owner>', description: 'or 1, 2, 3', required: true, read: codeOption(PERMISSIONS) },
  },
  async run(o) {
    await withAdmin(storeOf(o), (admin) => admin.shareAccount(o.account, o.login, o.permission as Permission));
    console.log(`Account ${o.account} shared with ${o.login} (permission ${o.permission}).`);
  },
});
