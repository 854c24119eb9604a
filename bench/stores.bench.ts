/**
 * The service on its two stores, side by side in one run: SQLite (one `serve --data` process), and
 * PostgreSQL with one and with two instances (`serve --store` processes on one database). With two, the
 * load is spread over both as a load balancer keeping its connections open would (wrk: one thread per
 * instance, half the connections each; the Node generator: connection k to instance k mod 2). The data is
 * the service benchmark's mix (20 users x 10 accounts x 60 transactions; 45% account lists, 45% transaction
 * lists, 10% transfers: see service.bench.ts), made once in a SQLite file and moved into PostgreSQL with
 * `migrate`'s copy, so that both hold the very same records and ids. Workloads: the mix (the headline), and
 * transfers alone. After the run, every balance on both stores must still be the exact sum of its
 * transactions (two instances booked on the same accounts at once).
 *
 * Beside every rate: the CPU per request of the servers (all instances together) and of PostgreSQL (its
 * postmaster and every process under it: the backends, the WAL writer, the checkpointer). Those two are
 * what a scale-out model is made of (printed at the end; the README's section on PostgreSQL explains it):
 * this machine has two cores shared by the generator, the instances and PostgreSQL, so what one, two or
 * eight instances on cores of their own would serve is computed from them, not measured.
 *
 * PostgreSQL is a throwaway cluster (test/support/postgres.ts) with fsync off and synchronous_commit on:
 * a commit is written to the WAL before it is answered but not flushed to the disk, which is what SQLite's
 * WAL with synchronous=NORMAL does; both survive a crash of the service (and PostgreSQL's of its server),
 * neither a power cut.
 *
 * Options: --seconds=<n> per measurement (default 3), --rounds=<n> (default 4), --connections=<n> (default 32),
 * --only=mix|transfers, --generator=wrk|node (see service.bench.ts); --pool-sizes=<n>,<n> also measures one
 * and two PostgreSQL instances with each of these pool sizes (`serve --pool-size`), to size the pool by
 * measurement (two instances of half the pool hold as many of PostgreSQL's connections as one);
 * --baseline=<checkout> also serves each store from another checkout of the project (its
 * `src-service/cli.ts`, e.g. the commit before a change; give it a node_modules), on a copy of the same
 * data (a copy of the file, a second database made from it by the baseline's own `migrate`), in the same rounds, and prints the
 * ratio of each server to its baseline. Rounds interleave the servers, every other round backwards; of the
 * rounds whose generator was not the limit, the best rate and the least CPU per request of each count.
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import Database from 'better-sqlite3';
import pg from 'pg';
import { copyToPostgres } from '../src-service/store/copy';
import type { WireRequest } from '../src-shared/wire';
import { findPostgres, HOW_TO_GET_POSTGRES, startPostgres } from '../test/support/postgres';
import { serveProcess, serviceCli, stopServing, type Serving } from '../test/support/service-cli';
import { option, probe, seedMix, settle, textOption, userAddress } from './service.bench';
import { counted, cpuText, generatorNote, generatorOf, generatorText, load, type Generator } from './support/load';
import type { LoadRequest, LoadResult } from './support/load-generator';

const TIME_ZONE = 'Europe/Prague';
const NAMESPACE = 'http://tempuri.org/';

/** Where a server is: its instances' addresses and processes, and PostgreSQL's postmaster for a server on PostgreSQL. */
interface Served {
  urls: string[];
  pids: number[];
  databasePid?: number;
  /** What its instances have logged on stderr (trouble with the database: a lost listener, most of all), not yet printed. */
  troubles: string[];
}

/** Collects the lines `serving` writes on stderr into `into`. */
function collectTroubles(serving: Serving, into: string[]): void {
  if (!serving.child.stderr) return;
  createInterface({ input: serving.child.stderr }).on('line', (line) => line.trim() !== '' && into.push(line));
}

/** An error's fault reason where it has one (a SOAP fault's text), else its first characters. */
function faultText(error: string | null | undefined): string {
  const reason = /<soap:Text[^>]*>([^<]*)</.exec(error ?? '');
  return reason ? `${error!.slice(0, error!.indexOf('<'))}${reason[1]}` : (error ?? '').slice(0, 240);
}

