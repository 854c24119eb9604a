/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: initdb in a temporary folder, a server on a
 * free loopback port with its socket in that folder, databases made on request, everything removed at
 * stop. Nothing of the machine's own clusters is touched.
 *
 * initdb and postgres refuse to run as root: as root the cluster is made and run as the unprivileged
 * `postgres` user that Debian's package creates (runuser), elsewhere as the current user.
 *
 * Where the binaries are: PG_BIN, else the newest /usr/lib/postgresql/<version>/bin (Debian, Ubuntu),
 * else initdb and pg_ctl on PATH (Homebrew, Postgres.app, other distributions).
 */
import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { promisify } from 'node:util';
import { needTool } from './external-tools';

const run = promisify(execFile);

export const HOW_TO_GET_POSTGRES =
  'install PostgreSQL (Debian/Ubuntu: apt-get install postgresql; macOS: brew install postgresql) or point PG_BIN at the folder that holds initdb and pg_ctl.';

const NEEDED = ['initdb', 'pg_ctl', 'postgres'] as const;

function holdsAll(dir: string): boolean {
  return NEEDED.every((name) => existsSync(join(dir, name)));
}

/** Where Debian and Ubuntu put each version's binaries (<version>/bin). */
const DEBIAN_ROOT = '/usr/lib/postgresql';

/**
 * The folder with initdb, pg_ctl and postgres, or null. A PG_BIN that holds them not is a mistake to fix,
 * not a skip. (`debian`: the tests of the finder point it elsewhere.)
 */
export function findPostgres(env: NodeJS.ProcessEnv = process.env, debian = DEBIAN_ROOT): string | null {
  if (env.PG_BIN) {
    if (holdsAll(env.PG_BIN)) return env.PG_BIN;
    throw new Error(`PG_BIN=${env.PG_BIN} does not hold ${NEEDED.join(', ')}.`);
  }
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    for (const v of versions) if (holdsAll(join(debian, v, 'bin'))) return join(debian, v, 'bin');
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) if (dir && holdsAll(dir)) return dir;
  return null;
}

/**
 * The PostgreSQL binaries for the test file `testFile` (its import.meta.url), or null when its suites are
 * to be skipped (recorded for the end of the run); with CI=true a missing PostgreSQL throws instead.
 */
export function postgresFor(testFile: string, env: NodeJS.ProcessEnv = process.env, debian = DEBIAN_ROOT): string | null {
  const bin = findPostgres(env, debian);
  return needTool(bin !== null, { tool: 'PostgreSQL', howToGet: HOW_TO_GET_POSTGRES }, testFile, env) ? bin : null;
}

export interface PgCluster {
  /** Connection string of the cluster's `postgres` database, over TCP on 127.0.0.1. */
  url: string;
  port: number;
  /** Makes a new empty database and returns its connection string. */
  createDatabase(name: string): Promise<string>;
  /** Runs SQL through psql in a database (for checks from outside the code under test). */
  psql(database: string, sql: string): Promise<string>;
  stop(): Promise<void>;
}

export interface PgClusterOptions {
  /** fsync off (default): test clusters need not survive a power cut of this machine. */
  durable?: boolean;
  /** More server settings (`name=value`), after the others: they win. */
  settings?: string[];
  bin?: string;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const USER = 'bookkeeping';

export async function startPostgres(options: PgClusterOptions = {}): Promise<PgCluster> {
  const bin = options.bin ?? findPostgres();
  if (!bin) throw new Error(`PostgreSQL not found: ${HOW_TO_GET_POSTGRES}`);
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-pg-'));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  // runuser lives in sbin, which a root shell's PATH may lack.
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser'].find((p) => existsSync(p)) ?? 'runuser';
  /** Runs a PostgreSQL program as the cluster's owner. */
  const as = (program: string, args: string[]) =>
    asRoot ? run(runuser, ['-u', 'postgres', '--', join(bin, program), ...args]) : run(join(bin, program), args);
  const data = join(dir, 'data');
  await as('initdb', ['-D', data, '-U', USER, '--auth=trust', '-E', 'UTF8', '--locale=C', '--no-sync']);
  const port = await freePort();
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    "-c listen_addresses='127.0.0.1'",
    '-c max_connections=200',
    ...(options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    ...(options.settings ?? []).map((s) => `-c ${s}`),
  ].join(' ');
  await as('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-o', settings, '-w', '-t', '60', 'start']);
  const url = (db: string) => `postgres://${USER}@127.0.0.1:${port}/${db}`;
  const psql = async (database: string, sql: string) =>
    (await run(join(bin, 'psql'), ['-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-d', url(database), '-c', sql])).stdout.trim();
  let stopped = false;
  return {
    url: url('postgres'),
    port,
    async createDatabase(name) {
      if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) throw new Error(`Not a plain database name: ${name}`);
      await psql('postgres', `CREATE DATABASE ${name}`);
      return url(name);
    },
    psql,
    async stop() {
      if (stopped) return;
      stopped = true;
      try {
        await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
