/** `add-account`: queues a new account. */
import { defineCommand, written } from '../command';
import { integerArg } from '../values';

export const addAccount = defineCommand({
  name: 'add-account',
  summary: 'Queues a new account.',
  options: {
    name: { type: 'string', value: '<name>', description: "the account's name", required: true },
    currency: {
      type: 'string',
      value: '<code>',
      description: 'its currency, as the ISO 4217 number (203 for CZK)',
      required: true,
      read: integerArg,
    },
    type: {
      type: 'string',
      value: '<code>',
      description: 'its type, a number the service keeps as given',
      required: true,
      read: integerArg,
    },
    description: { type: 'string', value: '<text>', description: 'a note (default none)' },
    ord: { type: 'string', value: '<n>', description: 'its place in the list (default 0)', read: integerArg },
    hidden: { type: 'boolean', description: 'hidden from the lists' },
    inactive: { type: 'boolean', description: 'not active' },
    locked: { type: 'boolean', description: 'locked against changes' },
  },
  async run(ctx) {
    const o = ctx.options;
    const result = await ctx.core.addAccount({
      name: o.name,
      currency: o.currency,
      type: o.type,
      description: o.description ?? '',
      ord: o.ord ?? 0,
      isHidden: o.hidden,
      isActive: !o.inactive,
      locked: o.locked,
    });
    written(ctx, result, 'Account added');
  },
});
