/** `edit-account`: queues a change of an account; what is not given keeps its value. */
import { AppError } from '../../../src-shared/app-api';
import { ACCOUNT } from '../../../src-shared/records/account';
import { pick } from '../../../src-shared/records/fields';
import { defineCommand, fieldsGiven, written } from '../command';
import { booleanArg, integerArg } from '../values';

export const editAccount = defineCommand({
  name: 'edit-account',
  summary: 'Queues a change of an account; fields not given keep their values.',
  positionals: [{ value: '<id>', description: 'the account id', read: integerArg }],
  options: {
    name: { type: 'string', value: '<name>', description: 'a new name' },
    description: { type: 'string', value: '<text>', description: 'a new note' },
    type: { type: 'string', value: '<code>', description: 'a new type, a number the service keeps as given', read: integerArg },
    ord: { type: 'string', value: '<n>', description: 'a new place in the list', read: integerArg },
    active: { type: 'string', value: 'true|false', description: 'active or not', read: booleanArg },
    hidden: { type: 'string', value: 'true|false', description: 'hidden from the lists or not', read: booleanArg },
    locked: { type: 'string', value: 'true|false', description: 'locked against changes or not', read: booleanArg },
  },
  async run(ctx) {
    const [id] = ctx.positionals;
    const a = (await ctx.core.listAccounts({ includeHidden: true, includeInactive: true })).accounts.find((x) => x.id === id);
    if (!a) throw new AppError('accountMissing', { id });
    const given = fieldsGiven(ctx.options, {
      name: 'name',
      description: 'description',
      type: 'type',
      ord: 'ord',
      active: 'isActive',
      hidden: 'isHidden',
      locked: 'locked',
    } as const);
    // The fields an edit sends (the account's field table), each as given or as the account has it.
    written(ctx, await ctx.core.editAccount({ id, ...pick({ ...a, ...given }, ACCOUNT.edited) }), 'Account change queued');
  },
});
