/**
 * The command line's sync over a network that fails: its exit code tells "all delivered" (0) from
 * "some refused" (2) from "service unavailable, writes waiting" (3) and "cancelled" (130, Ctrl-C),
 * the waits are told on stderr as they happen, and a cancelled sync loses nothing.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_EXIT } from '../../src-main/cli/exit-codes';
import { runCliOn } from '../support/cli';
import { tempDir } from '../support/client';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { TEST_TIME_ZONE, startTestService, type TestService } from '../support/service';
import { settles } from '../support/until';

let service: TestService;
let proxy: FaultProxy;
const tmp = tempDir('bookkeeping-cli-sync-');
const data = tmp.file('cli.sqlite');
const env = { BOOKKEEPING_PASSWORD: 'demo', BOOKKEEPING_CLIENT_KEY: 'demo' };
const cli = (args: string[]) => runCliOn(data, args, { env });

beforeAll(async () => {
  service = await startTestService({ demo: true });
  proxy = await startFaultProxy({ target: service.url });
  expect((await cli(['connect', '--url', proxy.url, '--login', 'demo'])).code).toBe(0);
  expect((await cli(['sync'])).code).toBe(SYNC_EXIT.delivered);
});
afterAll(async () => {
  await proxy.close();
  await service.close();
  tmp.remove();
});

/** `sync` in a process of its own, once it says it waits for the service (the proxy answers 503). */
async function waitingSyncProcess() {
  const root = join(import.meta.dirname, '../..');
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src-main/cli/main.ts'), 'sync', '--data', data], {
    cwd: root,
    env: { ...process.env, ...env, TZ: TEST_TIME_ZONE },
  });
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (c) => (stdout += c));
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  await settles(
    'the sync to say it waits for the service ("Trying again in")',
    new Promise<void>((resolve) =>
      child.stderr.on('data', (c) => {
        stderr += c;
        if (stderr.includes('Trying again in')) resolve();
      }),
    ),
  );
  return { child, exited, stderr: () => stderr, stdout: () => stdout };
}

const queueTransfer = async (description: string) =>
  expect(
    (await cli(['transfer', '--from', '1', '--to', '2', '--amount', '3', '--date', '2026-09-01T10:00', '--description', description])).code,
  ).toBe(0);

describe('sync exit codes', () => {
  it('3 while the service is unavailable (the waits told on stderr), 2 when it refuses a write, 0 when all is delivered', async () => {
    await queueTransfer('exit codes');
    proxy.choose(() => 'status-503');
    const unavailable = await cli(['sync']);
    expect(unavailable.code).toBe(SYNC_EXIT.unavailable);
    expect(unavailable.err).toMatch(/^The service is unavailable \(HTTP 503 Service Unavailable\)\. Trying again in \d+ s\.\.\.$/m);
    expect(unavailable.err).toMatch(
      /^error: The service is unavailable; 1 write still waiting\. The service is unavailable \(HTTP 503 Service Unavailable\)\./m,
    );
    expect(unavailable.out).toMatch(/1 write still waiting\.$/);
    expect((await cli(['outbox', '--json'])).json()).toMatchObject([{ kind: 'transfer' }]);

    proxy.choose((req) => (req.operation === 'AddTranferToOtherAccount' ? 'client-fault' : 'pass'));
    const refused = await cli(['sync', '--json']);
    expect(refused.code).toBe(SYNC_EXIT.refused);
    expect(refused.json()).toMatchObject({ refused: 1, error: null });

    const [entry] = (await cli(['outbox', '--json'])).json();
    expect((await cli(['outbox', 'retry', String(entry.id)])).code).toBe(0);
    proxy.choose(() => 'pass');
    const delivered = await cli(['sync', '--json']);
    expect(delivered.code).toBe(SYNC_EXIT.delivered);
    expect(delivered.json()).toMatchObject({ pushed: 1, waiting: 0, error: null });
  });

  it('130 on Ctrl-C: the first one cancels the waiting sync cleanly, and the write still waits', async () => {
    await queueTransfer('interrupted');
    proxy.choose(() => 'status-503');
    const sync = await waitingSyncProcess();
    sync.child.kill('SIGINT');
    // Cancelled, not given up on: a sync that let the budget run out would exit with 3 instead.
    expect(await settles('the interrupted sync to exit', sync.exited)).toBe(SYNC_EXIT.cancelled);
    expect(sync.stderr()).toMatch(/Cancelling the sync/);
    expect(sync.stdout()).toMatch(/1 write still waiting\./);
    proxy.choose(() => 'pass');
    const outbox = (await cli(['outbox', '--json'])).json();
    expect(outbox).toHaveLength(1);
    expect(outbox[0]).toMatchObject({ kind: 'transfer' });
    expect(['pending', 'unknown']).toContain(outbox[0].status);
    expect((await cli(['sync'])).code).toBe(SYNC_EXIT.delivered);
  });
});

describe('the sync lock', () => {
  it('a sync whose process was killed (kill -9) holds nothing: the next sync runs at once', async () => {
    await queueTransfer('after a kill');
    proxy.choose(() => 'status-503');
    const { child, exited } = await waitingSyncProcess();
    // While it runs, another sync is refused as busy.
    const busy = await cli(['sync']);
    expect(busy.code).toBe(1);
    expect(busy.err).toMatch(/A sync is already running in another window or command/);
    child.kill('SIGKILL');
    await exited;
    proxy.choose(() => 'pass');
    // Not refused as busy, and no wait for the dead process's lock to go stale: delivered, nothing said on stderr.
    const next = await cli(['sync']);
    expect(next.err).toBe('');
    expect(next.code).toBe(SYNC_EXIT.delivered);
  });
});
