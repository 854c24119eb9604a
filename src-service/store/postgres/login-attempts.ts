/**
 * The login throttle of instances that share a PostgreSQL database: the rules of auth/login-throttle.ts,
 * with the counts in the table `login_attempts`, so that guesses spread over all instances count as one
 * and a lock made by one holds on all.
 *
 * - Before a verification, its row is locked and read: refused when the login is locked; made to wait
 *   while the verifications already running (on other instances) could reach the lock by themselves, and
 *   told to try again ('busy', no verdict) when they still could after the longest a verification takes;
 *   otherwise it is counted as running and told how long to wait. After it, a failure is counted, and the
 *   tenth locks the login and announces it (`lock <until> <login>`) at its commit. So parallel guesses
 *   cannot slip past the count however many instances they are spread over, and a right password is never
 *   refused for the others' verifications still running.
 * - Each instance keeps the locks it knows of in memory (its own, the announced ones, and all those in
 *   the table when it starts listening), so that a call with credentials verified a moment ago is
 *   refused at once without a query. While its listener is down it asks the table instead.
 * - The table holds no more than what is counting: rows of logins neither locked nor failed within the
 *   window are deleted once a minute. Locks are never evicted, only expired.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type pg from 'pg';
import {
  DEFAULT_THROTTLE_OPTIONS,
  delayAfter,
  failuresForgotten,
  LockedLogins,
  type Attempt,
  type LoginGuard,
  type NoAttempt,
  type ThrottleOptions,
} from '../../auth/login-throttle';
import { inTransaction } from './connect';
import { CHANNEL, lockAnnouncement } from './listener';

/** A verification counted as running longer than this was lost with its instance (killed mid-way). */
const RUNNING_STALE_MS = 60_000;
const PURGE_EVERY_MS = 60_000;
/** Beyond the throttle's longest delay, how long a verification may wait for others of its login to end. */
const CROWD_GRACE_MS = 2_000;

interface AttemptRow {
  failures: number;
  last_failure_ms: number;
  locked_until_ms: number;
  running: number;
  running_since_ms: number;
}

const ROW_COLUMNS = 'failures, last_failure_ms, locked_until_ms, running, running_since_ms';

export class SharedLoginThrottle implements LoginGuard {
  readonly options: ThrottleOptions;
  /** Locks known to this instance. */
  private readonly locks: LockedLogins;
  private readonly purgeTimer: NodeJS.Timeout;

  constructor(
    private readonly pool: pg.Pool,
    /** Whether announcements arrive (the listener is up): then the locks known here are all there are. */
    private readonly announcementsArrive: () => boolean,
    options: Partial<ThrottleOptions>,
    private readonly now: () => number,
    private readonly onLock: (login: string, failures: number, ms: number) => void,
    /** Waits between looks at a crowd (a test passes its own, to count the waits or to hold one). */
    private readonly wait: (ms: number) => Promise<unknown> = sleep,
  ) {
    this.options = { ...DEFAULT_THROTTLE_OPTIONS, ...options };
    this.locks = new LockedLogins(now);
    this.purgeTimer = setInterval(() => void this.purge().catch(() => undefined), PURGE_EVERY_MS);
    this.purgeTimer.unref();
  }

  /** A lock announced by an instance (this one included). */
  noteLock(login: string, until: number): void {
    this.locks.note(login, until);
  }

  /**
   * Every lock in force, read when the listener (re)starts: what was announced meanwhile was missed. Added
   * to the locks known, never replacing them: a lock announced while the rows are read (committed after
   * their snapshot) is known only by its announcement, and nothing ends a lock early but its time.
   */
  async reload(client: Pick<pg.ClientBase, 'query'>): Promise<void> {
    const { rows } = await client.query<{ login_key: string; locked_until_ms: number }>(
      'SELECT login_key, locked_until_ms FROM login_attempts WHERE locked_until_ms > $1',
      [this.now()],
    );
    this.locks.sweep();
    for (const r of rows) this.noteLock(r.login_key, r.locked_until_ms);
  }

  isLocked(login: string): boolean | Promise<boolean> {
    return this.announcementsArrive() ? this.locks.has(login) : this.lockedInTable(login);
  }

