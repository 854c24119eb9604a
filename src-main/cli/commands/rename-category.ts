/** `rename-category`: queues a new name for a category. */
import { defineCommand, written } from '../command';
import { integerArg } from '../values';

export const renameCategory = defineCommand({
  name: 'rename-category',
  summary: 'Queues a new name for a category.',
  positionals: [
    { value: '<id>', description: 'the category id', read: integerArg },
    { value: '<name>', description: 'the new name' },
  ],
  async run(ctx) {
    const [id, name] = ctx.positionals;
    written(ctx, await ctx.core.renameCategory({ id, name }), 'Rename queued');
  },
});
