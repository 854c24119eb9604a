/**
 * `outbox resolve <id>`: settles an edit in conflict as the screens' resolver does, through the same app
 * API method (resolveConflict), which holds the rules: every field in conflict gets a side, and only those.
 */
import { UsageError } from '../../../src-node/cli';
import type { OutboxEntryView } from '../../../src-shared/app-api';
import { defineCommand } from '../command';
import { outboxText } from '../format';
import { entryId, fieldChoiceArg, type Side } from './outbox-args';

const SIDES = '--mine, --theirs or --field <name>=mine|theirs';

/** The choice of each field: those named by --field, the others the side of --mine or --theirs. */
function choicesFor(entry: OutboxEntryView, named: readonly { field: string; side: Side }[], rest: Side | null): Record<string, Side> {
  const choices: Record<string, Side> = {};
  for (const { field, side } of named) {
    if (Object.hasOwn(choices, field)) throw new UsageError(`--field names ${field} more than once.`);
    choices[field] = side;
  }
  if (rest) for (const c of entry.conflicts) choices[c.field] ??= rest;
  return choices;
}

export const outboxResolve = defineCommand({
  name: 'outbox resolve',
  summary: 'Settles an edit in conflict: keeps mine or theirs for every field in conflict, or field by field; the next sync sends it.',
  positionals: [entryId],
  options: {
    mine: { type: 'boolean', description: 'keep my value of every field in conflict (of those --field does not name)' },
    theirs: { type: 'boolean', description: "keep the service's value of every field in conflict (of those --field does not name)" },
    field: {
      type: 'string',
      value: '<name>=<mine|theirs>',
      description: 'keep one side of one field in conflict, named as "outbox show" lists it',
      multiple: true,
      read: fieldChoiceArg,
    },
  },
  notes: 'Every field in conflict needs a side. "outbox show <id>" lists them with base, mine and theirs.',
  async run(ctx) {
    const [id] = ctx.positionals;
    const { mine, theirs, field } = ctx.options;
    if (mine && theirs) throw new UsageError('Give --mine or --theirs, not both.');
    if (!mine && !theirs && field.length === 0) throw new UsageError(`Say which side to keep: ${SIDES}.`);
    const { entry } = await ctx.core.getOutboxEntry({ id });
    const choices = choicesFor(entry, field, mine ? 'mine' : theirs ? 'theirs' : null);
    const list = await ctx.core.resolveConflict({ id, choices });
    const kept = Object.entries(choices)
      .map(([f, side]) => `${f}: ${side}`)
      .join(', ');
    ctx.out(list, `Entry ${id} resolved (${kept}); it will be sent with the next sync.\n${outboxText(list)}`);
  },
});
