/**
 * Announcing the service's own writes to the other instances: after a write commits, one `data`
 * notification, sent before the write is answered. Sent from inside every write transaction, a NOTIFY
 * would make PostgreSQL serialize those commits on its notification lock (held until the commit is on
 * disk); sent after, it is one small transaction for all the writes that committed meanwhile.
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

export class ChangeNotifier {
  private inFlight: Promise<void> | undefined;
  private next: Promise<void> | undefined;

  constructor(
    private readonly pool: pg.Pool,
    private readonly onFailure: (e: unknown) => void,
  ) {}

  /** Resolves once a notification sent after this call has been committed (or has failed and been logged). */
  changed(): Promise<void> {
    if (!this.inFlight) {
      this.inFlight = this.send().finally(() => (this.inFlight = undefined));
      return this.inFlight;
    }
    // One in flight may have been sent before the caller's commit: the next one covers all who wait.
    this.next ??= this.inFlight.then(() => {
      this.next = undefined;
      return this.changed();
    });
    return this.next;
  }

  private async send(): Promise<void> {
    try {
      await notifyNow(this.pool, 'data');
    } catch (e) {
      this.onFailure(e);
    }
  }
}
