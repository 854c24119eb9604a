/**
 * The throwaway PostgreSQL cluster the PostgreSQL tests run on (test/support/postgres.ts): made in a
 * temporary folder as an unprivileged user, served on a free loopback port, gone after stop. Skipped
 * with a reason where PostgreSQL is not installed; required in CI.
 */
import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { postgresFor, startPostgres, type PgCluster } from '../support/postgres';

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
    const dataDir = (await cluster.psql('postgres', 'SHOW data_directory'));
    await cluster.stop();
    expect(existsSync(dataDir)).toBe(false);
  }, 120_000);
});
