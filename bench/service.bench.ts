/**
 * Service throughput over SOAP 1.2 with keep-alive, from concurrent connections of a load generator in a
 * separate process, measured side by side in one run (rounds interleave the servers, so that a busy
 * moment of the machine hits them alike). Every server runs in a fresh process of its own, started
 * before the first round: no server shares a heap, a garbage collector or an event loop with another
 * server, the load generator (a fresh process per measurement) or this orchestrating process, which
 * measures nothing itself.
 *
 * The headline is **the mix**: 20 users with 10 accounts of 60 transactions each; every request is drawn
 * (seeded, the same sequence for every server) from 45% AccountListWithAmount2 of a random user, 45%
 * TransactionListLast50_2 of a random account of that user, 10% AddTranferToOtherAccount between two of
 * the user's accounts, each with the user's own credentials. Servers:
 *
 * - ours, run as an operator runs it (`npm run service -- serve`, the command line in a process of its
 *   own), and "ours uncached" (`startService` with the same options but its cache of answers off: every
 *   request parsed, verified, queried and written);
 * - a bare Node HTTP server that reads the request and answers one recorded response of the mix's mean
 *   size (the ceiling: HTTP alone, no XML, no database);
 * - the `soap` package's own server on our WSDL, its handlers calling the same operation code on the same
 *   data file (so the difference is the SOAP machinery; it skips the password check, which flatters it).
 *
 * The identical-request figure of earlier versions (one account list asked over and over) is kept as
 * "cached best case": a response cache answers nearly all of it.
 *
 * The load comes from outside the servers: wrk (a generator in C, bench/support/wrk.ts) where it is
 * installed, else the Node generator (bench/support/load-generator.ts), each a fresh process per
 * measurement. A round whose generator used nearly all the CPU it could is marked GENERATOR-BOUND and not
 * counted: the server was not the limit (a Node generator is, at a bare server's rate). Beside every rate
 * stands the server's CPU per request (its process, all threads, over the window): the headline of ours vs
 * bare, since it depends far less than a rate on who gets which core of a shared machine. It does depend
 * on the server's own rate (see `pacedRound`), so on the mix the bare server is measured again, paced to
 * ours' rate (plain, and writing its answers at the end of the event loop's turn as ours writes those of
 * reads), and ours is compared with its own cost there too.
 *
 * Options: --seconds=<n> per measurement (default 3, whole seconds with wrk), --rounds=<n> (default 3),
 * --connections=<n> (default 32), --only=mix|transfers|cached, --generator=wrk|node; --baseline=<checkout>
 * also measures ours as served by another checkout of the project (its `src-service/cli.ts`, e.g. the
 * commit before a change; give it a node_modules) as "ours baseline", in the same rounds, and prints its
 * ratio to ours; with --paired, ours and the baseline alone are measured AT THE SAME TIME, each on a copy
 * of the data of its own and loaded by a wrk of its own, round after round (--rounds, default 8), and the
 * median of the rounds' ratios of CPU per request is the figure: what else runs on a shared machine then
 * hits both alike (rounds one after the other moved by +-20% under a load average of 5 and more, more
 * than a change of a few per cent); --first-minute instead measures the mix on a service just started, in six windows of 10 s
 * from its first request on. For profiling (--paired too): --cpu-prof=<dir> writes V8 CPU profiles of every server
 * process into <dir>/<server> when it stops; --server-flags=<flag>,<flag> gives every server process these
 * Node flags (e.g. --perf-basic-prof for `perf record -p <pid>`; the pids are printed). Of the counted
 * rounds of each server, the best rate and the least CPU per request count: other work on the machine only
 * ever slows a round down.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { addClient, addUser, createDemoData } from '../src-service';
import { onFile } from '../src-service/admin/on-file';
import { accountFor, contextOf } from '../src-service/admin/operator';
import { seededRandom } from '../src-service/admin/seeded-random';
import { bookTransaction } from '../src-service/operations/transactions';
import { type OperationName } from '../src-shared/catalog';
import { SERVICE_PATH, buildRequest, type WireRequest } from '../src-shared/wire';
import { counted, cpuText, generatorNote, generatorOf, generatorText, load, type Generator } from './support/load';
import type { LoadJob, LoadRequest, LoadResult } from './support/load-generator';
import { processCpuSeconds } from './support/process-cpu';
import type { Pace, ServerJob } from './support/server-process';

const TIME_ZONE = 'Europe/Prague';
const USERS = 20;
const ACCOUNTS_PER_USER = 10;
const TRANSACTIONS_PER_ACCOUNT = 60;
const TRANSFERS_PER_USER = 8;
const CLIENT_KEY = 'bench';
const PASSWORD = 'bench-password';
const CLI = join(import.meta.dirname, '..', 'src-service', 'cli.ts');
const NAMESPACE = 'http://tempuri.org/';

/** `--name=value` (the runner takes every bare word for a benchmark name). */
export function option(args: string[], name: string, fallback: number): number {
  const given = args.find((a) => a.startsWith(`--${name}=`));
  const n = given === undefined ? fallback : Number(given.slice(name.length + 3));
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${name} must be a positive number`);
  return n;
}

export function textOption(args: string[], name: string): string | undefined {
  return args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
}

/**
 * Sends the request once on a connection of its own, from `localAddress` when given (a loopback address
 * of its own: users who log in at once come from addresses of their own, whose verifications take turns
 * with each other, not behind each other), and returns the answer's status, size and text.
 */
export function probe(base: string, req: WireRequest, localAddress?: string): Promise<{ status: number; bytes: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const sent = request(
      {
        host: url.hostname,
        port: url.port,
        path: req.path,
        method: req.method,
        headers: req.headers,
        agent: false,
        ...(localAddress === undefined ? {} : { localAddress }),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const bytes = Buffer.concat(chunks);
          resolve({ status: res.statusCode!, bytes: bytes.length, body: bytes.toString('utf8') });
        });
        res.on('error', reject);
      },
    );
    sent.on('error', reject);
    sent.end(req.body);
  });
}

/** The loopback address user `u` of the mix calls from when the users come at once (see probe). */
export const userAddress = (u: number) => `127.0.0.${10 + u}`;

/** A measured server: a process of its own, stopped with SIGTERM (it then exits 0 and writes any profile). */
interface ServerProcess {
  url: string;
  pid: number;
  stop: () => Promise<void>;
  /** A paced bare server's busy wait per request, set (and answered) over IPC. */
  pace?: (spinUs: number) => Promise<void>;
}

/** Node flags of every server process: `--server-flags=a,b` and `--cpu-prof=<dir>` (a profile per server). */
interface ServerFlags {
  extra: string[];
  profileDir: string | undefined;
}

function nodeFlags(flags: ServerFlags, name: string): string[] {
  // A folder per server: tsx's loader thread writes a profile of its own beside the main thread's.
  const profile = flags.profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(flags.profileDir, name.replaceAll(' ', '-'))}`] : [];
  return ['--import', 'tsx', ...flags.extra, ...profile];
}

