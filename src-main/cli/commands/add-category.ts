/** `add-category`: queues a new category. */
import { defineCommand, written } from '../command';
import { integerArg } from '../values';

export const addCategory = defineCommand({
  name: 'add-category',
  summary: 'Queues a new category (top level unless --parent).',
  positionals: [{ value: '<name>', description: 'the category name' }],
  options: {
    parent: { type: 'string', value: '<id>', description: 'the category it belongs under (default: top level)', read: integerArg },
  },
  async run(ctx) {
    written(ctx, await ctx.core.addCategory({ name: ctx.positionals[0], parentId: ctx.options.parent ?? 0 }), 'Category added');
  },
});
