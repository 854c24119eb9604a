/**
 * Announcing through the instance's pool: what the listener's pings take (listener.ts), the path every
 * announcement of the service takes. The instances' own writes are not announced: kept answers are
 * checked by their stamps (serving.ts), which the database changes in the writes' own transactions.
 */
import type pg from 'pg';
import { CHANNEL } from './listener';

/**
 * Announces `payload` through the pool in a notification-only transaction, which has nothing to keep on
 * disk and so need not wait for its WAL flush (committed when it resolves).
 */
export function notifyNow(pool: pg.Pool, payload: string): Promise<unknown> {
  return pool.query("SELECT set_config('synchronous_commit', 'off', true), pg_notify($1, $2)", [CHANNEL, payload]);
}