  private async lockedInTable(login: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ locked_until_ms: number }>('SELECT locked_until_ms FROM login_attempts WHERE login_key = $1', [
      login,
    ]);
    const until = rows[0]?.locked_until_ms ?? 0;
    this.noteLock(login, until);
    return until > this.now();
  }

  async attempt(login: string): Promise<Attempt | NoAttempt> {
    // Waits out verifications of this login running on other instances (each takes at most the longest
    // delay and a hash), then says 'busy': the caller tries again, the credentials are not judged.
    let waited = 0;
    for (let pause = 20; ; pause = Math.min(pause * 2, 250)) {
      const decision = await this.decide(login);
      if (decision !== 'crowded') return decision;
      if (waited >= this.options.maxDelayMs + CROWD_GRACE_MS) return 'busy';
      await this.wait(pause);
      waited += pause;
    }
  }

  /** The decision on one verification: refused (locked), postponed (others running could lock it), or counted as running. */
  private async decide(login: string): Promise<Attempt | 'locked' | 'crowded'> {
    const now = this.now();
    const o = this.options;
    const decision = await inTransaction(this.pool, async (c) => {
      // The row, made when missing, and locked until the decision is written.
      const { rows } = await c.query<AttemptRow>(
        `INSERT INTO login_attempts (login_key) VALUES ($1)
         ON CONFLICT (login_key) DO UPDATE SET login_key = excluded.login_key RETURNING ${ROW_COLUMNS}`,
        [login],
      );
      const row = rows[0]!;
      if (row.locked_until_ms > now) return { locked: true as const, until: row.locked_until_ms };
      const failures = failuresForgotten(row.last_failure_ms, false, now, o) ? 0 : row.failures;
      const running = now - row.running_since_ms > RUNNING_STALE_MS ? 0 : row.running;
      // Others running could reach the lock by themselves: this one would slip past the count.
      if (running > 0 && failures + running >= o.lockAfter) return 'crowded' as const;
      await c.query('UPDATE login_attempts SET failures = $2, running = $3, running_since_ms = $4 WHERE login_key = $1', [
        login,
        failures,
        running + 1,
        now,
      ]);
      return { locked: false as const, delayMs: delayAfter(failures + running, o) };
    });
    if (decision === 'crowded') return decision;
    if (decision.locked) {
      this.noteLock(login, decision.until);
      return 'locked';
    }
    return { delayMs: decision.delayMs, end: (failed) => this.end(login, failed) };
  }

  private async end(login: string, failed: boolean): Promise<void> {
    const now = this.now();
    const o = this.options;
    const locked = await inTransaction(this.pool, async (c) => {
      const { rows } = await c.query<AttemptRow>(`SELECT ${ROW_COLUMNS} FROM login_attempts WHERE login_key = $1 FOR UPDATE`, [login]);
      const row = rows[0];
      if (!row) return undefined;
      const running = Math.max(0, row.running - 1);
      if (!failed) {
        await c.query('UPDATE login_attempts SET running = $2 WHERE login_key = $1', [login, running]);
        return undefined;
      }
      const wasLocked = row.locked_until_ms > now;
      const failures = (failuresForgotten(row.last_failure_ms, wasLocked, now, o) ? 0 : row.failures) + 1;
      const locks = failures >= o.lockAfter && !wasLocked;
      const until = locks ? now + o.lockMs : row.locked_until_ms;
      await c.query(
        'UPDATE login_attempts SET failures = $2, last_failure_ms = $3, locked_until_ms = $4, running = $5 WHERE login_key = $1',
        [login, failures, now, until, running],
      );
      // Delivered to every instance when this commits.
      if (locks) await c.query('SELECT pg_notify($1, $2)', [CHANNEL, lockAnnouncement(login, until)]);
      return locks ? { failures, until } : undefined;
    });
    if (locked) {
      this.noteLock(login, locked.until);
      this.onLock(login, locked.failures, o.lockMs);
    }
  }

  /** Deletes the rows that no longer count for anything. */
  private async purge(): Promise<void> {
    const now = this.now();
    await this.pool.query(
      `DELETE FROM login_attempts
       WHERE locked_until_ms <= $1 AND last_failure_ms < $1 - $2 AND (running = 0 OR running_since_ms < $1 - $3)`,
      [now, this.options.windowMs, RUNNING_STALE_MS],
    );
  }

  close(): void {
    clearInterval(this.purgeTimer);
  }
}