function stopper(child: ChildProcess, name: string): () => Promise<void> {
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  return async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
    if (child.exitCode !== 0 && child.exitCode !== null) console.log(`  (${name} ended with exit code ${child.exitCode})`);
  };
}

/**
 * Ours as an operator runs it: the command line's `serve` on the data file, ready once it prints its
 * address; `cli` is another checkout's command line for `--baseline`.
 */
function serveOurs(dataFile: string, flags: ServerFlags, name: string, cli = CLI): Promise<ServerProcess> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [...nodeFlags(flags, name), cli, 'serve', '--data', dataFile, '--port', '0', '--time-zone', TIME_ZONE],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let stdout = '';
    const failed = (code: number | null) => reject(new Error(`serve ended (${code}) before listening`));
    child.once('exit', failed);
    child.stdout.on('data', (c: Buffer) => {
      stdout += c;
      const m = /listening on (\S+)\/API\/APIservice\.asmx\n/.exec(stdout);
      if (m) {
        child.off('exit', failed);
        resolve({ url: m[1]!, pid: child.pid!, stop: stopper(child, name) });
      }
    });
  });
}

/** Another server of the benchmark (bench/support/server-process.ts) in a process of its own. */
function startServer(job: ServerJob, flags: ServerFlags, name: string): Promise<ServerProcess> {
  const child = fork(join(import.meta.dirname, 'support', 'server-process.ts'), [], {
    execArgv: nodeFlags(flags, name),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    const failed = (code: number | null) => reject(new Error(`${name} ended (${code}) before listening`));
    child.once('exit', failed);
    child.once('message', (m) => {
      child.off('exit', failed);
      const pace = (spinUs: number) =>
        new Promise<void>((set) => {
          child.once('message', () => set());
          child.send({ spinUs } satisfies Pace);
        });
      const paced = job.kind === 'bare' && job.paced === true;
      resolve({ url: (m as { url: string }).url, pid: child.pid!, stop: stopper(child, name), ...(paced ? { pace } : {}) });
    });
    child.send(job);
  });
}

export interface MixData {
  requests: { operation: OperationName; req: WireRequest; weight: number }[];
  /** One call per user that is never answered from a cache (CategoryTree): each verifies its user's credentials. */
  touches: WireRequest[];
}

