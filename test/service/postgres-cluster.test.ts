/**
 * The throwaway PostgreSQL cluster the PostgreSQL tests run on (test/support/postgres.ts): made in a
 * temporary folder as an unprivileged user, served on a free loopback port, gone after stop. Skipped
 * with a reason where PostgreSQL is not installed; required in CI. And how its binaries are found, on
 * fake folders: PG_BIN, Debian's newest version, PATH; nothing found is a skip outside CI and a
 * failure with CI=true.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/client';
import { findPostgres, postgresFor, startPostgres, type PgCluster } from '../support/postgres';

describe('finding PostgreSQL', () => {
  const tmp = tempDir('bookkeeping-pg-finder-');
  afterAll(() => tmp.remove());
  /** A folder holding fake initdb, pg_ctl and postgres (or only `names`). */
  const fakeBin = (dir: string, names = ['initdb', 'pg_ctl', 'postgres']) => {
    mkdirSync(dir, { recursive: true });
    for (const name of names) {
      writeFileSync(join(dir, name), '#!/bin/sh\n');
      chmodSync(join(dir, name), 0o755);
    }
    return dir;
  };
  const debian = tmp.file('usr-lib-postgresql');
  fakeBin(join(debian, '9', 'bin'));
  const newest = fakeBin(join(debian, '15', 'bin'));
  fakeBin(join(debian, '16', 'bin'), ['initdb']); // a version whose server package is not installed
  const onPath = fakeBin(tmp.file('path-bin'));
  const own = fakeBin(tmp.file('own-bin'));
  const nowhere = tmp.file('nowhere');
  const empty = fakeBin(tmp.file('empty-bin'), []);

  it("PG_BIN wins; else Debian's newest complete version; else PATH; a PG_BIN without them is an error", () => {
    expect(findPostgres({ PG_BIN: own, PATH: onPath }, debian)).toBe(own);
    expect(findPostgres({ PATH: onPath }, debian)).toBe(newest);
    expect(findPostgres({ PATH: `${empty}:${onPath}` }, nowhere)).toBe(onPath);
    expect(findPostgres({ PATH: empty }, nowhere)).toBe(null);
    expect(() => findPostgres({ PG_BIN: empty, PATH: onPath }, debian)).toThrow(`PG_BIN=${empty} does not hold initdb, pg_ctl, postgres.`);
  });

  it('nothing found: a skip outside CI (recorded for the end of the run), a failure with CI=true', () => {
    const skips = tmp.file('skips');
    mkdirSync(skips);
    const testFile = join(import.meta.dirname, 'instances.test.ts');
    expect(postgresFor(testFile, { PATH: empty, BOOKKEEPING_TEST_SKIPS: skips }, nowhere)).toBe(null);
    expect(JSON.parse(readFileSync(join(skips, 'skips.jsonl'), 'utf8'))).toEqual({
      tool: 'PostgreSQL',
      howToGet: expect.stringContaining('apt-get install postgresql'),
      file: 'test/service/instances.test.ts',
    });
    expect(() => postgresFor(testFile, { PATH: empty, CI: 'true' }, nowhere)).toThrow(
      /^test\/service\/instances\.test\.ts needs PostgreSQL, and CI runs every test: install PostgreSQL/,
    );
    expect(postgresFor(testFile, { PATH: onPath, CI: 'true' }, nowhere)).toBe(onPath);
  });
});

const bin = postgresFor(import.meta.url);
let cluster: PgCluster | null = null;
afterAll(() => cluster?.stop());

describe.skipIf(!bin)('a throwaway PostgreSQL cluster', () => {
  it('starts on a free port, makes databases, answers SQL, and leaves nothing behind', async () => {
    cluster = await startPostgres({ bin: bin! });
    expect(cluster.url).toMatch(/^postgres:\/\/bookkeeping@127\.0\.0\.1:\d+\/postgres$/);
    const url = await cluster.createDatabase('smoke_test');
    expect(url).toBe(`postgres://bookkeeping@127.0.0.1:${cluster.port}/smoke_test`);
    expect(await cluster.psql('smoke_test', 'SELECT 6 * 7')).toBe('42');
    expect(await cluster.psql('smoke_test', 'SHOW server_encoding')).toBe('UTF8');
    await expect(cluster.createDatabase('no; DROP')).rejects.toThrow(/Not a plain database name/);
    const dataDir = await cluster.psql('postgres', 'SHOW data_directory');
    await cluster.stop();
    expect(existsSync(dataDir)).toBe(false);
  }, 120_000);
});