/** The trouble an instance logged during a measurement, summed up (how many lines; the first, shortened). */
function troubleText(served: Served): string {
  const lines = served.troubles.splice(0);
  if (lines.length === 0) return '';
  const lost = lines.filter((l) => l.includes('Lost the connection that listens')).length;
  return `  ${lines.length} TROUBLE LINES (${lost} listener losses), the first: ${lines[0]!.slice(0, 240)}`;
}

/** A latency; none when no request was answered in the window (its NaN crosses the process boundary as null). */
const ms = (value: number | null) => (value === null || Number.isNaN(value) ? 'n/a' : value.toFixed(2));

/** PostgreSQL's postmaster: the parent of a backend (field 4 of /proc/<pid>/stat). */
async function postmasterPid(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const backend = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    const stat = readFileSync(`/proc/${backend}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } finally {
    await client.end();
  }
}

/** The servers of one checkout: SQLite, PostgreSQL with one instance and with two, and one and two instances per pool size asked. */
async function serveStores(o: {
  dataFile: string;
  url: string;
  cli: string | undefined;
  suffix: string;
  poolSizes: number[];
  instances: Serving[];
}): Promise<Map<string, Served>> {
  const start = async (args: string[]) => {
    const serving = await serveProcess(args, TIME_ZONE, o.cli);
    o.instances.push(serving);
    return serving;
  };
  const databasePid = await postmasterPid(o.url);
  const served = new Map<string, Served>();
  const add = (name: string, servings: Serving[], onPostgres = true) => {
    const troubles: string[] = [];
    for (const s of servings) collectTroubles(s, troubles);
    const base = { urls: servings.map((s) => s.target.url), pids: servings.map((s) => s.child.pid!), troubles };
    served.set(name, onPostgres ? { ...base, databasePid } : base);
  };
  add(`SQLite${o.suffix}`, [await start(['--data', o.dataFile])], false);
  add(`PostgreSQL x1${o.suffix}`, [await start(['--store', o.url])]);
  add(`PostgreSQL x2${o.suffix}`, await Promise.all([0, 1].map(() => start(['--store', o.url]))));
  for (const size of o.poolSizes) {
    const sized = () => start(['--store', o.url, '--pool-size', String(size)]);
    add(`PostgreSQL x1 pool ${size}${o.suffix}`, [await sized()]);
    add(`PostgreSQL x2 pool ${size}${o.suffix}`, await Promise.all([sized(), sized()]));
  }
  return served;
}

interface Measured {
  workload: string;
  server: string;
  result: LoadResult;
}

/** The counted rounds of a server: the best rate and the least CPU per request (the least disturbed) of servers and PostgreSQL. */
interface Summary {
  best: LoadResult;
  serverUs: number;
  databaseUs: number | null;
}

function summarize(rows: Measured[], workload: string, server: string): Summary | undefined {
  const usable = rows.filter((r) => r.workload === workload && r.server === server && counted(r.result)).map((r) => r.result);
  if (usable.length === 0) return undefined;
  const least = (values: (number | null)[]) => {
    const known = values.filter((v): v is number => v !== null);
    return known.length === 0 ? null : Math.min(...known);
  };
  return {
    best: usable.reduce((a, b) => (b.rps > a.rps ? b : a)),
    serverUs: least(usable.map((r) => r.serverCpuUsPerRequest)) ?? NaN,
    databaseUs: least(usable.map((r) => r.databaseCpuUsPerRequest)),
  };
}

const verdict = (ok: boolean) => (ok ? ' ok' : ' MISSED');

function printSummary(rows: Measured[], servers: string[], withBaseline: boolean): void {
  console.log('\nCounted rounds (the generator not the limit): the best req/s; the least CPU per request of the servers and of PostgreSQL');
  console.log(
    `  ${'workload'.padEnd(10)} ${'server'.padEnd(32)} ${'req/s'.padStart(7)}  ${'p50'.padStart(8)}  ${'p99'.padStart(8)}  ` +
      `${'server/req'.padStart(10)}  ${'pg/req'.padStart(7)}  vs SQLite${withBaseline ? '  vs baseline' : ''}`,
  );
  for (const workload of new Set(rows.map((r) => r.workload))) {
    const sqlite = summarize(rows, workload, 'SQLite');
    for (const server of servers) {
      const s = summarize(rows, workload, server);
      if (!s) {
        console.log(`  ${workload.padEnd(10)} ${server.padEnd(32)} no round counted: the generator was the limit in every one`);
        continue;
      }
      const base = withBaseline && !server.endsWith(' baseline') ? summarize(rows, workload, `${server} baseline`) : undefined;
      const r = s.best;
      console.log(
        `  ${workload.padEnd(10)} ${server.padEnd(32)} ${r.rps.toFixed(0).padStart(7)}  ${ms(r.p50Ms).padStart(5)} ms  ${ms(r.p99Ms).padStart(5)} ms  ` +
          `${`${s.serverUs.toFixed(0)} us`.padStart(10)}  ${(s.databaseUs === null ? '' : `${s.databaseUs.toFixed(0)} us`).padStart(7)}  ` +
          `${sqlite ? (r.rps / sqlite.best.rps).toFixed(2).padStart(9) : 'n/a'.padStart(9)}` +
          (base ? `  ${(r.rps / base.best.rps).toFixed(2).padStart(6)} req/s, ${(s.serverUs / base.serverUs).toFixed(2)} cpu/req` : ''),
      );
    }
  }
  printGoals(rows);
}

/** The goals of issue 27 on what this run measured. */
function printGoals(rows: Measured[]): void {
  console.log('\nGoals: PostgreSQL x1 >= 0.6 of SQLite on the mix, >= 0.5 on transfers, p99 < 20 ms; two instances no worse than one:');
  for (const [workload, share] of [
    ['mix', 0.6],
    ['transfers', 0.5],
  ] as const) {
    const [sqlite, one, two] = ['SQLite', 'PostgreSQL x1', 'PostgreSQL x2'].map((server) => summarize(rows, workload, server));
    if (!sqlite || !one || !two) continue;
    const ratio = one.best.rps / sqlite.best.rps;
    console.log(
      `  ${workload.padEnd(10)} PostgreSQL x1 / SQLite ${ratio.toFixed(2)}${verdict(ratio >= share)}, p99 ${ms(one.best.p99Ms)} ms${verdict(one.best.p99Ms < 20)}; ` +
        `x2 / x1 ${(two.best.rps / one.best.rps).toFixed(2)}${verdict(two.best.rps >= one.best.rps * 0.97)} (within 3%), p99 x2 ${ms(two.best.p99Ms)} ms`,
    );
  }
}

/**
 * What one, two and eight instances would serve on one PostgreSQL, computed from the CPU per request
 * measured on the mix (one instance): each instance on a core of its own serves 1 / (its CPU per request);
 * PostgreSQL on `cores` cores serves cores / (its CPU per request); the smaller of the two is the limit.
 */
function printModel(rows: Measured[]): void {
  const one = summarize(rows, 'mix', 'PostgreSQL x1');
  if (!one || one.databaseUs === null) return;
  const perInstance = 1e6 / one.serverUs;
  const perDatabaseCore = 1e6 / one.databaseUs;
  console.log(
    `\nScale-out model from the mix on one instance (measured: instance ${one.serverUs.toFixed(0)} us, PostgreSQL ${one.databaseUs.toFixed(0)} us of CPU per request; ` +
      'computed: each instance on a core of its own, PostgreSQL on the cores given):',
  );
  for (const instances of [1, 2, 8]) {
    const cells = [1, 2, 4, 8].map((cores) => {
      const served = Math.min(instances * perInstance, cores * perDatabaseCore);
      const limit = instances * perInstance <= cores * perDatabaseCore ? 'instances' : 'postgres';
      return `PostgreSQL on ${cores} core${cores > 1 ? 's' : ''}: ${served.toFixed(0).padStart(6)} (${limit})`;
    });
    console.log(`  ${String(instances).padStart(2)} instance${instances > 1 ? 's' : ' '}  ${cells.join('  ')}`);
  }
}

/** Every server on every workload, round after round, each measurement after the server has settled. */
async function measureRounds(o: {
  rounds: number;
  workloads: { name: string; requests: LoadRequest[] }[];
  servers: string[];
  origins: Map<string, Served>;
  touches: WireRequest[];
  connections: number;
  seconds: number;
  generator: Generator;
}): Promise<Measured[]> {
  const rows: Measured[] = [];
  for (let round = 1; round <= o.rounds; round++) {
    for (const w of o.workloads) {
      // Every other round backwards: a server measured right after another's burst of writes (PostgreSQL
      // still vacuuming, the disk still writing) is not always the same one.
      for (const server of round % 2 === 0 ? [...o.servers].reverse() : o.servers) {
        // Every user's credentials verified, renewals due done and the processes idle before the window
        // (see service.bench.ts): with several servers a round outlasts a verification's renewal.
        const served = o.origins.get(server)!;
        const { urls, pids, databasePid } = served;
        for (const [i, url] of urls.entries()) await settle(url, pids[i]!, o.touches);
        const job = {
          origin: urls[0]!,
          origins: urls,
          serverPids: pids,
          ...(databasePid === undefined ? {} : { databasePid }),
          requests: w.requests,
          seed: 1000 + round,
          connections: o.connections,
          warmupMs: 1000,
          durationMs: o.seconds * 1000,
          expectStatus: 200,
          expectBytes: null,
          forbidden: 'Fault>',
        };
        const result = await load(job, o.generator);
        rows.push({ workload: w.name, server, result });
        console.log(
          `  round ${round}  ${w.name.padEnd(10)} ${server.padEnd(32)} ${result.rps.toFixed(0).padStart(7)} req/s  ` +
            `p50 ${ms(result.p50Ms).padStart(6)} ms  p99 ${ms(result.p99Ms).padStart(6)} ms  ${cpuText(result)}  ${generatorText(result)}` +
            (result.errors ? `  ${result.errors} ERRORS, the first: ${faultText(result.firstError)}` : '') +
            troubleText(served),
        );
      }
    }
  }
  return rows;
}

/** Each login's first call costs one scrypt (by design): every instance verifies every user before anything is measured. */
async function verifyEveryone(origins: Map<string, Served>, firstCalls: WireRequest[]): Promise<void> {
  for (const origin of [...origins.values()].flatMap((o) => o.urls)) {
    await Promise.all(
      firstCalls.map(async (req, u) => {
        const answer = await probe(origin, req, userAddress(u));
        if (answer.status !== 200) throw new Error(`${origin}: a first call answered ${answer.status}: ${answer.body.slice(0, 200)}`);
      }),
    );
  }
}

export async function run(args: string[]): Promise<void> {
  const seconds = option(args, 'seconds', 3);
  const connections = option(args, 'connections', 32);
  const rounds = option(args, 'rounds', 4);
  const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const poolSizes = (textOption(args, 'pool-sizes') ?? '')
    .split(',')
    .filter((s) => s !== '')
    .map(Number);
  if (poolSizes.some((n) => !Number.isInteger(n) || n < 1)) throw new Error('--pool-sizes must be whole numbers from 1');
  const generator = generatorOf(args);
  const bin = findPostgres();
  if (!bin) throw new Error(`This benchmark needs PostgreSQL: ${HOW_TO_GET_POSTGRES}`);

  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-bench-stores-'));
  const dataFile = join(dir, 'bench.sqlite');
  const mix = seedMix(dataFile, NAMESPACE);
  const cluster = await startPostgres({ bin, settings: ['synchronous_commit=on', 'max_connections=300'] });
  const instances: Serving[] = [];
  const baselineDir = textOption(args, 'baseline');
  // The baseline's own copy of the same data, made before anything is served: no server sees another's writes.
  const baselineFile = join(dir, 'baseline.sqlite');
  if (baselineDir !== undefined) copyFileSync(dataFile, baselineFile);
  try {
    const url = await cluster.createDatabase('bench');
    const copied = await copyToPostgres(dataFile, url);
    const origins = await serveStores({ dataFile, url, cli: undefined, suffix: '', poolSizes, instances });
    let baselineUrl: string | undefined;
    if (baselineDir !== undefined) {
      baselineUrl = await cluster.createDatabase('bench_baseline');
      const cli = join(resolve(baselineDir), 'src-service', 'cli.ts');
      // By the baseline's own `migrate`: its schema is its own version's (this checkout's may be newer).
      const moved = await serviceCli(['migrate', '--from', baselineFile], { BOOKKEEPING_DATABASE_URL: baselineUrl }, cli);
      if (moved.code !== 0) throw new Error(`The baseline's migrate failed: ${moved.stderr}`);
      const base = await serveStores({ dataFile: baselineFile, url: baselineUrl, cli, suffix: ' baseline', poolSizes: [], instances });
      for (const [name, served] of base) origins.set(name, served);
    }
    const servers = [...origins.keys()];
    const asLoad = (r: (typeof mix.requests)[number], weight = r.weight): LoadRequest => ({
      path: r.req.path,
      headers: r.req.headers,
      body: r.req.body,
      weight,
    });
    const workloads = [
      { name: 'mix', requests: mix.requests.map((r) => asLoad(r)) },
      { name: 'transfers', requests: mix.requests.filter((r) => r.operation === 'AddTranferToOtherAccount').map((r) => asLoad(r, 1)) },
    ].filter((w) => !only || w.name.startsWith(only));
    console.log(
      `Stores benchmark: SOAP 1.2, keep-alive, ${connections} connections, ${rounds} rounds of ${seconds} s; the service benchmark's mix ` +
        `(${mix.requests.length} distinct requests; ${copied.rows.transactions} transactions moved into PostgreSQL and checked). ` +
        `Each server is its own serve process; PostgreSQL x2 is two instances on one database, half the connections each ` +
        `(as a load balancer keeping connections open); ${generatorNote(generator)}. The generator, the servers and PostgreSQL share this machine's cores.` +
        (baselineDir === undefined ? '' : ` Each "baseline" is the serve of ${baselineDir}, on its own copy of the data.`),
    );
    await verifyEveryone(
      origins,
      mix.requests.filter((r) => r.operation === 'AccountListWithAmount2').map((r) => r.req),
    );
    const rows = await measureRounds({ rounds, workloads, servers, origins, touches: mix.touches, connections, seconds, generator });
    printSummary(rows, servers, baselineDir !== undefined);
    printModel(rows);
    const wrong = {
      SQLite: wrongBalancesInFile(dataFile) + (baselineDir === undefined ? 0 : wrongBalancesInFile(baselineFile)),
      PostgreSQL: (await wrongBalancesInDatabase(url)) + (baselineUrl === undefined ? 0 : await wrongBalancesInDatabase(baselineUrl)),
    };
    console.log(
      `\nAfter every transfer of the run, accounts whose balance is not the sum of their transactions: SQLite ${wrong.SQLite}, PostgreSQL ${wrong.PostgreSQL}.`,
    );
    if (rows.some((r) => r.result.errors > 0) || wrong.SQLite + wrong.PostgreSQL > 0) {
      console.log('Some requests failed or some balances are wrong: the figures above are not valid.');
      process.exitCode = 1;
    }
  } finally {
    for (const instance of instances) await stopServing(instance);
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const WRONG_BALANCES =
  'SELECT count(*) AS n FROM accounts a WHERE a.balance_minor <> (SELECT COALESCE(SUM(t.amount_minor), 0) FROM transactions t WHERE t.account_id = a.id)';

function wrongBalancesInFile(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare(WRONG_BALANCES).get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function wrongBalancesInDatabase(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Number((await client.query<{ n: string }>(WRONG_BALANCES)).rows[0]!.n);
  } finally {
    await client.end();
  }
}
