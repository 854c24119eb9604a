/** `transfer`: queues a transfer between two accounts. */
import { defineCommand, written } from '../command';
import { integerArg, nowMinute } from '../values';

export const transfer = defineCommand({
  name: 'transfer',
  summary: 'Queues a transfer between two accounts of one currency.',
  options: {
    from: { type: 'string', value: '<accountId>', description: 'the account the money leaves', required: true, read: integerArg },
    to: { type: 'string', value: '<accountId>', description: 'the account it goes to', required: true, read: integerArg },
    amount: { type: 'string', value: '<decimal>', description: 'how much, such as 1520.50', required: true },
    date: { type: 'string', value: '<YYYY-MM-DDTHH:mm>', description: 'when (default now)' },
    category: { type: 'string', value: '<id>', description: 'a category (default none)', read: integerArg },
    description: { type: 'string', value: '<text>', description: 'a note (default none)' },
  },
  async run(ctx) {
    const o = ctx.options;
    const result = await ctx.core.transfer({
      sourceId: o.from,
      targetId: o.to,
      amount: o.amount,
      paymentDate: o.date ?? nowMinute(),
      categoryId: o.category ?? 0,
      description: o.description ?? '',
    });
    written(ctx, result, 'Transfer queued');
  },
});
