/**
 * The service under abuse, run as an operator runs it (its own process, so that its memory is its own):
 * 1,024 connections each sending most of a 1 MiB body and then stalling must not grow it towards a
 * gibibyte (the bodies held at once are capped; past the cap a request gets 503 with Retry-After at
 * once), and it keeps answering another client meanwhile.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_HASH_PARAMS, createDemoData } from '../../src-service';
import { tempDir } from '../support/client';
import { call } from '../support/http';

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
    const sockets: Socket[] = [];
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

      const body = Buffer.alloc(1024 * 1024 - 1, 'a');
      let refused = 0;
      let statuses = '';
      await Promise.all(
        Array.from(
          { length: 1024 },
          () =>
            new Promise<void>((resolve) => {
              // Four addresses: one address may hold a quarter of the connections (server/connection-slots.ts).
              const s = connect({ port: Number(port), host: '127.0.0.1', localAddress: `127.0.0.${1 + (sockets.length % 4)}` });
              sockets.push(s);
              s.on('error', () => resolve());
              s.on('data', (c: Buffer) => {
                statuses += c.toString('latin1', 0, 12);
                if (/^HTTP\/1\.1 503/.test(c.toString('latin1', 0, 12))) refused++;
              });
              s.on('connect', () => {
                s.write(
                  `POST /API/APIservice.asmx HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: ${body.length + 1}\r\n\r\n`,
                );
                // All but the last byte: the service holds what it has read and waits for the rest.
                s.write(body, () => resolve());
              });
            }),
        ),
      );
      // Let the service read what was sent.
      await new Promise((r) => setTimeout(r, 1500));
      const during = residentMiB(child.pid!);
      const started = Date.now();
      const accounts = await call(
        { url, namespace: 'http://tempuri.org/' },
        'soap12',
        'AccountListWithAmount2',
        { clientKey: 'demo', login: 'demo', password: 'demo' },
        {},
      );
      const answeredInMs = Date.now() - started;

      expect(accounts.length).toBeGreaterThan(4);
      expect(answeredInMs).toBeLessThan(5000);
      expect(refused, statuses.slice(0, 200)).toBeGreaterThan(0);
      expect(during, `resident ${during.toFixed(0)} MiB (at start ${before.toFixed(0)} MiB)`).toBeLessThan(300);
    } finally {
      for (const s of sockets) s.destroy();
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 60_000);
});
