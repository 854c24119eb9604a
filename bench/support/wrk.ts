/**
 * Load made by `wrk` (a load generator in C: epoll, one thread per core it is given), where it is
 * installed. A Node generator needs about as much CPU per request as the bare Node server it measures,
 * so it was the limit of the bare server's rounds; wrk needs a fraction of that (about 15 us of CPU per
 * request here), so the servers are what is measured.
 *
 * The mix is drawn in Node, by the job's weights and seed (the same sequence for every server), into
 * PREPARED requests written ready to send; wrk's script (wrk-requests.lua) sends them in that order, over
 * and over, and checks every answer as the Node generator does: a status other than 2xx, a body holding the
 * job's forbidden text (a SOAP fault) or of another size than the job expects is an error, counted and the
 * first one shown. wrk has no warm-up of its own: a run of its own, not measured, comes first.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { seededRandom } from '../../src-service/admin/seeded-random';
import { CpuWindow } from './cpu-window';
import { GENERATOR_LIMIT, type LoadJob, type LoadRequest, type LoadResult } from './load-generator';
import { CLOCK_TICKS } from './process-cpu';

/** Requests drawn for a round: enough that no pattern of a few dozen repeats within a window. */
const PREPARED = 4000;
const SCRIPT = join(import.meta.dirname, 'wrk-requests.lua');

/** wrk's path on PATH, or undefined where it is not installed. */
export function findWrk(env: NodeJS.ProcessEnv = process.env): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, 'wrk'))) return join(dir, 'wrk');
  }
  return undefined;
}

/** What wrk-requests.lua prints when wrk is done. */
interface WrkSummary {
  requests: number;
  durationUs: number;
  p50Us: number;
  p99Us: number;
  connect: number;
  read: number;
  write: number;
  /** Answers of status >= 400 by wrk's own count (non2xx counts them too). */
  status: number;
  timeout: number;
  non2xx: number;
  faults: number;
  wrongSize: number;
  firstWrong: string;
  cpuTicks: number;
}

/** The job's requests drawn by weight (seeded), each written as HTTP/1.1 ready to send, in the script's file format. */
function preparedRequests(job: LoadJob): Buffer {
  const total = job.requests.reduce((sum, r) => sum + r.weight, 0);
  let acc = 0;
  const bounds = job.requests.map((r) => (acc += r.weight / total));
  const random = seededRandom(job.seed);
  const host = new URL(job.origins?.[0] ?? job.origin).host;
  const raw = new Map<LoadRequest, Buffer>();
  const wire = (r: LoadRequest) => {
    const body = Buffer.from(r.body);
    const headers = Object.entries(r.headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    const head = `POST ${r.path} HTTP/1.1\r\nHost: ${host}\r\n${headers}Content-Length: ${body.length}\r\n\r\n`;
    return Buffer.concat([Buffer.from(head), body]);
  };
  const parts: Buffer[] = [];
  for (let i = 0; i < PREPARED; i++) {
    const x = random();
    const at = bounds.findIndex((b) => x < b);
    const r = job.requests[at === -1 ? job.requests.length - 1 : at]!;
    let bytes = raw.get(r);
    if (bytes === undefined) raw.set(r, (bytes = wire(r)));
    parts.push(Buffer.from(`${bytes.length}\n`), bytes);
  }
  return Buffer.concat(parts);
}

/** One run of wrk for `seconds` (whole seconds: wrk takes no less); its summary, or a rejection saying why not. */
function runOnce(wrk: string, job: LoadJob, file: string, seconds: number): Promise<WrkSummary> {
  const origins = job.origins ?? [job.origin];
  const threads = origins.length;
  const args = ['-t', String(threads), '-c', String(Math.max(job.connections, threads)), '-d', `${seconds}s`, '--timeout', '10s'];
  const child = spawn(wrk, [...args, '-s', SCRIPT, origins[0]!, '--', file], {
    env: {
      ...process.env,
      BENCH_ORIGINS: origins.map((o) => new URL(o).host).join(','),
      BENCH_FORBIDDEN: job.forbidden ?? '',
      BENCH_BYTES: job.expectBytes === null ? '' : String(job.expectBytes),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      const line = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
      if (code !== 0 || line === undefined) return reject(new Error(`wrk ended with ${code}: ${stderr.trim() || stdout.trim()}`));
      resolve(JSON.parse(line) as WrkSummary);
    });
  });
}

/** The job's load by wrk: a warm-up run, then the measured one, with the servers' (and PostgreSQL's) CPU over it. */
export async function runWrk(wrk: string, job: LoadJob): Promise<LoadResult> {
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-wrk-'));
  try {
    const file = join(dir, 'requests');
    writeFileSync(file, preparedRequests(job));
    if (job.warmupMs > 0) await runOnce(wrk, job, file, Math.ceil(job.warmupMs / 1000));
    const window = new CpuWindow(job.serverPids ?? [], job.databasePid);
    const summary = await runOnce(wrk, job, file, Math.max(1, Math.round(job.durationMs / 1000)));
    const taken = window.end(summary.requests);
    const seconds = summary.durationUs / 1e6;
    // From wrk's start to its end (its script's init, its connections): a little more than the window, never less.
    const generatorCpu = summary.cpuTicks < 0 ? NaN : summary.cpuTicks / CLOCK_TICKS / seconds;
    const threads = (job.origins ?? [job.origin]).length;
    const kinds = {
      'answers not 2xx': summary.non2xx,
      [`answers holding ${job.forbidden ?? 'a forbidden text'}`]: summary.faults,
      'answers of another size': summary.wrongSize,
      'connect errors': summary.connect,
      'read errors': summary.read,
      'write errors': summary.write,
      timeouts: summary.timeout,
    };
    const errors = Object.values(kinds).reduce((a, b) => a + b, 0);
    const described =
      Object.entries(kinds)
        .filter(([, n]) => n > 0)
        .map(([what, n]) => `${n} ${what}`)
        .join(', ') + (summary.firstWrong === '' ? '' : `; the first: ${summary.firstWrong}`);
    return {
      ...taken,
      generator: 'wrk',
      generatorLimited: generatorCpu >= GENERATOR_LIMIT * threads,
      requests: summary.requests,
      errors,
      rps: summary.requests / seconds,
      p50Ms: summary.p50Us / 1000,
      p99Ms: summary.p99Us / 1000,
      generatorCpu,
      firstError: errors === 0 ? null : described,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
