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
import { turns, until } from '../support/until';

const found = needPostgres(import.meta.url);
/** The throttles' clock, standing still. */
const NOW = Date.parse('2026-06-01T12:00:00Z');

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

  /**
   * One instance's throttle: lock at the third failure, no delay (so that only the crowd makes anyone wait).
   * Its clock stands still (no lock here runs out); `wait` takes its waits for a crowd (by default they are
   * real).
   */
  function instance(wait?: (ms: number) => Promise<unknown>): SharedLoginThrottle {
    const t = new SharedLoginThrottle(
      pool,
      () => true,
      { lockAfter: 3, slowAfter: 100, maxDelayMs: 300 },
      () => NOW,
      (login) => void locks.push(login),
      wait,
    );
    throttles.push(t);
    return t;
  }
  const ran = (a: Attempt | NoAttempt): Attempt => {
    expect(typeof a).toBe('object');
    return a as Attempt;
  };
  it('a right password waits for a verification running on the other instance, then runs (never refused for the crowd)', async () => {
    // b's waits for the crowd are held until the test lets them end: it looks again only then.
    const looks: number[] = [];
    let release = () => {};
    const released = new Promise<void>((resolve) => (release = resolve));
    const [a, b] = [instance(), instance((ms) => (looks.push(ms), released))];
    for (let i = 0; i < 2; i++) await ran(await a.attempt('carl')).end(true);
    // carl's own app verifies on a: with it running, two failures and one running could reach the lock.
    const running = ran(await a.attempt('carl'));
    let settled = false;
    const waiting = b.attempt('carl').finally(() => (settled = true));
    // b has found the crowd and waits for it to clear, without a verdict.
    await until('b to wait for the verification running on a', () => looks.length > 0);
    await turns();
    expect(settled).toBe(false);
    await running.end(false);
    release();
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
        t.noteLock('fay', NOW + 60_000);
        return rows;
      },
    };
    await t.reload(listener as unknown as pg.Client);
    expect(t.isLocked('fay')).toBe(true);
  });

  it('a crowd that does not clear within the longest a verification takes is "busy": try again, no verdict', async () => {
    // b's waits for the crowd are counted, not taken.
    const waits: number[] = [];
    const [a, b] = [instance(), instance(async (ms) => void waits.push(ms))];
    for (let i = 0; i < 2; i++) await ran(await a.attempt('emil')).end(true);
    const stuck = ran(await a.attempt('emil'));
    expect(await b.attempt('emil')).toBe('busy');
    // It looked again and again, waiting in all at least the longest delay (and the grace), before saying so.
    expect(waits.length).toBeGreaterThan(1);
    expect(waits.reduce((sum, ms) => sum + ms, 0)).toBeGreaterThanOrEqual(300);
    await stuck.end(false);
    await ran(await b.attempt('emil')).end(false);
    expect(locks).not.toContain('emil');
  });
});
