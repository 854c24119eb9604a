/** `status`: the connection, the outbox counts and the last sync. */
import { AppError } from '../../../src-shared/app-api';
import { defineCommand } from '../command';
import * as fmt from '../format';

export const status = defineCommand({
  name: 'status',
  summary: 'Shows the connection, the outbox counts and the last sync.',
  async run(ctx) {
    const s = await ctx.core.getStatus();
    const c = s.connection;
    const o = s.outbox;
    ctx.out(
      s,
      [
        c ? `Connected to ${c.baseUrl} as ${c.login} over ${c.binding}.` : 'Not connected.',
        `Outbox: ${o.pending} pending, ${o.unknown} unknown, ${o.undecidable} undecidable, ${o.refused} refused, ${o.conflicts} in conflict, ${o.blocked} blocked.`,
        s.lastSync
          ? `Last sync ${s.lastSync.finishedAt}: ${fmt.summaryText(s.lastSync)}${s.lastSync.error ? ` Error: ${AppError.fromData(s.lastSync.error).message}` : ''}`
          : 'Never synced.',
      ].join('\n'),
    );
  },
});
