/**
 * How the service connects to PostgreSQL without a password on its command line: a password file
 * (~/.pgpass or PGPASSFILE) for a connection string without one; PGPASSWORD or the string's own password
 * left to pg; and a connection string never shown with its password.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { describeLocation } from '../../src-service/store';
import { clientConfig } from '../../src-service/store/postgres/connect';

const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-pgpass-'));
const saved = { PGPASSFILE: process.env.PGPASSFILE, PGPASSWORD: process.env.PGPASSWORD };
afterEach(() => {
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const passwordOf = async (url: string) => {
  const password = clientConfig(url).password as unknown;
  return typeof password === 'function' ? ((await (password as () => Promise<string | undefined>)()) ?? null) : (password ?? null);
};

describe('the database password', () => {
  it('comes from the password file for a connection string without one, matched by host, port, database and user', async () => {
    const file = join(dir, 'pgpass');
    writeFileSync(file, 'db.internal:5432:books:jana:from-the-file\n*:*:*:petr:petr-everywhere\n');
    chmodSync(file, 0o600);
    process.env.PGPASSFILE = file;
    delete process.env.PGPASSWORD;
    expect(await passwordOf('postgres://jana@db.internal:5432/books')).toBe('from-the-file');
    expect(await passwordOf('postgres://jana@db.internal/books')).toBe('from-the-file');
    expect(await passwordOf('postgres://jana@db.internal:5432/other')).toBe(null);
    expect(await passwordOf('postgres://petr@elsewhere/any')).toBe('petr-everywhere');
    // A string with its own password (from BOOKKEEPING_DATABASE_URL), or PGPASSWORD: pg takes those as they are.
    expect(await passwordOf('postgres://jana:own@db.internal:5432/books')).toBe(null);
    process.env.PGPASSWORD = 'from-the-environment';
    expect(await passwordOf('postgres://jana@db.internal:5432/books')).toBe(null);
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
