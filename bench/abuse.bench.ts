/**
 * `npm run bench -- abuse [--calls=20]`: how the service answers while 1,024 connections each hold most of a
 * 1 MiB body (test/support/stalled-bodies.ts; past its budget of bodies held at once a request gets 503 at
 * once). The service runs as its own process (`serve` on the demo data); one client calls
 * AccountListWithAmount2 `--calls` times one after another before the abuse and again while it holds,
 * once the kernel says every body sent was read or refused. Prints the median and the slowest answer of
 * each, the ratio, and the service's resident memory before and during (Linux).
 *
 * The test (test/service/abuse.test.ts) checks that the other client is answered and that the memory stays
 * bounded; this, how soon it is answered.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { TEST_HASH_PARAMS, createDemoData } from '../src-service';
import { call, type Target } from '../test/support/http';
import { serveProcess, stopServing } from '../test/support/service-cli';
import { stallBodies } from '../test/support/stalled-bodies';
import { until } from '../test/support/until';

const STALLED = 1024;
const BODY_BYTES = 1024 * 1024;
const DEMO = { clientKey: 'demo', login: 'demo', password: 'demo' };

function option(args: string[], name: string, fallback: number): number {
  const given = args.find((a) => a.startsWith(`--${name}=`));
  const n = given === undefined ? fallback : Number(given.slice(name.length + 3));
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--${name} must be a positive whole number`);
  return n;
}

function residentMiB(pid: number): number {
  return Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

/** `calls` answers one after another; their times in ms, sorted. */
async function answerTimes(target: Target, calls: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const started = performance.now();
    await call(target, 'soap12', 'AccountListWithAmount2', DEMO, {});
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b);
}

const summary = (xs: number[]) => `median ${xs[Math.floor(xs.length / 2)]!.toFixed(1)} ms, slowest ${xs.at(-1)!.toFixed(1)} ms`;

export async function run(args: string[]): Promise<void> {
  if (process.platform !== 'linux') throw new Error('This benchmark reads /proc (Linux).');
  const calls = option(args, 'calls', 20);
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-abuse-bench-'));
  try {
    const file = join(dir, 'abuse.sqlite');
    createDemoData(file, { hashParams: TEST_HASH_PARAMS });
    const serving = await serveProcess(['--data', file]);
    try {
      const pid = serving.child.pid!;
      console.log(`\nThe service under ${STALLED} stalled bodies of 1 MiB (${cpus().length} cores, load ${loadavg()[0]!.toFixed(1)})`);
      // As many answers again first, to warm the service up (its code, its caches, the connection).
      await answerTimes(serving.target, calls);
      const quiet = await answerTimes(serving.target, calls);
      const before = residentMiB(pid);
      const stalled = await stallBodies(Number(new URL(serving.target.url).port), STALLED, BODY_BYTES);
      try {
        await until('the service to read or refuse every body sent', () => stalled.allRead(), { deadlineMs: 60_000, everyMs: 50 });
        const during = residentMiB(pid);
        const abused = await answerTimes(serving.target, calls);
        console.log(`Quiet:         ${summary(quiet)} (${calls} calls)`);
        console.log(`Under abuse:   ${summary(abused)} (${stalled.refused()} of ${STALLED} refused with 503)`);
        const ratio = abused[Math.floor(calls / 2)]! / quiet[Math.floor(calls / 2)]!;
        console.log(`Median under abuse / quiet: ${ratio.toFixed(2)}x`);
        console.log(`Resident memory: ${before.toFixed(0)} MiB before, ${during.toFixed(0)} MiB while the bodies are held`);
      } finally {
        stalled.close();
      }
    } finally {
      await stopServing(serving);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
