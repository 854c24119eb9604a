/**
 * The service on its two stores, side by side in one run: SQLite (one `serve --data` process), and
 * PostgreSQL with one and with two instances (`serve --store` processes on one database). With two, the
 * load generator spreads its keep-alive connections round-robin over both (connection k to instance
 * k mod 2: half each), as a load balancer that keeps connections open (nginx's `keepalive`) would. The
 * data is the service benchmark's mix (20 users x 10 accounts x 60 transactions; 45% account lists, 45%
 * transaction lists, 10% transfers: see service.bench.ts), made once in a SQLite file and moved into
 * PostgreSQL with `migrate`'s copy, so that both hold the very same records and ids. Workloads: the mix
 * (the headline), and transfers alone. After the run, every balance on both stores must still be the exact
 * sum of its transactions (two instances booked on the same accounts at once).
 *
 * PostgreSQL is a throwaway cluster (test/support/postgres.ts) with fsync off and synchronous_commit on:
 * a commit is written to the WAL before it is answered but not flushed to the disk, which is what SQLite's
 * WAL with synchronous=NORMAL does; both survive a crash of the service (and PostgreSQL's of its server),
 * neither a power cut. Everything runs on this machine: the servers, PostgreSQL and the load generator
 * share its cores, which a real deployment would not.
 *
 * Options: --seconds=<n> per measurement (default 3), --rounds=<n> (default 4), --connections=<n> (default 32),
 * --only=mix|transfers; --baseline=<checkout> also serves each store from another checkout of the project
 * (its `src-service/cli.ts`, e.g. the commit before a change; give it a node_modules), on a copy of the same
 * data (a copy of the file, a second database made by the same copy), in the same rounds, and prints the
 * ratio of each server to its baseline. Rounds interleave the servers; the best round of each counts (other
 * work on the machine only ever slows a round down). About two minutes with the defaults, twice that with a
 * baseline.
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { copyToPostgres } from '../src-service/store/copy';
import type { WireRequest } from '../src-shared/wire';
import { findPostgres, HOW_TO_GET_POSTGRES, startPostgres } from '../test/support/postgres';
import { serveProcess, stopServing, type Serving } from '../test/support/service-cli';
import { load, option, seedMix, settle, textOption } from './service.bench';
import type { LoadRequest, LoadResult } from './support/load-generator';

const TIME_ZONE = 'Europe/Prague';
const NAMESPACE = 'http://tempuri.org/';

const STORES = ['SQLite', 'PostgreSQL x1', 'PostgreSQL x2'] as const;
type Store = (typeof STORES)[number];
/** A store as this checkout serves it, or as the baseline's does. */
type ServerName = Store | `${Store} baseline`;
const baselineOf = (store: Store): ServerName => `${store} baseline`;
/** A latency; none when no request was answered in the window (its NaN crosses the process boundary as null). */
const ms = (value: number | null) => (value === null || Number.isNaN(value) ? 'n/a' : value.toFixed(2));

/** Where a server is: its instances' addresses and processes. */
interface Served {
  urls: string[];
  pids: number[];
}

/** One SQLite server and three PostgreSQL instances (one, and two together) of one checkout's `serve`. */
async function serveStores(
  dataFile: string,
  url: string,
  cli: string | undefined,
  names: (store: Store) => ServerName,
): Promise<{ instances: Serving[]; origins: Partial<Record<ServerName, Served>> }> {
  const sqlite = await serveProcess(['--data', dataFile], TIME_ZONE, cli);
  const postgres = await Promise.all([0, 1, 2].map(() => serveProcess(['--store', url], TIME_ZONE, cli)));
  const origins: Partial<Record<ServerName, Served>> = {
    [names('SQLite')]: { urls: [sqlite.target.url], pids: [sqlite.child.pid!] },
    [names('PostgreSQL x1')]: { urls: [postgres[0]!.target.url], pids: [postgres[0]!.child.pid!] },
    [names('PostgreSQL x2')]: {
      urls: [postgres[1]!.target.url, postgres[2]!.target.url],
      pids: [postgres[1]!.child.pid!, postgres[2]!.child.pid!],
    },
  };
  return { instances: [sqlite, ...postgres], origins };
}

