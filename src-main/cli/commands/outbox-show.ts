/** `outbox show <id>`: one queued write field by field, base, mine and theirs, the conflicting fields marked. */
import type { OutboxEntryDetail, OutboxFieldView } from '../../../src-shared/app-api';
import { defineCommand } from '../command';
import { table } from '../format';
import { entryId } from './outbox-args';

/** A value as typed: text quoted (an empty name is seen), none as a dash. */
const shown = (value: OutboxFieldView['mine']): string =>
  value === null ? '-' : typeof value === 'string' ? JSON.stringify(value) : String(value);

export function entryDetailText({ entry, fields }: OutboxEntryDetail): string {
  const tries = `${entry.attempts} ${entry.attempts === 1 ? 'try' : 'tries'}`;
  const head = [
    `Outbox entry ${entry.id}: ${entry.kind}${entry.targetId !== null ? ` of record ${entry.targetId}` : ''}, ${entry.status}, made ${entry.createdAt}, ${tries}.`,
    ...(entry.message ? [entry.message] : []),
  ];
  const rows = fields.map((f) => [f.field, shown(f.base), shown(f.mine), shown(f.theirs), f.conflict ? 'conflict' : '']);
  const edit = fields.some((f) => f.base !== null);
  const notes = edit
    ? ["BASE is the value when the edit began; THEIRS the service's, as the conflict found it or as the last sync left this copy."]
    : ['A new record: it has no base, and nothing on the service until it is sent.'];
  if (entry.conflicts.length > 0) {
    notes.push(`Keep one side with "outbox resolve ${entry.id} --mine", "--theirs" or "--field <name>=mine|theirs" per field.`);
  }
  return [...head, table(['FIELD', 'BASE', 'MINE', 'THEIRS', ''], rows), ...notes].join('\n');
}

export const outboxShow = defineCommand({
  name: 'outbox show',
  summary: 'Shows one queued write field by field: base, mine and theirs, the fields in conflict marked.',
  positionals: [entryId],
  async run(ctx) {
    const [id] = ctx.positionals;
    const detail = await ctx.core.getOutboxEntry({ id });
    ctx.out(detail, entryDetailText(detail));
  },
});
