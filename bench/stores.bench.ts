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
 * --only=mix|transfers. Rounds interleave the servers; the best round of each counts (other work on the
 * machine only ever slows a round down). About two minutes with the defaults.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { copyToPostgres } from '../src-service/store/copy';
import { findPostgres, HOW_TO_GET_POSTGRES, startPostgres } from '../test/support/postgres';
import { serveProcess, stopServing, type Serving } from '../test/support/service-cli';
import { load, option, seedMix } from './service.bench';
import type { LoadRequest, LoadResult } from './support/load-generator';

const TIME_ZONE = 'Europe/Prague';
const NAMESPACE = 'http://tempuri.org/';

const SERVERS = ['SQLite', 'PostgreSQL x1', 'PostgreSQL x2'] as const;
type ServerName = (typeof SERVERS)[number];

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
  try {
    const url = await cluster.createDatabase('bench');
    const copied = await copyToPostgres(dataFile, url);
    const sqlite = await serveProcess(['--data', dataFile], TIME_ZONE);
    instances.push(sqlite);
    const postgres = await Promise.all([0, 1, 2].map(() => serveProcess(['--store', url], TIME_ZONE)));
    instances.push(...postgres);
    const origins: Record<ServerName, string[]> = {
      SQLite: [sqlite.target.url],
      'PostgreSQL x1': [postgres[0]!.target.url],
      'PostgreSQL x2': [postgres[1]!.target.url, postgres[2]!.target.url],
    };
    const asLoad = (r: (typeof mix.requests)[number], weight = r.weight): LoadRequest => ({ path: r.req.path, headers: r.req.headers, body: r.req.body, weight });
    const workloads = [
      { name: 'mix', requests: mix.requests.map((r) => asLoad(r)) },
      { name: 'transfers', requests: mix.requests.filter((r) => r.operation === 'AddTranferToOtherAccount').map((r) => asLoad(r, 1)) },
    ].filter((w) => !only || w.name.startsWith(only));
    console.log(
      `Stores benchmark: SOAP 1.2, keep-alive, ${connections} connections, ${rounds} rounds of ${seconds} s; the service benchmark's mix ` +
        `(${mix.requests.length} distinct requests; ${copied.rows.transactions} transactions moved into PostgreSQL and checked). ` +
        `Each server is its own serve process; PostgreSQL x2 is two instances on one database, ${Math.ceil(connections / 2)} + ${Math.floor(connections / 2)} connections ` +
        '(round-robin by connection, as a load balancer keeping connections open). The load generator, the servers and PostgreSQL share this machine.',
    );
    // Each login's first call on an instance costs one scrypt (by design); every instance has verified
    // every user before anything is measured, as after its first minute of serving.
    const firstCalls = mix.requests.filter((r) => r.operation === 'AccountListWithAmount2');
    for (const origin of Object.values(origins).flat()) {
      await Promise.all(
        firstCalls.map(async (r) => {
          const res = await fetch(origin + r.req.path, { method: r.req.method, headers: r.req.headers, body: r.req.body });
          const body = await res.text();
          if (res.status !== 200) throw new Error(`${origin}: a first call answered ${res.status}: ${body.slice(0, 200)}`);
        }),
      );
    }
    const rows: { workload: string; server: ServerName; result: LoadResult }[] = [];
    for (let round = 1; round <= rounds; round++) {
      for (const w of workloads) {
        for (const server of SERVERS) {
          const result = await load({
            origin: origins[server][0]!,
            origins: origins[server],
            requests: w.requests,
            seed: 1000 + round,
            connections,
            warmupMs: 500,
            durationMs: seconds * 1000,
            expectStatus: 200,
            expectBytes: null,
            forbidden: 'Fault>',
          });
          rows.push({ workload: w.name, server, result });
          console.log(
            `  round ${round}  ${w.name.padEnd(10)} ${server.padEnd(14)} ${result.rps.toFixed(0).padStart(7)} req/s  ` +
              `p50 ${result.p50Ms.toFixed(2).padStart(6)} ms  p99 ${result.p99Ms.toFixed(2).padStart(6)} ms  generator cpu ${(result.generatorCpu * 100).toFixed(0)}%` +
              (result.errors ? `  ${result.errors} ERRORS, the first: ${result.firstError}` : ''),
          );
        }
      }
    }
    const best = (workload: string, server: ServerName) =>
      rows.filter((r) => r.workload === workload && r.server === server).reduce((a, b) => (b.result.rps > a.result.rps ? b : a)).result;
    console.log(`\nBest of ${rounds} rounds:`);
    console.log(`  ${'workload'.padEnd(10)} ${'server'.padEnd(14)} ${'req/s'.padStart(7)}  ${'p50'.padStart(8)}  ${'p99'.padStart(8)}  vs SQLite`);
    for (const workload of new Set(rows.map((r) => r.workload))) {
      const base = best(workload, 'SQLite').rps;
      for (const server of SERVERS) {
        const r = best(workload, server);
        console.log(
          `  ${workload.padEnd(10)} ${server.padEnd(14)} ${r.rps.toFixed(0).padStart(7)}  ${r.p50Ms.toFixed(2).padStart(5)} ms  ${r.p99Ms.toFixed(2).padStart(5)} ms  ${(r.rps / base).toFixed(2)}`,
        );
      }
      console.log(`  ${''.padEnd(10)} two instances / one: ${(best(workload, 'PostgreSQL x2').rps / best(workload, 'PostgreSQL x1').rps).toFixed(2)}`);
    }
    const wrong = { SQLite: wrongBalancesInFile(dataFile), PostgreSQL: await wrongBalancesInDatabase(url) };
    console.log(`\nAfter every transfer of the run, accounts whose balance is not the sum of their transactions: SQLite ${wrong.SQLite}, PostgreSQL ${wrong.PostgreSQL}.`);
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
