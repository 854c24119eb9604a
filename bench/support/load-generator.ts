/**
 * The load generator of the service benchmark, run as a child process so that it never shares an event
 * loop with the server it measures. It keeps `connections` keep-alive connections busy with the same
 * request for a warm-up and then `durationMs`, checks every answer's status and size, and reports the
 * requests per second and latency percentiles over IPC.
 */
import { Agent, request } from 'node:http';

export interface LoadJob {
  url: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  warmupMs: number;
  durationMs: number;
  /** Expected status and body length; anything else counts as an error. */
  expectStatus: number;
  expectBytes: number;
}

export interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** CPU time the generator itself used, as a share of the measured wall time (near 1: it was the limit). */
  generatorCpu: number;
}

async function runJob(job: LoadJob): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: job.connections });
  const url = new URL(job.url);
  const body = Buffer.from(job.body);
  const headers = { ...job.headers, 'Content-Length': String(body.length) };
  const latencies: number[] = [];
  let errors = 0;
  let measuring = false;
  let stop = false;

  const one = () =>
    new Promise<void>((resolve) => {
      const started = process.hrtime.bigint();
      const req = request(
        { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method: 'POST', headers },
        (res) => {
          let size = 0;
          res.on('data', (c: Buffer) => (size += c.length));
          res.on('end', () => {
            if (measuring) {
              if (res.statusCode !== job.expectStatus || size !== job.expectBytes) errors++;
              latencies.push(Number(process.hrtime.bigint() - started) / 1e6);
            }
            resolve();
          });
        },
      );
      req.on('error', () => {
        if (measuring) errors++;
        resolve();
      });
      req.end(body);
    });

  const loop = async () => {
    while (!stop) await one();
  };
  const loops = Array.from({ length: job.connections }, loop);
  await new Promise((r) => setTimeout(r, job.warmupMs));
  measuring = true;
  const cpu0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  await new Promise((r) => setTimeout(r, job.durationMs));
  measuring = false;
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const cpu = process.cpuUsage(cpu0);
  const generatorCpu = (cpu.user + cpu.system) / 1e6 / seconds;
  const requests = latencies.length;
  stop = true;
  await Promise.all(loops);
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((latencies.length * p) / 100))] ?? NaN;
  return { requests, errors, seconds, rps: requests / seconds, p50Ms: pct(50), p99Ms: pct(99), generatorCpu };
}

process.on('message', (job: LoadJob) => {
  runJob(job).then(
    (result) => process.send!(result, () => process.exit(0)),
    (e: unknown) => {
      console.error(e);
      process.exit(1);
    },
  );
});
