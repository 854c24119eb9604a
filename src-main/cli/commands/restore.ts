/** `restore`: replaces the local copy with a backup. */
import { defineCommand } from '../command';
import { readLimited } from '../files';
import * as fmt from '../format';
import { MAX_BACKUP_FILE_BYTES } from '../values';

export const restore = defineCommand({
  name: 'restore',
  summary: "Replaces the local copy, outbox included, with a backup (the connection's client key and password stay as they are).",
  options: { from: { type: 'string', value: '<file>', description: 'the backup file', required: true } },
  async run(ctx) {
    const bytes = readLimited(ctx.options.from, MAX_BACKUP_FILE_BYTES, 'a backup');
    const result = await ctx.core.restoreBackup({ data: bytes });
    const uncertain = result.uncertainWrites
      ? `\n${result.uncertainWrites} write(s) may have reached the service since the backup: see "outbox", check the service, then retry or discard each.`
      : '';
    ctx.out(
      result,
      `Restored${result.backedUpAt ? ` the backup of ${result.backedUpAt.replace('T', ' ')}` : ''}: ${fmt.countsText(result.counts)}.${uncertain}`,
    );
  },
});
