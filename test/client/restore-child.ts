/**
 * The process the restore test kills: opens the app core on a local copy and restores a backup into it.
 * Bundled into plain JavaScript by the test to start fast.
 */
import { readFileSync } from 'node:fs';
import { createAppCore } from '../../src-main/core/app/app-core';
import { MemorySecretStore } from '../../src-main/core/secrets';

async function main(): Promise<void> {
  const [dataFile, backupFile] = process.argv.slice(2) as [string, string];
  const data = readFileSync(backupFile);
  const core = createAppCore({ dataFile, secrets: new MemorySecretStore(), timeZone: 'Europe/Prague', log: () => undefined });
  process.stdout.write('go\n');
  await core.restoreBackup({ data });
  process.stdout.write('done\n');
  await core.close();
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
