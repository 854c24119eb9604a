/**
 * The process the crash test kills: opens the app core on a local copy and syncs it, printing each
 * progress event, so that the test can kill it at chosen points. Bundled into plain JavaScript by the
 * test to start fast.
 */
import { createAppCore } from '../../src-main/core/app/app-core';
import { MemorySecretStore } from '../../src-main/core/secrets';

async function main(): Promise<void> {
  const dataFile = process.argv[2]!;
  const core = createAppCore({
    dataFile,
    secrets: new MemorySecretStore({ password: process.env.CHILD_PASSWORD!, clientKey: process.env.CHILD_CLIENT_KEY! }),
    timeZone: 'Europe/Prague',
    // A second, as GIVE_UP_MS in test/support/client.ts: held answers are given up on soon, passing ones are not.
    timeoutMs: 1000,
    // Quick tries: the test's proxy faults a fifth of all requests, and rounds must stay short.
    sync: { retry: { attempts: 8, backoffMs: 5, maxBackoffMs: 60 }, unavailableMs: 5000 },
    log: () => undefined,
  });
  core.onEvent((e) => {
    if (e.type === 'sync-progress') process.stdout.write(`${e.phase} ${e.done}/${e.total}\n`);
  });
  process.stdout.write('go\n');
  const summary = await core.sync();
  process.stdout.write(`done ${JSON.stringify(summary)}\n`);
  await core.close();
}

main().catch((e) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exitCode = 1;
});
