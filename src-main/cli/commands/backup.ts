/** `backup`: the whole local copy, outbox included, as one file. */
import { existsSync } from 'node:fs';
import { UsageError } from '../../../src-node/cli';
import { defineCommand } from '../command';
import { writeNew } from '../files';
import * as fmt from '../format';

export const backup = defineCommand({
  name: 'backup',
  summary: 'Writes a backup of the local copy, outbox included; the sealed client key stays out. --force overwrites an existing file.',
  options: {
    to: { type: 'string', value: '<file>', description: 'the backup file to write', required: true },
    force: { type: 'boolean', description: 'overwrite the file if it exists' },
  },
  async run(ctx) {
    const { to, force } = ctx.options;
    if (!force && existsSync(to)) throw new UsageError(`${to} exists; add --force to overwrite it.`);
    const made = await ctx.core.createBackup();
    writeNew(to, Buffer.from(made.data, 'base64'), force);
    ctx.out(
      { file: to, bytes: made.bytes, counts: made.counts },
      `Backup written to ${to} (${made.bytes} bytes): ${fmt.countsText(made.counts)}.`,
    );
  },
});
