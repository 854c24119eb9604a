/**
 * The service under abuse, run as an operator runs it (its own process, so that its memory is its own):
 * 1,024 connections each sending most of a 1 MiB body and then stalling must not grow it towards a
 * gibibyte (the bodies held at once are capped; past the cap a request gets 503 with Retry-After at
 * once), and it keeps answering another client meanwhile.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_HASH_PARAMS, createDemoData } from '../../src-service';
import { tempDir } from '../support/client';
import { call } from '../support/http';
import { stallBodies } from '../support/stalled-bodies';
import { until } from '../support/until';

const CLI = join(import.meta.dirname, '../../src-service/cli.ts');
const tmp = tempDir('bookkeeping-abuse-');
afterAll(() => tmp.remove());

/** Resident memory of a process, in MiB (Linux). */
function residentMiB(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
  return kb / 1024;
}

describe.skipIf(process.platform !== 'linux')('memory under abuse', () => {
  it('1,024 connections each holding most of a 1 MiB body: under 300 MB resident, and other clients are still answered', async () => {
    const file = tmp.file('abuse.sqlite');
    createDemoData(file, { hashParams: TEST_HASH_PARAMS });
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--data', file, '--port', '0'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    try {
      const line = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c;
          if (out.includes('\n')) resolve(out.trim());
        });
        child.on('close', () => reject(new Error('serve ended')));
      });
      const url = line.split(' ').pop()!.replace('/API/APIservice.asmx', '');
      const { port } = new URL(url);
      const before = residentMiB(child.pid!);

      const stalled = await stallBodies(Number(port), 1024, 1024 * 1024);
      try {
        // The service has read all that was sent (or refused it): what it holds now is all it will hold.
        await until('the service to read or refuse every body sent', () => stalled.allRead(), { deadlineMs: 30_000, everyMs: 50 });
        const during = residentMiB(child.pid!);
        // Another client is answered meanwhile (how soon: `npm run bench -- abuse`).
        const accounts = await call(
          { url, namespace: 'http://tempuri.org/' },
          'soap12',
          'AccountListWithAmount2',
          { clientKey: 'demo', login: 'demo', password: 'demo' },
          {},
        );
        expect(accounts.length).toBeGreaterThan(4);
        expect(stalled.refused(), stalled.statuses().slice(0, 200)).toBeGreaterThan(0);
        expect(during, `resident ${during.toFixed(0)} MiB (at start ${before.toFixed(0)} MiB)`).toBeLessThan(300);
      } finally {
        stalled.close();
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
