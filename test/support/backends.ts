/**
 * The service's two stores in tests: suites written once run on SQLite and on PostgreSQL. The
 * PostgreSQL suites of a test file share one throwaway cluster (test/support/postgres.ts), started when
 * the first needs it and stopped after the file; each service gets a fresh database in it. Without
 * PostgreSQL they are skipped with the reason (required in CI).
 */
import pg from 'pg';
import { afterAll, describe } from 'vitest';
import { postgresFor, startPostgres, type PgCluster } from './postgres';
import { untilPasses } from './until';

export type Backend = 'sqlite' | 'postgres';

let cluster: Promise<PgCluster> | undefined;
let bin: string | null = null;
let databases = 0;

/** The cluster of this test file, started on first use. */
export function testCluster(): Promise<PgCluster> {
  if (!bin) throw new Error('No PostgreSQL for this test file (describeBackends or needPostgres first).');
  cluster ??= startPostgres({ bin });
  return cluster;
}

/** A new empty database in this file's cluster; its connection string. */
export async function freshDatabase(): Promise<string> {
  const c = await testCluster();
  const name = `t${process.pid}_${++databases}`;
  const client = new pg.Client({ connectionString: c.url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return c.url.replace(/\/postgres$/, `/${name}`);
}

async function stopCluster(): Promise<void> {
  const c = cluster;
  cluster = undefined;
  await (await c)?.stop();
}

/**
 * Whether this test file can use PostgreSQL: true, or false with the skip recorded (a failure in CI).
 * Stops the file's cluster after its suites.
 */
export function needPostgres(testFile: string): boolean {
  bin = postgresFor(testFile);
  if (bin) afterAll(stopCluster, 60_000);
  return bin !== null;
}

/** The suites of `body` on each store: "on SQLite" and "on PostgreSQL" (skipped with the reason where it is missing). */
export function describeBackends(testFile: string, body: (backend: Backend) => void): void {
  describe('on SQLite', () => body('sqlite'));
  const found = needPostgres(testFile);
  describe.skipIf(!found)('on PostgreSQL', () => body('postgres'));
}

/**
 * Checks what an admin command changed, as a running service sees it: on SQLite at once (the service
 * looks at the file's version each turn); on PostgreSQL once the change's notification has arrived (tried
 * until then; at the deadline the last failure is thrown, saying what was awaited). How soon it arrives
 * is a benchmark's question (`npm run bench -- notice`), not a test's.
 */
export async function takesEffect(backend: Backend, check: () => Promise<unknown>, what = 'the change to take effect'): Promise<void> {
  if (backend === 'sqlite') {
    await check();
    return;
  }
  await untilPasses(`${what} on PostgreSQL`, check);
}