/** The server's CPU per request (of a server of one instance; PostgreSQL's own is not in it). */
const cpuPerRequest = (r: LoadResult) => (r.serverCpuUsPerRequest === null ? 'n/a' : `${r.serverCpuUsPerRequest.toFixed(0)} us`);

interface Measured {
  workload: string;
  server: ServerName;
  result: LoadResult;
}

/**
 * The best round of each server (the most requests a second), and with a baseline each server's ratio to
 * its baseline's: requests a second, and CPU per request (the least of the rounds: of the two, the figure
 * that depends least on what else the machine runs).
 */
function printBest(rows: Measured[], servers: ServerName[], rounds: number, withBaseline: boolean): void {
  const of = (workload: string, server: ServerName) =>
    rows.filter((r) => r.workload === workload && r.server === server).map((r) => r.result);
  const best = (workload: string, server: ServerName) => of(workload, server).reduce((a, b) => (b.rps > a.rps ? b : a));
  const leastCpu = (workload: string, server: ServerName) => Math.min(...of(workload, server).map((r) => r.serverCpuUsPerRequest ?? NaN));
  console.log(`\nBest of ${rounds} rounds:`);
  console.log(
    `  ${'workload'.padEnd(10)} ${'server'.padEnd(23)} ${'req/s'.padStart(7)}  ${'p50'.padStart(8)}  ${'p99'.padStart(8)}  ` +
      `${'cpu/req'.padStart(7)}  vs SQLite` +
      (withBaseline ? '  vs baseline' : ''),
  );
  for (const workload of new Set(rows.map((r) => r.workload))) {
    const sqlite = best(workload, 'SQLite').rps;
    for (const server of servers) {
      const r = best(workload, server);
      const store = STORES.find((s) => s === server);
      const ratio =
        withBaseline && store !== undefined ? `  ${(r.rps / best(workload, baselineOf(store)).rps).toFixed(2).padStart(11)}` : '';
      console.log(
        `  ${workload.padEnd(10)} ${server.padEnd(23)} ${r.rps.toFixed(0).padStart(7)}  ` +
          `${ms(r.p50Ms).padStart(5)} ms  ${ms(r.p99Ms).padStart(5)} ms  ` +
          `${cpuPerRequest(r).padStart(7)}  ${(r.rps / sqlite).toFixed(2).padStart(9)}${ratio}`,
      );
    }
    console.log(
      `  ${''.padEnd(10)} two instances / one: ${(best(workload, 'PostgreSQL x2').rps / best(workload, 'PostgreSQL x1').rps).toFixed(2)}`,
    );
    if (!withBaseline) continue;
    for (const store of ['SQLite', 'PostgreSQL x1'] as const) {
      const [ours, base] = [leastCpu(workload, store), leastCpu(workload, baselineOf(store))];
      const ratio = (ours / base).toFixed(2);
      console.log(
        `  ${''.padEnd(10)} ${store}: server CPU per request ${ours.toFixed(0)} us, baseline ${base.toFixed(0)} us: ${ratio} of the baseline's`,
      );
    }
  }
}

/** Every server on every workload, round after round, each measurement after the server has settled. */
async function measureRounds(o: {
  rounds: number;
  workloads: { name: string; requests: LoadRequest[] }[];
  servers: ServerName[];
  origins: Partial<Record<ServerName, Served>>;
  touches: WireRequest[];
  connections: number;
  seconds: number;
}): Promise<Measured[]> {
  const rows: Measured[] = [];
  for (let round = 1; round <= o.rounds; round++) {
    for (const w of o.workloads) {
      // Every other round backwards: a server measured right after another's burst of writes (PostgreSQL
      // still vacuuming, the disk still writing) is not always the same one.
      for (const server of round % 2 === 0 ? [...o.servers].reverse() : o.servers) {
        // Every user's credentials verified, renewals due done and the processes idle before the window
        // (see service.bench.ts): with six servers a round outlasts a verification's renewal.
        const { urls, pids } = o.origins[server]!;
        for (const [i, url] of urls.entries()) await settle(url, pids[i]!, o.touches);
        const result = await load({
          origin: urls[0]!,
          origins: urls,
          // The CPU of a server of one instance (PostgreSQL's own is not in it).
          ...(pids.length === 1 ? { serverPid: pids[0]! } : {}),
          requests: w.requests,
          seed: 1000 + round,
          connections: o.connections,
          warmupMs: 500,
          durationMs: o.seconds * 1000,
          expectStatus: 200,
          expectBytes: null,
          forbidden: 'Fault>',
        });
        rows.push({ workload: w.name, server, result });
        console.log(
          `  round ${round}  ${w.name.padEnd(10)} ${server.padEnd(23)} ${result.rps.toFixed(0).padStart(7)} req/s  ` +
            `p50 ${ms(result.p50Ms).padStart(6)} ms  p99 ${ms(result.p99Ms).padStart(6)} ms  server ${cpuPerRequest(result)}/req  ` +
            `generator cpu ${(result.generatorCpu * 100).toFixed(0)}%` +
            (result.errors ? `  ${result.errors} ERRORS, the first: ${result.firstError}` : ''),
        );
      }
    }
  }
  return rows;
}