/** The users, accounts and transactions of the mix, and the drawn requests' pool. */
export function seedMix(dataFile: string, namespace: string): MixData {
  const random = seededRandom(20261125);
  addClient(dataFile, CLIENT_KEY, 'benchmark');
  const requests: MixData['requests'] = [];
  const accountsOf: number[][] = [];
  for (let u = 0; u < USERS; u++) {
    const login = `bench${u + 1}`;
    // The service's real password hash: verified once per user, then from its verification cache.
    addUser(dataFile, login, PASSWORD);
    accountsOf.push(
      onFile(dataFile, function* (store) {
        const ctx = yield* contextOf(store, login, TIME_ZONE);
        const ids: number[] = [];
        for (let a = 0; a < ACCOUNTS_PER_USER; a++) {
          const id = yield* accountFor(ctx, { name: `Account ${a + 1}`, currency: 203 });
          ids.push(id);
          for (let t = 0; t < TRANSACTIONS_PER_ACCOUNT; t++) {
            const day = 1 + Math.floor(random() * 28);
            const month = 1 + Math.floor(random() * 10);
            yield* bookTransaction(ctx, {
              accountId: id,
              amount: ((random() < 0.3 ? 1 : -1) * (1 + Math.floor(random() * 500000))) / 100,
              paymentDate: `2026-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}T${String(7 + Math.floor(random() * 13)).padStart(2, '0')}:15:00`,
              description: `Purchase ${Math.floor(random() * 1e6)}`,
            });
          }
        }
        return ids;
      }),
    );
  }
  const credentialsOf = (u: number) => ({ clientKey: CLIENT_KEY, login: `bench${u + 1}`, password: PASSWORD });
  const touches = Array.from({ length: USERS }, (_, u) =>
    buildRequest('soap12', { operation: 'CategoryTree', credentials: credentialsOf(u), params: {} }, namespace),
  );
  for (let u = 0; u < USERS; u++) {
    const credentials = credentialsOf(u);
    const accounts = accountsOf[u]!;
    requests.push({
      operation: 'AccountListWithAmount2',
      req: buildRequest('soap12', { operation: 'AccountListWithAmount2', credentials, params: {} }, namespace),
      weight: 0.45 / USERS,
    });
    for (const id of accounts) {
      requests.push({
        operation: 'TransactionListLast50_2',
        req: buildRequest('soap12', { operation: 'TransactionListLast50_2', credentials, params: { AccountId: id } }, namespace),
        weight: 0.45 / (USERS * accounts.length),
      });
    }
    for (let k = 0; k < TRANSFERS_PER_USER; k++) {
      const source = accounts[Math.floor(random() * accounts.length)]!;
      let target = accounts[Math.floor(random() * accounts.length)]!;
      if (target === source) target = accounts[(accounts.indexOf(source) + 1) % accounts.length]!;
      const params = {
        Amount: (1 + Math.floor(random() * 100000)) / 100,
        Description: `Transfer ${k}`,
        Id_SourceAccount: source,
        Id_TargetAccount: target,
        Id_Category: 0,
        PaymentDate: '2026-11-20T10:00:00',
      };
      requests.push({
        operation: 'AddTranferToOtherAccount',
        req: buildRequest('soap12', { operation: 'AddTranferToOtherAccount', credentials, params }, namespace),
        weight: 0.1 / (USERS * TRANSFERS_PER_USER),
      });
    }
  }
  return { requests, touches };
}

interface Row {
  workload: string;
  server: string;
  round: number;
  result: LoadResult;
  /** The paced bare server's busy wait per request in this round. */
  spinUs?: number;
}

const SERVERS = ['ours', 'ours uncached', 'bare node', 'soap package'] as const;
/** `--baseline=<checkout>`: ours as another checkout of the project serves (an earlier commit), beside this one. */
const BASELINE = 'ours baseline';
type ServerName = (typeof SERVERS)[number] | typeof BASELINE;
/** The bare server paced to ours' rate (on the mix, where the goals are): see `pacedRound`. */
const PACED = "bare at ours' rate";
/** The same, its answers written at the end of the event loop's turn, as ours writes those of reads (answer.ts). */
const PACED_AT_TURN_END = 'same, at turn end';
type PacedName = typeof PACED | typeof PACED_AT_TURN_END;

/** A paced server's busy wait per request and the server's time per request it made (1 s / req/s), measured. */
interface PacePoint {
  spinUs: number;
  us: number;
}

/**
 * A server's CPU per request is not one figure: it grows as its rate falls. At a lower rate an answer
 * more often finds the generator asleep and wakes it (the kernel's wake-up, counted in the sending
 * process's system time: in `perf` of the bare server, `sock_def_readable`'s unlock went from 2.5 us a
 * request at 41,000 req/s to 9 us at 10,000), and each turn of the event loop serves fewer requests. The
 * bare server's 26 us per request at its own rate was 43 us of its own beside a busy wait of 60 us that held
 * it at ours' rate, so "ours vs bare" at bare's rate counts against ours what any server pays at ours' rate.
 * So the bare server is measured again, paced to ours' rate of the same round by a busy wait before each
 * answer; its own cost there is its CPU per request less the wait. The wait is found by probes of 2 s (not
 * counted) until the paced rate is within 5% of ours' (at most four, each by the secant through the last
 * two points measured, this round's or an earlier one's: the server's time per request grows faster than
 * its wait, since its own cost grows as its rate falls).
 */
async function pacedRound(o: {
  paced: ServerProcess;
  points: PacePoint[];
  ours: LoadResult;
  bare: LoadResult | undefined;
  job: LoadJob;
  generator: Generator;
}): Promise<{ result: LoadResult; spinUs: number }> {
  const { paced, points, job, generator } = o;
  const targetUs = 1e6 / o.ours.rps;
  const measure = async (spinUs: number, durationMs: number) => {
    await paced.pace!(spinUs);
    const result = await load({ ...job, durationMs }, generator);
    points.push({ spinUs, us: 1e6 / result.rps });
    return result;
  };
  const near = (p: PacePoint | undefined) => p !== undefined && Math.abs(p.us / targetUs - 1) <= 0.05;
  const nextSpin = () => {
    const [a, b] = points.slice(-2);
    if (b === undefined) return Math.max(0, targetUs - 1e6 / (o.bare?.rps ?? 4 * o.ours.rps));
    const slope = a === undefined || a.spinUs === b.spinUs ? 1 : (b.us - a.us) / (b.spinUs - a.spinUs);
    return Math.max(0, b.spinUs + (targetUs - b.us) / (slope > 0.5 ? slope : 1));
  };
  for (let probe = 0; probe < 4 && !near(points.at(-1)); probe++) await measure(nextSpin(), 2000);
  const spinUs = near(points.at(-1)) ? points.at(-1)!.spinUs : nextSpin();
  return { result: await measure(spinUs, job.durationMs), spinUs };
}

