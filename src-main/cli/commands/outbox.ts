/** `outbox` and its actions: the queued writes, one field by field, and settling one the user must decide. */
import { defineCommand, defineGroup } from '../command';
import * as fmt from '../format';
import { entryId } from './outbox-args';
import { outboxResolve } from './outbox-resolve';
import { outboxShow } from './outbox-show';

export const outbox = defineGroup('outbox', 'Lists the queued writes; shows, retries, discards or resolves one.', [
  defineCommand({
    name: 'outbox',
    summary: 'Lists the queued writes with their status and message.',
    async run(ctx) {
      const list = await ctx.core.listOutbox();
      ctx.out(list, fmt.outboxText(list));
    },
  }),
  outboxShow,
  defineCommand({
    name: 'outbox retry',
    summary: 'Sends a refused, conflicting or undecidable write again with the next sync.',
    positionals: [entryId],
    async run(ctx) {
      const [id] = ctx.positionals;
      const list = await ctx.core.retryOutbox({ id });
      ctx.out(list, `Entry ${id} will be sent with the next sync.\n${fmt.outboxText(list)}`);
    },
  }),
  defineCommand({
    name: 'outbox discard',
    summary: 'Drops a queued write: it is never sent.',
    positionals: [entryId],
    async run(ctx) {
      const [id] = ctx.positionals;
      const list = await ctx.core.discardOutbox({ id });
      ctx.out(list, `Entry ${id} discarded.\n${fmt.outboxText(list)}`);
    },
  }),
  outboxResolve,
]);