export async function run(args: string[]): Promise<void> {
  const seconds = option(args, 'seconds', 3);
  const connections = option(args, 'connections', 32);
  const rounds = option(args, 'rounds', 4);
  const only = args.find((a) => a.startsWith('--only='))?.slice('--only='.length);
  const bin = findPostgres();
  if (!bin) throw new Error(`This benchmark needs PostgreSQL: ${HOW_TO_GET_POSTGRES}`);

  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-bench-stores-'));
  const dataFile = join(dir, 'bench.sqlite');
  const mix = seedMix(dataFile, NAMESPACE);
  const cluster = await startPostgres({ bin, settings: ['synchronous_commit=on', 'max_connections=200'] });
  const instances: Serving[] = [];
  const baselineDir = textOption(args, 'baseline');
  // The baseline's own copy of the same data, made before anything is served: no server sees another's writes.
  const baselineFile = join(dir, 'baseline.sqlite');
  if (baselineDir !== undefined) copyFileSync(dataFile, baselineFile);
  try {
    const url = await cluster.createDatabase('bench');
    const copied = await copyToPostgres(dataFile, url);
    const ours = await serveStores(dataFile, url, undefined, (store) => store);
    instances.push(...ours.instances);
    let origins = ours.origins;
    let baselineUrl: string | undefined;
    if (baselineDir !== undefined) {
      baselineUrl = await cluster.createDatabase('bench_baseline');
      await copyToPostgres(baselineFile, baselineUrl);
      const baseline = await serveStores(baselineFile, baselineUrl, join(resolve(baselineDir), 'src-service', 'cli.ts'), baselineOf);
      instances.push(...baseline.instances);
      origins = { ...origins, ...baseline.origins };
    }
    const servers = STORES.flatMap((store): ServerName[] => (baselineDir === undefined ? [store] : [store, baselineOf(store)]));
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
        `Each server is its own serve process; PostgreSQL x2 is two instances on one database, ${Math.ceil(connections / 2)} + ${Math.floor(connections / 2)} connections ` +
        '(round-robin by connection, as a load balancer keeping connections open). The load generator, the servers and PostgreSQL share this machine.' +
        (baselineDir === undefined ? '' : ` Each "baseline" is the serve of ${baselineDir}, on its own copy of the data.`),
    );
    // Each login's first call on an instance costs one scrypt (by design); every instance has verified
    // every user before anything is measured, as after its first minute of serving.
    const firstCalls = mix.requests.filter((r) => r.operation === 'AccountListWithAmount2');
    for (const origin of Object.values(origins).flatMap((o) => o.urls)) {
      await Promise.all(
        firstCalls.map(async (r) => {
          const res = await fetch(origin + r.req.path, { method: r.req.method, headers: r.req.headers, body: r.req.body });
          const body = await res.text();
          if (res.status !== 200) throw new Error(`${origin}: a first call answered ${res.status}: ${body.slice(0, 200)}`);
        }),
      );
    }
    const rows = await measureRounds({ rounds, workloads, servers, origins, touches: mix.touches, connections, seconds });
    printBest(rows, servers, rounds, baselineDir !== undefined);
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
