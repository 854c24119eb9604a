/**
 * How the service connects to PostgreSQL without a password on its command line: a password file
 * (~/.pgpass or PGPASSFILE) for a connection string without one; PGPASSWORD or the string's own password
 * as they are; a connection string never shown with its password; and no command warning on stderr that
 * pg's own reading of the password file is deprecated (pg read it because the string's empty password
 * replaced the service's lookup).
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { ConnectionInfo } from 'pgpass';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { describeLocation } from '../../src-service/store';
import { clientConfig } from '../../src-service/store/postgres/connect';
import { call } from '../support/http';
import { postgresFor, startPostgres, type PgCluster } from '../support/postgres';
import { SERVICE_CLI, serviceCli } from '../support/service-cli';

const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-pgpass-'));
const saved = { PGPASSFILE: process.env.PGPASSFILE, PGPASSWORD: process.env.PGPASSWORD };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** What pg uses when the server asks for a password (Client's _getPassword): its password, a function called with the connection's parameters. */
const passwordOf = async (url: string): Promise<string | null> => {
  const client = new pg.Client(clientConfig(url)) as unknown as { password: unknown; connectionParameters: ConnectionInfo };
  const password = client.password;
  if (typeof password !== 'function') return (password as string | null) ?? null;
  return (password as (c: ConnectionInfo) => Promise<string>)(client.connectionParameters).catch((e: Error) => `refused: ${e.message}`);
};

/** A password file of these lines, mode 0600 as pg demands. */
function passwordFile(name: string, lines: string[]): string {
  const file = join(dir, name);
  writeFileSync(file, lines.map((l) => `${l}\n`).join(''));
  chmodSync(file, 0o600);
  return file;
}

describe('the database password', () => {
  it('comes from the password file for a connection string without one, matched by host, port, database and user', async () => {
    process.env.PGPASSFILE = passwordFile('pgpass', ['db.internal:5432:books:jana:from-the-file', '*:*:*:petr:petr-everywhere']);
    delete process.env.PGPASSWORD;
    expect(await passwordOf('postgres://jana@db.internal:5432/books')).toBe('from-the-file');
    expect(await passwordOf('postgres://jana@db.internal/books')).toBe('from-the-file');
    expect(await passwordOf('postgres://petr@elsewhere/any')).toBe('petr-everywhere');
    expect(await passwordOf('postgres://jana@db.internal:5432/other')).toBe(
      'refused: the server asks for a password, and neither the connection string, PGPASSWORD nor the password file (~/.pgpass, or PGPASSFILE) holds one for it',
    );
    // A string with its own password (from BOOKKEEPING_DATABASE_URL), or PGPASSWORD: those are used as they are.
    expect(await passwordOf('postgres://jana:own@db.internal:5432/books')).toBe('own');
    process.env.PGPASSWORD = 'from-the-environment';
    expect(await passwordOf('postgres://jana@db.internal:5432/books')).toBe('from-the-environment');
  });

  it('is never in what is shown of a location', () => {
    expect(describeLocation({ kind: 'postgres', url: 'postgres://jana:s3cret@db.internal:5432/books' })).toBe(
      'postgres://jana@db.internal:5432/books',
    );
    expect(describeLocation({ kind: 'postgres', url: 'postgres://jana@db.internal/books?password=s3cret&sslmode=require' })).toBe(
      'postgres://jana@db.internal/books?sslmode=require',
    );
    expect(describeLocation({ kind: 'sqlite', file: '/srv/books.sqlite' })).toBe('/srv/books.sqlite');
  });
});

const bin = postgresFor(import.meta.url);

describe.skipIf(!bin)('commands on a database that asks for a password', () => {
  let cluster: PgCluster | undefined;
  afterAll(() => cluster?.stop(), 60_000);

  /** A cluster where jana must give her password (SCRAM) over TCP, and the test's own user need not. */
  async function clusterWithPassword(): Promise<string> {
    // Read by the cluster's owner (postgres, when the tests run as root).
    const hbaDir = join(dir, 'hba');
    mkdirSync(hbaDir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    const hba = join(hbaDir, 'pg_hba.conf');
    writeFileSync(
      hba,
      ['local all all trust', 'host all jana 127.0.0.1/32 scram-sha-256', 'host all all 127.0.0.1/32 trust', ''].join('\n'),
      { mode: 0o644 },
    );
    cluster = await startPostgres({ bin: bin!, settings: [`hba_file='${hba}'`] });
    await cluster.psql('postgres', "CREATE ROLE jana LOGIN PASSWORD 'jana-secret'");
    await cluster.createDatabase('books');
    await cluster.psql('postgres', 'ALTER DATABASE books OWNER TO jana');
    return `postgres://jana@127.0.0.1:${cluster.port}/books`;
  }

  /** `serve` on the database until it has answered one call; its stderr. */
  async function serveOnce(url: string, env: Record<string, string>): Promise<string> {
    const child = spawn(process.execPath, ['--import', 'tsx', SERVICE_CLI, 'serve', '--store', url, '--port', '0'], {
      env: { ...process.env, PGPASSWORD: undefined, BOOKKEEPING_DATABASE_URL: undefined, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    try {
      const target = await new Promise<string>((resolve, reject) => {
        let stdout = '';
        child.stdout.on('data', (c: Buffer) => {
          stdout += c;
          const m = /listening on (\S+)\/API\/APIservice\.asmx\n/.exec(stdout);
          if (m) resolve(m[1]!);
        });
        void exited.then((code) => reject(new Error(`serve ended (${code}) before listening: ${stderr}`)));
      });
      const accounts = await call(
        { url: target, namespace: 'http://tempuri.org/' },
        'soap12',
        'AccountList2',
        { clientKey: 'demo', login: 'demo', password: 'demo' },
        {},
      );
      expect(accounts.length).toBeGreaterThan(0);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    return stderr;
  }

  it('demo, add-client and serve read the password file and print no deprecation warning; without an entry they say where a password is looked for', async () => {
    const url = await clusterWithPassword();
    const env = { PGPASSFILE: passwordFile('cluster-pgpass', [`127.0.0.1:${cluster!.port}:books:jana:jana-secret`]) };
    const demo = await serviceCli(['demo', '--store', url], env);
    expect(demo.stderr).toBe('');
    expect(demo.code).toBe(0);
    const client = await serviceCli(['add-client', '--store', url], env);
    expect(client.stderr).toBe('');
    expect(client.stdout).toMatch(/^Client key registered: /);
    const served = await serveOnce(url, env);
    expect(served).not.toContain('pgpass support is deprecated');
    expect(served).not.toContain('DeprecationWarning');

    const none = await serviceCli(['add-client', '--store', url], {
      PGPASSFILE: passwordFile('other-pgpass', ['elsewhere:5432:*:jana:x']),
    });
    expect(none.code).toBe(1);
    expect(none.stderr).toBe(
      `error: Cannot use the PostgreSQL database ${url}: the server asks for a password, and neither the connection string, ` +
        'PGPASSWORD nor the password file (~/.pgpass, or PGPASSFILE) holds one for it\n',
    );
  }, 120_000);
});
