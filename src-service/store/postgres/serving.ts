/**
 * The PostgreSQL store as a running instance uses it. Instances are stateless: several may serve one
 * database behind a load balancer, and whatever one keeps in memory is either shared through the
 * database or dropped when another changes what it was made of.
 *
 * - Reads run on a connection of the pool, each statement on committed data; the instance keeps the
 *   transaction rows it has read (they never change through the service), forgotten when anyone
 *   changes stored rows behind its back.
 * - Writes run in a transaction of their own on a connection of the pool, READ COMMITTED; a booking
 *   first holds the accounts it books on, in the order of their ids (AccountAccess.holdForBooking), so
 *   two instances booking on the same accounts at once wait for each other and every balance stays the
 *   exact sum of its transactions. Should PostgreSQL still find a deadlock or a serialization failure,
 *   the write runs again from the start (a flow has no effect outside its transaction). A write is
 *   answered only after its COMMIT. The pool's connections pipeline (pipelined.ts): a write's BEGIN goes
 *   out with its first statement, and a transfer's insert with its COMMIT (two round trips, not four).
 * - Answers are kept with a stamp that the database changes in the transaction of every change of what
 *   they show (`answerStamp`), checked in one round trip before one is given (shared by the requests asking
 *   at the same time, stamps.ts): a write answered by another
 *   instance is seen at the next request whether or not this one has heard of it. So the instances do not
 *   announce their own writes (a notification after each, waited for before the answer, was a
 *   transaction more per write and its round trip on the write's answer, for nothing that needs it now).
 * - The generation changes with this instance's commits, with every announcement of a change made outside
 *   the service (admin commands, psql: see listener.ts), and with every call while the listener is down
 *   (nothing kept is trusted then). Users and client keys change only through the admin commands,
 *   announced as `credentials`; the login throttle is shared (login-attempts.ts).
 */
import type pg from 'pg';
import type { LoginGuard, ThrottleOptions } from '../../auth/login-throttle';
import { StoreData, Users } from '../data';
import { runFlow } from '../flow';
import { KeptTransactions } from '../kept-rows';
import type { ServiceStore, StoreFlow } from '../seam';
import { createPool, sqlState, unreachable } from './connect';
import { PgConnection } from './connection';
import { Listener, type Announcement } from './listener';
import { SharedLoginThrottle } from './login-attempts';
import { migratePostgres } from './migrations';
import { notifyNow } from './notifier';
import { pipelinedWrite } from './pipelined';
import { StampReads } from './stamps';

export interface PostgresStoreOptions {
  /** Most connections of this instance's pool (default 10). */
  poolSize?: number;
  /** Told about trouble with the database that does not fail a request (for the log). */
  onTrouble?: (message: string, error?: unknown) => void;
}

/**
 * deadlock_detected, serialization_failure, unique_violation: the transaction may simply be run again. Two
 * instances adding a category of the same name at once both pass the rule's check; the loser, run again,
 * meets the winner's row and answers the rule's error, not a Server fault.
 */
const RETRYABLE = new Set(['40P01', '40001', '23505']);
const WRITE_TRIES = 5;

export class PostgresServiceStore implements ServiceStore {
  /** Each write is a transaction of its own. */
  readonly groupsCommits = false;
  /** Another instance's write is answered before this one hears of it: kept answers carry a stamp (`answerStamp`). */
  readonly knowsEveryCommit = false;
  readonly credentials: Users;
  private readonly kept = new KeptTransactions();
  private readonly listener: Listener;
  private readonly guards: SharedLoginThrottle[] = [];
  private readonly stamps: StampReads;
  /**
   * The stamps' own connection: a read of stamps, which every request asking for one waits for, never waits
   * behind the requests queued for the pool (it is one at a time, and would go to the end of that queue).
   */
  private readonly stampPool: pg.Pool;
  private generationCount = 0;
  private outsideCount = 0;
  private closed = false;

  private constructor(
    private readonly pool: pg.Pool,
    url: string,
    private readonly onTrouble: (message: string, error?: unknown) => void,
  ) {
    this.credentials = new Users(new PgConnection(pool));
    this.stampPool = createPool(url, 1, { service: true });
    this.stampPool.on('error', () => undefined);
    this.stamps = new StampReads(this.stampPool);
    this.listener = new Listener(
      url,
      {
        announced: (a) => this.announced(a),
        listening: async (client) => {
          for (const guard of this.guards) await guard.reload(client);
          this.everythingChanged();
        },
        lost: (reason) =>
          onTrouble(`Lost the connection that listens for changes (reconnecting; nothing kept is used meanwhile): ${reason}`),
      },
      (payload) => notifyNow(pool, payload),
    );
  }

