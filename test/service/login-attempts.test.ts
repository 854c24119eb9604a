/**
 * The login throttle that instances share through PostgreSQL (store/postgres/login-attempts.ts), two
 * throttles on one database standing for two instances: a verification that others running elsewhere
 * could push past the lock waits for them instead of being refused, so a right password is never answered
 * as wrong credentials for a moment's crowd; when the crowd does not clear it is told to try again, and a
 * lock made meanwhile is a lock.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Attempt, NoAttempt } from '../../src-service/auth/login-throttle';
import { SharedLoginThrottle } from '../../src-service/store/postgres/login-attempts';
import { migratePostgres } from '../../src-service/store/postgres/migrations';
import { freshDatabase, needPostgres } from '../support/backends';

const found = needPostgres(import.meta.url);

describe.skipIf(!found)('the shared login throttle', () => {
  let pool: pg.Pool;
  const throttles: SharedLoginThrottle[] = [];
  const locks: string[] = [];

  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: await freshDatabase(), max: 4 });
    const client = await pool.connect();
    try {
      await migratePostgres(client);
    } finally {
      client.release();
    }
  });
  afterAll(async () => {
    for (const t of throttles) t.close();
    await pool?.end();
  });

  /** One instance's throttle: lock at the third failure, no delay (so that only the crowd makes anyone wait). */
  function instance(): SharedLoginThrottle {
    const t = new SharedLoginThrottle(
      pool,
      () => true,
      { lockAfter: 3, slowAfter: 100, maxDelayMs: 300 },
      Date.now,
      (login) => void locks.push(login),
    );
    throttles.push(t);
    return t;
  }
  const ran = (a: Attempt | NoAttempt): Attempt => {
    expect(typeof a).toBe('object');
    return a as Attempt;
  };
  /** Whether the promise has settled within `ms`. */
  const settledWithin = (p: Promise<unknown>, ms: number) =>
    Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);

  it('a right password waits for a verification running on the other instance, then runs (never refused for the crowd)', async () => {
    const [a, b] = [instance(), instance()];
    for (let i = 0; i < 2; i++) await ran(await a.attempt('carl')).end(true);
    // carl's own app verifies on a: with it running, two failures and one running could reach the lock.
    const running = ran(await a.attempt('carl'));
    const waiting = b.attempt('carl');
    expect(await settledWithin(waiting, 150)).toBe(false);
    await running.end(false);
    const next = ran(await waiting);
    await next.end(false);
    expect(locks).not.toContain('carl');
  });

  it('a guess that ends the wait by locking the login leaves the waiting one locked out, not busy', async () => {
    const [a, b] = [instance(), instance()];
    for (let i = 0; i < 2; i++) await ran(await a.attempt('dora')).end(true);
    const guess = ran(await a.attempt('dora'));
    const waiting = b.attempt('dora');
    await guess.end(true);
    expect(await waiting).toBe('locked');
    expect(locks).toContain('dora');
  });

  it('a lock announced while the locks are read again (the listener back) is kept, not wiped by the rows read before it', async () => {
    const t = instance();
    // The announcement arrives while the query is out: the lock committed after the rows' snapshot.
    const listener = {
      query: async (text: string, values: unknown[]) => {
        const rows = await pool.query(text, values);
        t.noteLock('fay', Date.now() + 60_000);
        return rows;
      },
    };
    await t.reload(listener as unknown as pg.Client);
    expect(t.isLocked('fay')).toBe(true);
  });

  it('a crowd that does not clear within the longest a verification takes is "busy": try again, no verdict', async () => {
    const [a, b] = [instance(), instance()];
    for (let i = 0; i < 2; i++) await ran(await a.attempt('emil')).end(true);
    const stuck = ran(await a.attempt('emil'));
    const started = Date.now();
    expect(await b.attempt('emil')).toBe('busy');
    // Waited for the longest delay and the grace, no longer than about that.
    expect(Date.now() - started).toBeGreaterThanOrEqual(300);
    await stuck.end(false);
    await ran(await b.attempt('emil')).end(false);
    expect(locks).not.toContain('emil');
  });
});
