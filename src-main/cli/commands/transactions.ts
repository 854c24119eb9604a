/** `transactions`: a page of an account's transactions. */
import { defineCommand } from '../command';
import * as fmt from '../format';
import { integerArg } from '../values';

export const transactions = defineCommand({
  name: 'transactions',
  summary: "Lists an account's transactions, newest first.",
  positionals: [{ value: '<accountId>', description: 'the account id', read: integerArg }],
  options: {
    offset: { type: 'string', value: '<n>', description: 'how many of the newest to skip (default 0)', read: integerArg },
    limit: { type: 'string', value: '<n>', description: 'how many to list (default 50)', read: integerArg },
    search: {
      type: 'string',
      value: '<text>',
      description: 'only those whose description, amount or category holds the text, case and accents aside (as the register searches)',
    },
  },
  async run(ctx) {
    const [accountId] = ctx.positionals;
    const { offset, limit, search } = ctx.options;
    const page = await ctx.core.listTransactions({
      accountId,
      offset: offset ?? 0,
      limit: limit ?? 50,
      ...(search !== undefined ? { search } : {}),
    });
    ctx.out(page, fmt.transactionsText(page));
  },
});