  /** Opens the pool, brings the schema up to date and starts listening; rejects when the database cannot be used. */
  static async open(url: string, options: PostgresStoreOptions = {}): Promise<PostgresServiceStore> {
    const pool = createPool(url, options.poolSize ?? 10, { service: true, pipeline: true });
    // An idle connection that breaks (the server restarts) is dropped by the pool; no request is lost.
    pool.on('error', () => undefined);
    const store = new PostgresServiceStore(pool, url, options.onTrouble ?? (() => {}));
    try {
      const client = await pool.connect().catch((e: unknown) => {
        throw unreachable(url, e);
      });
      try {
        await migratePostgres(client);
      } finally {
        client.release();
      }
      await store.listener.start();
    } catch (e) {
      await store.close();
      throw e;
    }
    return store;
  }

  private announced(a: Announcement): void {
    switch (a.kind) {
      case 'lock':
        for (const guard of this.guards) guard.noteLock(a.login, a.until);
        return;
      case 'credentials':
        this.outsideCount += 1;
        break;
      case 'rows':
        this.kept.forget();
        break;
      case 'data':
        break;
    }
    this.generationCount += 1;
  }

  private everythingChanged(): void {
    this.kept.forget();
    this.outsideCount += 1;
    this.generationCount += 1;
  }

  read<T>(flow: StoreFlow<T>): Promise<T> {
    return this.withClient((client) => runFlow(flow(new StoreData(new PgConnection(client), { kept: this.kept }))));
  }

  private async withClient<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    if (this.closed) throw new Error('The store is closed.');
    const client = await this.pool.connect();
    try {
      return await fn(client);
    } finally {
      client.release();
    }
  }

  async write<T>(flow: StoreFlow<T>): Promise<T> {
    if (this.closed) throw new Error('The store is closed.');
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.writeOnce(flow);
      } catch (e) {
        if (attempt >= WRITE_TRIES || !RETRYABLE.has(sqlState(e) ?? '')) throw e;
      }
    }
  }

  /**
   * One try of a write, in a transaction of its own pipelined on a connection of the pool (pipelined.ts:
   * BEGIN with the first statement, the COMMIT with the last where the flow's last is known).
   */
  private async writeOnce<T>(flow: StoreFlow<T>): Promise<T> {
    const result = await pipelinedWrite(
      this.pool,
      (tx) => runFlow(flow(new StoreData(new PgConnection(tx)))),
      // Failed after its last statement, committed with it: what it wrote is there (and the error stands).
      () => (this.generationCount += 1),
    );
    this.generationCount += 1;
    return result;
  }

  /**
   * The stamp of a kept answer: the user's count of changes, and the count of the one account the answer is
   * about, or the sum of the counts of every account the user holds (accountId 0). Read by a statement sent
   * after it is asked for, with those of the other requests waiting then (stamps.ts).
   */
  readonly answerStamp = (userId: number, accountId: number): Promise<string> => {
    if (this.closed) return Promise.reject(new Error('The store is closed.'));
    return this.stamps.stamp(userId, accountId);
  };

  /** Statements that have read stamps (diagnostics and tests: several stamps asked at once are read in one). */
  get stampReads(): number {
    return this.stamps.reads;
  }

  generation(): number {
    if (!this.listener.healthy) this.generationCount += 1;
    return this.generationCount;
  }

  outsideGeneration(): number {
    if (!this.listener.healthy) this.outsideCount += 1;
    return this.outsideCount;
  }

  loginGuard(
    options: Partial<ThrottleOptions>,
    now: () => number,
    onLock: (login: string, failures: number, ms: number) => void,
  ): LoginGuard {
    const guard = new SharedLoginThrottle(this.pool, () => this.listener.healthy, options, now, onLock);
    this.guards.push(guard);
    // The locks made before this instance listened (until then a verification reads its login's row).
    guard.reload(this.pool).catch((e: unknown) => this.onTrouble('Could not read the logins locked now', e));
    return guard;
  }

  /** True while changes by others are heard (diagnostics and tests). */
  get listening(): boolean {
    return this.listener.healthy;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const guard of this.guards) guard.close();
    await this.listener.close();
    await this.pool.end().catch(() => undefined);
    await this.stampPool.end().catch(() => undefined);
  }
}
