/**
 * The Node load generator of the service benchmarks, run as a child process so that it never shares an
 * event loop with the server it measures. It keeps `connections` keep-alive connections busy for a warm-up
 * and then `durationMs`, with one request over and over, or with a seeded random mix of requests drawn by
 * weight; it checks every answer and reports the requests per second and latency percentiles over IPC.
 *
 * It is the fallback where `wrk` (a load generator in C, wrk.ts) is not installed: one Node process needs
 * about as much CPU per request as a bare Node server, so at a bare server's rate it is the limit itself,
 * and such a round is reported as bound by its generator (`generatorLimited`) and not counted.
 */
import { Agent, request } from 'node:http';
import { seededRandom } from '../../src-service/admin/seeded-random';
import { CpuWindow, type CpuTaken } from './cpu-window';

export interface LoadRequest {
  /** Path and query, e.g. /API/APIservice.asmx. */
  path: string;
  headers: Record<string, string>;
  body: string;
  /** How often it is drawn, relative to the others' weights. */
  weight: number;
}

export interface LoadJob {
  /** Origin, e.g. http://127.0.0.1:8080. */
  origin: string;
  /** Several origins instead (instances behind a load balancer): connection k goes to origins[k mod n]. */
  origins?: string[];
  requests: LoadRequest[];
  /** Seed of the draws, so that every server gets the same sequence. */
  seed: number;
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** Expected status; and body length when every answer has the same, or null. */
  expectStatus: number;
  expectBytes: number | null;
  /** A text no answer may contain (a fault element): counted as an error. */
  forbidden?: string;
  /** The measured server's processes (one per instance): their CPU time over the measured window is reported (Linux). */
  serverPids?: number[];
  /** PostgreSQL's postmaster: the CPU of it and its backends over the window is reported as the database's. */
  databasePid?: number;
  /** The local address the connections come from (another loopback address, say, to be another client). */
  localAddress?: string;
}

export interface LoadResult extends CpuTaken {
  /** Which generator made the load: wrk (C) or this Node one. */
  generator: 'wrk' | 'node';
  /** The generator used nearly all the CPU it could (see GENERATOR_LIMIT): the server's rate was not the measure. */
  generatorLimited: boolean;
  requests: number;
  errors: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time the generator itself used, in cores over the measured wall time (near its threads: it was the limit). */
  generatorCpu: number;
  /** The first failed answer (status and its beginning), to say why. */
  firstError: string | null;
}

/** A generator that used this share of the cores it can use (its threads) was the limit of its round. */
export const GENERATOR_LIMIT = 0.9;

async function runJob(job: LoadJob): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const urls = (job.origins ?? [job.origin]).map((o) => new URL(o));
  const prepared = job.requests.map((r) => {
    const body = Buffer.from(r.body);
    return { path: r.path, body, headers: { ...r.headers, 'Content-Length': String(body.length) } };
  });
  // Cumulative weights for drawing.
  const total = job.requests.reduce((sum, r) => sum + r.weight, 0);
  let acc = 0;
  const bounds = job.requests.map((r) => (acc += r.weight / total));
  const random = seededRandom(job.seed);
  const draw = () => {
    const x = random();
    const i = bounds.findIndex((b) => x < b);
    return prepared[i === -1 ? prepared.length - 1 : i]!;
  };
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | null = null;
  let measuring = false;
  let stop = false;

  const forbidden = job.forbidden ? Buffer.from(job.forbidden) : null;
  const one = (url: URL) =>
    new Promise<void>((resolve) => {
      const { path, body, headers } = draw();
      const started = process.hrtime.bigint();
      const req = request(
        {
          agent,
          host: url.hostname,
          port: url.port,
          path,
          method: 'POST',
          headers,
          ...(job.localAddress ? { localAddress: job.localAddress } : {}),
        },
        (res) => {
          let size = 0;
          let bad = false;
          let head = '';
          res.on('data', (c: Buffer) => {
            size += c.length;
            if (head.length < 600) head += c.toString('utf8', 0, 600);
            if (forbidden && c.includes(forbidden)) bad = true;
          });
          res.on('end', () => {
            if (measuring) {
              if (bad || res.statusCode !== job.expectStatus || (job.expectBytes !== null && size !== job.expectBytes)) {
                errors++;
                firstError ??= `HTTP ${res.statusCode}, ${size} B: ${head.slice(0, 600)}`;
              }
              latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
            }
            resolve();
          });
        },
      );
      req.on('error', (e) => {
        if (measuring) {
          errors++;
          firstError ??= e.message;
        }
        resolve();
      });
      req.end(body);
    });

  const loop = async (k: number) => {
    const url = urls[k % urls.length]!;
    while (!stop) await one(url);
  };
  const loops = Array.from({ length: job.connections }, (_, k) => loop(k));
  await new Promise((r) => setTimeout(r, job.warmupMs));
  measuring = true;
  const cpu0 = process.cpuUsage();
  const window = new CpuWindow(job.serverPids ?? [], job.databasePid);
  await new Promise((r) => setTimeout(r, job.durationMs));
  measuring = false;
  const cpu = process.cpuUsage(cpu0);
  const requests = latencies.length;
  const taken = window.end(requests);
  const seconds = taken.seconds;
  const generatorCpu = (cpu.user + cpu.system) / 1e6 / seconds;
  stop = true;
  await Promise.all(loops);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? NaN;
  return {
    ...taken,
    generator: 'node',
    generatorLimited: generatorCpu >= GENERATOR_LIMIT,
    requests,
    errors,
    rps: requests / seconds,
    p50Ms: pct(50),
    p99Ms: pct(99),
    generatorCpu,
    firstError,
  };
}

// Run as a child process (the benchmarks fork it): the job comes over IPC, the result goes back.
if (process.send !== undefined) {
  // The benchmark gone (failed, interrupted): nobody is left to read the result.
  process.on('disconnect', () => process.exit(1));
  process.on('message', (job: LoadJob) => {
    runJob(job).then(
      (result) => process.send!(result, () => process.exit(0)),
      (e: unknown) => {
        console.error(e);
        process.exit(1);
      },
    );
  });
}