interface Workload {
  name: string;
  requests: LoadRequest[];
  /** Per server: the answer size every answer has, or null when they vary. */
  bytes: Record<(typeof SERVERS)[number], number | null>;
}

/**
 * Between its measurements a server sits idle for half a minute and more, and a password verification
 * lasts 60 s (renewed in the background once 45 s old, when used): measured in bursts, our servers would
 * meet the verifications of all 20 users running out together, or 20 renewals (scrypt) at once, inside
 * some measured windows and not in others, a pattern no steady client makes. So before every
 * measurement, of every server alike, each user of the mix calls the server once (CategoryTree, which
 * no cache answers, so our servers verify the credentials; the soap package, which has no such
 * operation, faults) and the benchmark waits until the server's process is idle (under 5% of a core for
 * 200 ms, at most 30 s): renewals due happen before the window. A touch told to try again (503: the
 * verifications crowded) is sent again once the server is idle. The wait was at most 5 s, and with 20
 * renewals due (verifications 47-55 s old, as the gaps of the stores benchmark with a baseline make them)
 * stopped at 5.1 s with renewals still running (one at a time, a quarter of a second of a core or more
 * each; settling till idle took 5.3-6.1 s on PostgreSQL), so their scrypt ran inside the measured window.
 * In steady use, renewals cost one scrypt per user per 45 s (20 users: about 2 s of one core per 45 s,
 * spread out); the windows leave that out, as they leave out any moment of other work.
 */
export async function settle(url: string, pid: number, users: WireRequest[]): Promise<void> {
  const deadline = performance.now() + SETTLE_MS;
  let pending = users.map((req, u) => ({ req, u }));
  while (pending.length > 0) {
    const answers = await Promise.all(pending.map((p) => probe(url, p.req, userAddress(p.u))));
    pending = pending.filter((_, i) => answers[i]!.status === 503);
    await idle(pid, deadline);
    if (pending.length > 0 && performance.now() > deadline) {
      throw new Error(`${url}: ${pending.length} users' calls were still told to try again after ${SETTLE_MS / 1000} s of settling`);
    }
  }
}

const SETTLE_MS = 30_000;

/** Waits until the process has used under 5% of a core for 200 ms, or the deadline has passed. */
async function idle(pid: number, deadline: number): Promise<void> {
  let before = processCpuSeconds(pid);
  while (performance.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    const now = processCpuSeconds(pid);
    if (now === null || before === null || now - before < 0.2 * 0.05) return;
    before = now;
  }
}

const asLoad = (req: WireRequest, weight: number): LoadRequest => ({ path: req.path, headers: req.headers, body: req.body, weight });

/** One measurement's line: rate, latency, the server's CPU per request, the generator's CPU. */
function resultLine(r: LoadResult): string {
  return (
    `${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50Ms.toFixed(2).padStart(6)} ms  p99 ${r.p99Ms.toFixed(2).padStart(6)} ms  ` +
    `${cpuText(r)}  ${generatorText(r)}` +
    (r.errors ? `  ${r.errors} ERRORS, the first: ${r.firstError}` : '')
  );
}

/**
 * `--first-minute`: the mix on a service just started, nothing asked before, measured from the first
 * request on in six windows of 10 s (each login's first call costs one scrypt, inside the first window).
 */
