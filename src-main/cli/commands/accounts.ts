/** `accounts`: the accounts with balances. */
import { defineCommand } from '../command';
import * as fmt from '../format';

export const accounts = defineCommand({
  name: 'accounts',
  summary: 'Lists the accounts with balances (--all: hidden and inactive ones too).',
  options: { all: { type: 'boolean', description: 'hidden and inactive accounts too' } },
  async run(ctx) {
    const all = ctx.options.all;
    const v = await ctx.core.listAccounts({ includeHidden: all, includeInactive: all });
    ctx.out(v, fmt.accountsText(v));
  },
});
