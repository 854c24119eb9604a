/**
 * Slowing down and then refusing guesses at one login.
 *
 * Failures are counted per login (case-folded, whether or not such a user exists, so that throttling
 * says nothing about which logins exist). From `slowAfter` failures on, each further verification of
 * that login waits `baseDelayMs * 2^(failures - slowAfter)`, capped at `maxDelayMs`; at `lockAfter`
 * failures the login is refused outright for `lockMs`, even with the right password. Failures are
 * forgotten `windowMs` after the last one, and only then: a success does not clear them, or guesses
 * interleaved with the owner's own calls (a syncing app verifies the right password every minute) would
 * never reach the lock.
 *
 * Locks live apart from the failure counts: counts are bounded (`maxTracked`, the least recently
 * failed forgotten first), but a lock is kept until it expires, so that flooding the throttle with
 * failures of thousands of other logins cannot evict it.
 *
 * Verifications of one login run one at a time in a process (LoginQueues, held by the Authenticator), so
 * that parallel guesses cannot slip past the count, while a client's parallel first calls cost one scrypt:
 * the ones that waited find the password already verified.
 *
 * This throttle lives in the service's process: right for one process on a SQLite file. Instances
 * sharing a PostgreSQL database share theirs through it instead (store/postgres/login-attempts.ts); both
 * are a LoginGuard to the credential check.
 */
import type { Maybe } from '../store/flow';

/** One verification's place in the throttle: how long it waits first, and its outcome once known. */
export interface Attempt {
  delayMs: number;
  /** The verification is over: `failed` when the credentials were wrong (counted, and may lock the login). */
  end(failed: boolean): Maybe<void>;
}

/**
 * Why no verification may run now: the login is locked (a verdict: refused like wrong credentials), or
 * the verifications of it already running elsewhere could lock it by themselves (not a verdict: the
 * caller is told to try again).
 */
export type NoAttempt = 'locked' | 'busy';

/** What the credential check asks of a login throttle. */
export interface LoginGuard {
  readonly options: ThrottleOptions;
  /** Whether the login is locked now: at once where this process knows, a promise where it must ask. */
  isLocked(login: string): Maybe<boolean>;
  /** A verification about to run, or why none may. */
  attempt(login: string): Maybe<Attempt | NoAttempt>;
}
export interface ThrottleOptions {
  slowAfter: number;
  baseDelayMs: number;
  maxDelayMs: number;
  lockAfter: number;
  lockMs: number;
  windowMs: number;
  /** Most logins tracked; the least recently failed are forgotten first. */
  maxTracked: number;
  /** Most verifications of one login waiting their turn; more are refused. */
  maxQueued: number;
}

export const DEFAULT_THROTTLE_OPTIONS: ThrottleOptions = {
  slowAfter: 3,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  lockAfter: 10,
  lockMs: 5 * 60_000,
  windowMs: 15 * 60_000,
  maxTracked: 10_000,
  maxQueued: 32,
};

interface Entry {
  failures: number;
  lastFailure: number;
}

/** How long a verification waits after `failures` failures, in ms. */
export function delayAfter(failures: number, options: ThrottleOptions): number {
  const { slowAfter, baseDelayMs, maxDelayMs } = options;
  if (failures < slowAfter) return 0;
  return Math.min(maxDelayMs, baseDelayMs * 2 ** Math.min(failures - slowAfter, 30));
}

/** Whether failures whose last one was at `lastFailure` are forgotten by `now` (a locked login's never are). */
export function failuresForgotten(lastFailure: number, locked: boolean, now: number, options: ThrottleOptions): boolean {
  return !locked && now - lastFailure > options.windowMs;
}

/**
 * Verifications waiting their turn, per login: each runs after every earlier one of the same login has
 * finished; more than `maxQueued` waiting are refused (undefined, without running).
 */
export class LoginQueues {
  private readonly queues = new Map<string, { tail: Promise<unknown>; waiting: number }>();

  constructor(private readonly maxQueued: number) {}

  async serialize<T>(login: string, task: () => Promise<T>): Promise<{ value: T } | undefined> {
    let q = this.queues.get(login);
    if (q && q.waiting >= this.maxQueued) return undefined;
    if (!q) {
      q = { tail: Promise.resolve(), waiting: 0 };
      this.queues.set(login, q);
    }
    const queue = q;
    queue.waiting += 1;
    const run = queue.tail.then(task);
    queue.tail = run.catch(() => undefined);
    try {
      return { value: await run };
    } finally {
      queue.waiting -= 1;
      if (queue.waiting === 0) this.queues.delete(login);
    }
  }
}

/** Locked logins and until when (ms): never evicted, only expired. */
export class LockedLogins {
  private readonly until = new Map<string, number>();
  constructor(private readonly now: () => number) {}

  /** Keeps a lock that is still in force. */
  note(login: string, until: number): void {
    if (until > this.now()) this.until.set(login, until);
  }

  has(login: string): boolean {
    const until = this.until.get(login);
    if (until === undefined) return false;
    if (until > this.now()) return true;
    this.until.delete(login);
    return false;
  }

  /** Forgets the expired locks. */
  sweep(): void {
    const now = this.now();
    for (const [login, until] of this.until) if (until <= now) this.until.delete(login);
  }

  get size(): number {
    return this.until.size;
  }
}

export class LoginThrottle implements LoginGuard {
  private readonly entries = new Map<string, Entry>();
  private readonly locks: LockedLogins;
  readonly options: ThrottleOptions;

  constructor(
    options: Partial<ThrottleOptions> = {},
    private readonly now: () => number = Date.now,
    private readonly onLock: (login: string, failures: number, ms: number) => void = () => {},
  ) {
    this.options = { ...DEFAULT_THROTTLE_OPTIONS, ...options };
    this.locks = new LockedLogins(now);
  }

  private entry(login: string): Entry | undefined {
    const e = this.entries.get(login);
    if (e && failuresForgotten(e.lastFailure, this.isLocked(login), this.now(), this.options)) {
      this.entries.delete(login);
      return undefined;
    }
    return e;
  }

  isLocked(login: string): boolean {
    return this.locks.has(login);
  }

  /** Logins locked now (for tests and diagnostics). */
  get lockedCount(): number {
    this.locks.sweep();
    return this.locks.size;
  }

  /** How long the next verification of this login waits, in ms. */
  delayFor(login: string): number {
    return delayAfter(this.entry(login)?.failures ?? 0, this.options);
  }

  attempt(login: string): Attempt | NoAttempt {
    if (this.isLocked(login)) return 'locked';
    return {
      delayMs: this.delayFor(login),
      end: (failed) => {
        if (failed) this.recordFailure(login);
      },
    };
  }

  recordFailure(login: string): void {
    const now = this.now();
    const e = this.entry(login) ?? { failures: 0, lastFailure: now };
    e.failures += 1;
    e.lastFailure = now;
    if (e.failures >= this.options.lockAfter && !this.isLocked(login)) {
      // Expired locks go when new ones come, so the map holds only what is locked now.
      if (this.locks.size >= this.options.maxTracked) this.locks.sweep();
      this.locks.note(login, now + this.options.lockMs);
      this.onLock(login, e.failures, this.options.lockMs);
    }
    // Re-inserting keeps the Map in order of last failure, so eviction drops the stalest login.
    this.entries.delete(login);
    this.entries.set(login, e);
    if (this.entries.size > this.options.maxTracked) this.entries.delete(this.entries.keys().next().value!);
  }
}