async function firstMinute(dataFile: string, mix: MixData, connections: number, flags: ServerFlags, generator: Generator): Promise<void> {
  const service = await serveOurs(dataFile, flags, 'ours first minute');
  console.log(
    `First minute after start: the mix, ${connections} connections, from the first request on (no warm-up window); ours in process ${service.pid}; ${generatorNote(generator)}.`,
  );
  try {
    const requests = mix.requests.map((r) => asLoad(r.req, r.weight));
    const all: number[] = [];
    for (let window = 0; window < 6; window++) {
      const r = await load(
        {
          origin: service.url,
          requests,
          seed: 2000 + window,
          connections,
          warmupMs: 0,
          durationMs: 10_000,
          expectStatus: 200,
          expectBytes: null,
          forbidden: 'Fault>',
          serverPids: [service.pid],
        },
        generator,
      );
      all.push(r.p99Ms);
      console.log(
        `  ${String(window * 10).padStart(2)}-${window * 10 + 10} s ${resultLine(r)}  max window p99 so far ${Math.max(...all).toFixed(2)} ms`,
      );
    }
  } finally {
    await service.stop();
  }
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/**
 * `--paired --baseline=<checkout>`: ours and the baseline on two copies of the mix's data (seeded alike),
 * loaded at once, one wrk each, with the same drawn requests; per round both rates and CPU per request and
 * their ratio, then the median ratio over the counted rounds.
 */
async function paired(o: {
  files: [string, string];
  mix: MixData;
  baselineDir: string;
  rounds: number;
  seconds: number;
  flags: ServerFlags;
}) {
  const { mix, files, flags } = o;
  const generator = generatorOf([]);
  if (generator.name !== 'wrk') throw new Error('--paired needs wrk: two Node generators would be the limit');
  const ours = await serveOurs(files[0], flags, 'ours');
  const base = await serveOurs(files[1], flags, BASELINE, join(resolve(o.baselineDir), 'src-service', 'cli.ts'));
  console.log(
    `Paired: the mix on ours (process ${ours.pid}) and ours baseline (${base.pid}, serve of ${o.baselineDir}) at the same time, ` +
      `each on its own copy of the data, ${o.rounds} rounds of ${o.seconds} s.`,
  );
  const requests = mix.requests.map((r) => asLoad(r.req, r.weight));
  const ratios: number[] = [];
  try {
    for (let round = 1; round <= o.rounds; round++) {
      for (const server of [ours, base]) await settle(server.url, server.pid, mix.touches);
      const job = (server: ServerProcess) => ({
        ...{ origin: server.url, requests, seed: 1000 + round, connections: 32, warmupMs: 1000, durationMs: o.seconds * 1000 },
        ...{ expectStatus: 200, expectBytes: null, forbidden: 'Fault>', serverPids: [server.pid] },
      });
      const [a, b] = await Promise.all([load(job(ours), generator), load(job(base), generator)]);
      const ok = counted(a) && counted(b) && a.serverCpuUsPerRequest !== null && b.serverCpuUsPerRequest !== null;
      if (ok) ratios.push(a.serverCpuUsPerRequest! / b.serverCpuUsPerRequest!);
      console.log(`  round ${round}  ours           ${resultLine(a)}`);
      console.log(`  round ${round}  ours baseline  ${resultLine(b)}` + (ok ? `  ours/baseline CPU ${ratios.at(-1)!.toFixed(3)}` : ''));
      if (a.errors || b.errors) process.exitCode = 1;
    }
  } finally {
    await Promise.all([ours.stop(), base.stop()]);
  }
  if (ratios.length === 0) return console.log('No round counted: no ratio.');
  console.log(
    `\nOurs/baseline server CPU per request, paired: median ${median(ratios).toFixed(3)} over ${ratios.length} counted rounds ` +
      `(${ratios.map((r) => r.toFixed(2)).join(' ')}).`,
  );
}

/** The counted rounds of a server on a workload: the best rate, and the least CPU per request (the least disturbed). */
interface Summary {
  best: LoadResult;
  cpuUs: number | null;
  counted: number;
  rounds: number;
}

function summarize(rows: Row[], workload: string, server: string): Summary | undefined {
  const all = rows.filter((r) => r.workload === workload && r.server === server).map((r) => r.result);
  const usable = all.filter(counted);
  if (usable.length === 0) return undefined;
  const cpus = usable.map((r) => r.serverCpuUsPerRequest).filter((v): v is number => v !== null);
  return {
    best: usable.reduce((a, b) => (b.rps > a.rps ? b : a)),
    cpuUs: cpus.length === 0 ? null : Math.min(...cpus),
    counted: usable.length,
    rounds: all.length,
  };
}

const verdict = (ok: boolean, goal: boolean) => (goal ? (ok ? ' ok' : ' MISSED') : '');

/** The headline of a workload: ours against bare node (server CPU per request first), the soap package, the baseline. */
function printRatios(rows: Row[], workload: string): void {
  const of = (server: string) => summarize(rows, workload, server);
  const [ours, raw, bare, soapPkg, base] = [of('ours'), of('ours uncached'), of('bare node'), of('soap package'), of(BASELINE)];
  const goals = workload === 'mix';
  if (!ours || !bare) {
    console.log(`  ${workload.padEnd(17)} no counted round of ${ours ? 'bare node' : 'ours'}: no ratio`);
    return;
  }
  const cpuRatio = ours.cpuUs !== null && bare.cpuUs !== null ? ours.cpuUs / bare.cpuUs : NaN;
  const toBare = ours.best.rps / bare.best.rps;
  console.log(
    `  ${workload.padEnd(17)} server CPU per request: ours ${ours.cpuUs?.toFixed(0)} us, bare ${bare.cpuUs?.toFixed(0)} us at its own rate: ` +
      `${cpuRatio.toFixed(2)}x${verdict(cpuRatio <= 2, goals)}` +
      (raw?.cpuUs ? `; uncached ${raw.cpuUs.toFixed(0)} us (${(raw.cpuUs / bare.cpuUs!).toFixed(2)}x)` : ''),
  );
  console.log(
    `  ${''.padEnd(17)} req/s ours/bare ${toBare.toFixed(2)}${verdict(toBare >= 0.5, goals)}, ` +
      `p99 ours ${ours.best.p99Ms.toFixed(2)} ms${verdict(ours.best.p99Ms < 10, goals)}, bare ${bare.best.p99Ms.toFixed(2)} ms` +
      (soapPkg
        ? `; ours/soap package ${(ours.best.rps / soapPkg.best.rps).toFixed(1)}x${verdict(ours.best.rps >= 3 * soapPkg.best.rps, goals)}`
        : '') +
      (raw ? `; uncached ours/bare ${(raw.best.rps / bare.best.rps).toFixed(2)}, p99 ${raw.best.p99Ms.toFixed(2)} ms` : ''),
  );
  if (goals) for (const name of [PACED, PACED_AT_TURN_END] as const) printPaced(rows, workload, name);
  if (base) {
    // Side by side in the same rounds; the CPU per request is the steadier figure on a shared machine.
    const cpu =
      ours.cpuUs !== null && base.cpuUs ? ` server CPU per request ${(ours.cpuUs / base.cpuUs).toFixed(2)} of the baseline's,` : '';
    console.log(
      `  ${''.padEnd(17)} ours/baseline:${cpu} req/s ${(ours.best.rps / base.best.rps).toFixed(2)}, p99 ${ours.best.p99Ms.toFixed(2)} ms vs ${base.best.p99Ms.toFixed(2)} ms`,
    );
  }
}

/**
 * Ours against the bare server paced to ours' rate, round by round (see `pacedRound`): the bare server's
 * own CPU per request there (its CPU less its busy wait), in the rounds whose paced rate came within 10% of
 * ours', and the median of ours' CPU per request over it; the goal is judged on the plain bare server (the
 * one at turn end shows what of ours' lead is its way of writing answers).
 */
function printPaced(rows: Row[], workload: string, name: PacedName): void {
  const inRound = (round: number, server: string) => rows.find((r) => r.round === round && r.workload === workload && r.server === server);
  const pairs = rows
    .filter((r) => r.workload === workload && r.server === name && counted(r.result))
    .map((p) => ({ paced: p, ours: inRound(p.round, 'ours')!.result }))
    .filter(({ paced, ours }) => paced.result.serverCpuUsPerRequest !== null && ours.serverCpuUsPerRequest !== null)
    .map(({ paced, ours }) => ({
      rate: paced.result.rps / ours.rps,
      ownUs: paced.result.serverCpuUsPerRequest! - paced.spinUs!,
      oursUs: ours.serverCpuUsPerRequest!,
    }));
  const near = pairs.filter((p) => Math.abs(p.rate - 1) <= 0.1);
  const rates = pairs.map((p) => p.rate.toFixed(2)).join(' ');
  const label = name === PACED ? "at ours' rate:" : 'its answers at turn end:';
  if (near.length === 0) {
    console.log(`  ${''.padEnd(17)} ${label} no round of the paced bare server came within 10% of ours' rate (${rates || 'none counted'})`);
    return;
  }
  const ratio = median(near.map((p) => p.oursUs / p.ownUs));
  console.log(
    `  ${''.padEnd(17)} ${label} bare's own CPU per request ${median(near.map((p) => p.ownUs)).toFixed(0)} us, ` +
      `ours/bare ${ratio.toFixed(2)}x${verdict(ratio <= 2, name === PACED)} (median of ${near.length} rounds; paced req/s of ours' ${rates})`,
  );
}

function printSummary(rows: Row[], rounds: number): void {
  console.log(`\nCounted rounds (generator not the limit) of ${rounds}: the best req/s, and the least server CPU per request:`);
  // The paced bare servers' CPU holds their busy wait: their figures are printed beside ours' below.
  const servers = new Set(rows.filter((r) => r.spinUs === undefined).map((r) => r.server));
  for (const workload of new Set(rows.map((r) => r.workload))) {
    for (const server of servers) {
      const s = summarize(rows, workload, server);
      if (!s) {
        console.log(`  ${workload.padEnd(17)} ${server.padEnd(18)} no round counted: the generator was the limit in every one`);
        continue;
      }
      const r = s.best;
      console.log(
        `  ${workload.padEnd(17)} ${server.padEnd(18)} ${r.rps.toFixed(0).padStart(7)} req/s  p50 ${r.p50Ms.toFixed(2)} ms  p99 ${r.p99Ms.toFixed(2)} ms  ` +
          `server ${s.cpuUs?.toFixed(0) ?? 'n/a'} us/req  (${s.counted} of ${s.rounds} rounds counted)`,
      );
    }
  }
  console.log(
    '\nOurs vs bare node (goals on the mix: server CPU per request <= 2x bare, req/s >= 0.5 of bare, p99 < 10 ms, >= 3x the soap package):',
  );
  for (const workload of new Set(rows.map((r) => r.workload))) printRatios(rows, workload);
  console.log(
    '  (This machine is shared: rates and latencies move with what else runs; the CPU per request far less, and it is the figure to compare, at equal rates: the line "at ours\' rate".)',
  );
}

/** The servers started, the answers checked, and the workloads with the address of each server. */
async function prepare(o: {
  dataFile: string;
  mix: MixData;
  flags: ServerFlags;
  baselineDir: string | undefined;
  started: (p: Promise<ServerProcess>) => Promise<ServerProcess>;
}): Promise<{
  workloads: (Workload & { urls: Record<(typeof SERVERS)[number], string> })[];
  baseline: ServerProcess | undefined;
  paced: Record<PacedName, ServerProcess>;
}> {
  const { dataFile, mix, flags, started } = o;
  const service = await started(serveOurs(dataFile, flags, 'ours'));
  const uncached = await started(startServer({ kind: 'ours-uncached', dataFile, timeZone: TIME_ZONE }, flags, 'ours uncached'));
  const wsdl = (await probe(service.url, { method: 'GET', path: `${SERVICE_PATH}?WSDL`, headers: {}, body: '' })).body;
  const pkg = await started(startServer({ kind: 'soap', dataFile, timeZone: TIME_ZONE, wsdl }, flags, 'soap package'));
  const baseline =
    o.baselineDir === undefined
      ? undefined
      : await started(serveOurs(dataFile, flags, BASELINE, join(resolve(o.baselineDir), 'src-service', 'cli.ts')));

  // A cold start: every user's first call at once on the service just started (each login's first
  // verification is one scrypt, by design; the warm-up cannot know passwords), each user from an address of its own.
  const firstCalls = mix.requests.filter((r) => r.operation === 'AccountListWithAmount2');
  const coldStarted = performance.now();
  const coldTimes = await Promise.all(
    firstCalls.map(async (r, u) => {
      const answer = await probe(uncached.url, r.req, userAddress(u));
      if (answer.status !== 200) throw new Error(`a first call answered ${answer.status}: ${answer.body.slice(0, 200)}`);
      return performance.now() - coldStarted;
    }),
  );
  console.log(
    `  cold start (ours uncached, just started): the first calls of ${firstCalls.length} users at once, answered within ${Math.max(...coldTimes).toFixed(0)} ms ` +
      `(median ${coldTimes.sort((a, b) => a - b)[Math.floor(coldTimes.length / 2)]!.toFixed(0)} ms; one scrypt per login).`,
  );

  // Every read of the mix once, on ours (both), to check that they answer alike and to size the bare answer.
  const sizes: { bytes: number; body: string; weight: number }[] = [];
  for (const { operation, req, weight } of mix.requests) {
    if (operation === 'AddTranferToOtherAccount') continue;
    const ours = await probe(service.url, req);
    if (ours.status !== 200) throw new Error(`${operation} answered ${ours.status}: ${ours.body.slice(0, 200)}`);
    const raw = await probe(uncached.url, req);
    if (raw.body !== ours.body) throw new Error(`${operation}: ours and ours uncached answer differently`);
    sizes.push({ bytes: ours.bytes, body: ours.body, weight });
  }
  const readWeight = sizes.reduce((a, b) => a + b.weight, 0);
  const weighted = sizes.reduce((sum, x) => sum + (x.bytes * x.weight) / readWeight, 0);
  const recorded = sizes.reduce((a, b) => (Math.abs(b.bytes - weighted) < Math.abs(a.bytes - weighted) ? b : a)).body;
  const sample = mix.requests.find((r) => r.operation === 'AddTranferToOtherAccount')!;
  for (const target of [pkg.url, service.url]) {
    const answer = await probe(target, sample.req);
    if (answer.status !== 200 || answer.body.includes('Fault>')) {
      throw new Error(`a transfer answered ${answer.status}: ${answer.body.slice(0, 300)}`);
    }
  }
  const contentType = 'application/soap+xml; charset=utf-8';
  const bareMix = await started(startServer({ kind: 'bare', body: recorded, contentType }, flags, 'bare node'));
  const paced = {
    [PACED]: await started(startServer({ kind: 'bare', body: recorded, contentType, paced: true }, flags, 'bare paced')),
    [PACED_AT_TURN_END]: await started(
      startServer({ kind: 'bare', body: recorded, contentType, paced: true, atTurnEnd: true }, flags, 'bare paced at turn end'),
    ),
  };

  // The cached best case: demo's account list, the same request over and over.
  const demo = { clientKey: 'demo', login: 'demo', password: 'demo' };
  const cachedReq = buildRequest('soap12', { operation: 'AccountListWithAmount2', credentials: demo, params: {} }, NAMESPACE);
  const cachedOurs = await probe(service.url, cachedReq);
  const cachedTheirs = await probe(pkg.url, cachedReq);
  const bareCached = await started(startServer({ kind: 'bare', body: cachedOurs.body, contentType }, flags, 'bare node cached'));
  console.log(
    `  processes: ours ${service.pid} (serve), ours uncached ${uncached.pid}, soap package ${pkg.pid}, bare node ${bareMix.pid} (mix), ${paced[PACED].pid} and ${paced[PACED_AT_TURN_END].pid} (paced to ours' rate), ${bareCached.pid} (cached best case)` +
      `${baseline ? `, ours baseline ${baseline.pid} (serve of ${o.baselineDir})` : ''}.`,
  );
  console.log(
    `  mix: ${mix.requests.length} distinct requests; the bare server answers a recorded ${Buffer.byteLength(recorded)} B answer (the reads' weighted mean is ${weighted.toFixed(0)} B).`,
  );
  const urls = { ours: service.url, 'ours uncached': uncached.url, 'bare node': bareMix.url, 'soap package': pkg.url };
  const varying = { ours: null, 'ours uncached': null, 'bare node': Buffer.byteLength(recorded), 'soap package': null };
  const workloads = [
    { name: 'mix', requests: mix.requests.map((r) => asLoad(r.req, r.weight)), bytes: varying, urls },
    {
      // Writes alone: every request a transfer of the mix's users (a bare server has no writes to compare).
      name: 'transfers',
      requests: mix.requests.filter((r) => r.operation === 'AddTranferToOtherAccount').map((r) => asLoad(r.req, 1)),
      bytes: varying,
      urls,
    },
    {
      name: 'cached best case',
      requests: [asLoad(cachedReq, 1)],
      bytes: {
        ours: cachedOurs.bytes,
        'ours uncached': cachedOurs.bytes,
        'bare node': cachedOurs.bytes,
        'soap package': cachedTheirs.bytes,
      },
      urls: { ...urls, 'bare node': bareCached.url },
    },
  ];
  return { workloads, baseline, paced };
}

export async function run(args: string[]): Promise<void> {
  const seconds = option(args, 'seconds', 3);
  const connections = option(args, 'connections', 32);
  const rounds = option(args, 'rounds', args.includes('--paired') ? 8 : 3);
  const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const generator = generatorOf(args);
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-bench-'));
  const dataFile = join(dir, 'bench.sqlite');
  createDemoData(dataFile, { timeZone: TIME_ZONE });
  const mix = seedMix(dataFile, NAMESPACE);
  const profileDir = textOption(args, 'cpu-prof');
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const flags: ServerFlags = {
    extra:
      textOption(args, 'server-flags')
        ?.split(',')
        .filter((f) => f !== '') ?? [],
    profileDir: profileDir === undefined ? undefined : resolve(profileDir),
  };
  if (args.includes('--paired')) {
    const baselineDir = textOption(args, 'baseline');
    if (baselineDir === undefined) throw new Error('--paired measures ours against --baseline=<checkout>');
    // The baseline's own copy, seeded alike: one file served by two processes would drop each one's kept answers.
    const second = join(dir, 'baseline.sqlite');
    createDemoData(second, { timeZone: TIME_ZONE });
    const again = seedMix(second, NAMESPACE);
    if (again.requests.some((r, i) => r.req.body !== mix.requests[i]!.req.body)) throw new Error('the two copies of the mix differ');
    try {
      await paired({ files: [dataFile, second], mix, baselineDir, rounds, seconds, flags });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  if (args.includes('--first-minute')) {
    try {
      await firstMinute(dataFile, mix, connections, flags, generator);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return;
  }
  // Every server in a fresh process of its own, started before the first round and stopped after the last.
  const servers: ServerProcess[] = [];
  const started = async (p: Promise<ServerProcess>) => {
    const server = await p;
    servers.push(server);
    return server;
  };
  const rows: Row[] = [];
  console.log(
    `Service benchmark: SOAP 1.2, keep-alive, ${connections} connections, ${rounds} rounds of ${seconds} s per server and workload; ` +
      `the mix: ${USERS} users x ${ACCOUNTS_PER_USER} accounts x ${TRANSACTIONS_PER_ACCOUNT} transactions, 45% account lists, 45% transaction lists, 10% transfers; ` +
      `${generatorNote(generator)}.`,
  );
  try {
    const baselineDir = textOption(args, 'baseline');
    const prepared = await prepare({ dataFile, mix, flags, baselineDir, started });
    const baseline = prepared.baseline;
    const workloads = prepared.workloads.filter((w) => !only || w.name.startsWith(only));
    const measured: ServerName[] = baseline ? [...SERVERS, BASELINE] : [...SERVERS];
    const pids = new Map<string, number>(servers.map((server) => [server.url, server.pid]));
    const jobOf = (w: Workload, url: string, round: number, answers: (typeof SERVERS)[number]): LoadJob => ({
      origin: url,
      requests: w.requests,
      seed: 1000 + round,
      connections,
      warmupMs: 1000,
      durationMs: seconds * 1000,
      expectStatus: 200,
      expectBytes: w.bytes[answers],
      forbidden: 'Fault>',
      serverPids: [pids.get(url)!],
    });
    const pacePoints: Record<PacedName, PacePoint[]> = { [PACED]: [], [PACED_AT_TURN_END]: [] };
    for (let round = 1; round <= rounds; round++) {
      for (const w of workloads) {
        // Every other round backwards: no server always follows the same neighbour.
        for (const server of round % 2 === 0 ? [...measured].reverse() : measured) {
          // The baseline is another ours: the same answers, served from its own process.
          const url = server === BASELINE ? baseline!.url : w.urls[server];
          await settle(url, pids.get(url)!, mix.touches);
          const job = jobOf(w, url, round, server === BASELINE ? 'ours' : server);
          const result = await load(job, generator);
          rows.push({ workload: w.name, server, round, result });
          console.log(`  round ${round}  ${w.name.padEnd(17)} ${server.padEnd(18)} ${resultLine(result)}`);
        }
        const ours = rows.find((r) => r.round === round && r.workload === w.name && r.server === 'ours')?.result;
        if (w.name !== 'mix' || !ours || !counted(ours)) continue;
        // Last in every round, after ours: paced to this round's rate of ours.
        for (const name of [PACED, PACED_AT_TURN_END] as const) {
          const url = prepared.paced[name].url;
          await settle(url, pids.get(url)!, mix.touches);
          const { result, spinUs } = await pacedRound({
            paced: prepared.paced[name],
            points: pacePoints[name],
            ours,
            bare: rows.find((r) => r.round === round && r.workload === w.name && r.server === 'bare node')?.result,
            job: jobOf(w, url, round, 'bare node'),
            generator,
          });
          rows.push({ workload: w.name, server: name, round, result, spinUs });
          console.log(
            `  round ${round}  ${w.name.padEnd(17)} ${name.padEnd(18)} ${resultLine(result)}  (busy wait ${spinUs.toFixed(0)} us/req)`,
          );
        }
      }
    }
  } finally {
    await Promise.all(servers.map((server) => server.stop()));
    rmSync(dir, { recursive: true, force: true });
  }
  printSummary(rows, rounds);
  if (rows.some((r) => r.result.errors > 0)) {
    console.log('Some requests failed: the figures above are not valid.');
    process.exitCode = 1;
  }
}
