/**
 * Trying again after a transient failure (see errors.ts): how long to wait, and for how long a sync
 * may keep trying.
 *
 * - The pause honours the service's `Retry-After` (seconds or an HTTP date, capped); otherwise it is an
 *   exponential backoff with full jitter, so that many clients that lost the service at once do not
 *   come back at once.
 * - A sync has a budget: it gives up once the service has been failing for `unavailableMs` in a row
 *   (since the sync began or since its last good answer), and at its deadline whatever happens. A wait
 *   that would end beyond either is not begun: the last failure is thrown as RetriesExhausted.
 * - Every wait is announced (for the countdown the screens and the command line show) and ends early,
 *   with CancelledError, when the sync is cancelled.
 */
import type { CauseParams } from '../../../src-shared/app-api/errors';
import { CallError, CancelledError, formatSeconds } from './errors';

export interface RetryPolicy {
  /** First pause; it doubles with each further failure in a row, up to maxBackoffMs (with full jitter). */
  backoffMs: number;
  /** Longest pause, and the cap on a Retry-After the service asks for. */
  maxBackoffMs: number;
  /** Tries of one read in all, the first included, before its failure counts (within the budget too). */
  attempts: number;
}

export const DEFAULT_RETRY: RetryPolicy = { backoffMs: 250, maxBackoffMs: 30_000, attempts: 12 };

/** `Retry-After` in milliseconds from now: delay-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text), 86_400) * 1000;
  // IMF-fixdate and the obsolete forms Date.parse reads; a date in the past means "now".
  if (!/^[A-Za-z]{3},? /.test(text)) return null;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The pause before try `attempt + 1` after `attempt` failures in a row. */
export function backoffDelay(policy: RetryPolicy, attempt: number, error: unknown, random: () => number = Math.random): number {
  const asked = error instanceof CallError ? error.retryAfterMs : null;
  if (asked !== null) return Math.min(asked, policy.maxBackoffMs);
  const ceiling = Math.min(policy.maxBackoffMs, policy.backoffMs * 2 ** Math.max(0, attempt - 1));
  // Full jitter, with a floor so that a try never follows the last at once.
  return Math.round(Math.max(policy.backoffMs / 4, random() * ceiling));
}

/** A wait the budget announced: the screens count down to `until`. */
export interface RetryWait {
  /** Epoch milliseconds when the next try starts. */
  until: number;
  /** Why, in words (for the command line and logs). */
  reason: string;
  /** Why, as data (for the screens, in the user's language). */
  cause: WaitCause;
  /** The HTTP status of the answer waited out, if there was one. */
  httpStatus: number | null;
  /** Failures in a row so far. */
  attempt: number;
}

/** What a wait is about: the connection, a time limit, the service's "try later", or an unreadable answer. */
export type WaitCause = 'network' | 'timeout' | 'unavailable' | 'malformed';

function causeOf(error: CallError): { cause: WaitCause; httpStatus: number | null } {
  const status = 'httpStatus' in error && typeof error.httpStatus === 'number' ? error.httpStatus : null;
  switch (error.kind) {
    case 'timeout':
      return { cause: 'timeout', httpStatus: null };
    case 'unavailable':
      return { cause: 'unavailable', httpStatus: status };
    case 'malformed':
      return { cause: 'malformed', httpStatus: status };
    default:
      return { cause: 'network', httpStatus: null };
  }
}

export interface RetryBudgetOptions {
  /** How long the service may keep failing in a row before the sync gives up. */
  unavailableMs: number;
  /** Epoch milliseconds after which no try starts and no wait is begun; null for none. */
  deadline?: number | null;
  signal?: AbortSignal;
  onWait?: (wait: RetryWait) => void;
  now?: () => number;
  random?: () => number;
}

/** The budget ran out while the service kept failing: `last` is the last failure. */
export class RetriesExhausted extends Error {
  override name = 'RetriesExhausted';
  constructor(
    readonly last: CallError,
    readonly reason: 'budget' | 'deadline',
    message: string,
  ) {
    super(message);
  }

  /** Why, in words of no language: the last failure's cause. */
  get why(): CauseParams {
    return this.last.why;
  }
}

export class RetryBudget {
  private failingSince: number | null = null;
  private readonly now: () => number;
  private readonly random: () => number;

  constructor(
    readonly policy: RetryPolicy,
    private readonly options: RetryBudgetOptions,
  ) {
    this.now = options.now ?? Date.now;
    this.random = options.random ?? Math.random;
  }

  get signal(): AbortSignal | undefined {
    return this.options.signal;
  }

  get deadline(): number | null {
    return this.options.deadline ?? null;
  }

  /** Milliseconds until the deadline (Infinity without one). */
  remainingMs(): number {
    return this.deadline === null ? Infinity : Math.max(0, this.deadline - this.now());
  }

  /** Throws CancelledError once the sync is cancelled. */
  throwIfCancelled(operation = 'sync'): void {
    if (this.options.signal?.aborted) throw new CancelledError(operation, false);
  }

  /** A good answer: the service is back, the count of failing time starts again. */
  succeeded(): void {
    this.failingSince = null;
  }

  /**
   * Waits before trying again after `error` (the `attempt`-th failure in a row of one task). Throws
   * RetriesExhausted when the wait would end past the budget or the deadline, CancelledError when the
   * sync is cancelled meanwhile.
   */
  async pause(error: CallError, attempt: number): Promise<void> {
    this.throwIfCancelled(error.operation);
    const now = this.now();
    this.failingSince ??= now;
    const delay = backoffDelay(this.policy, attempt, error, this.random);
    const until = now + delay;
    if (until > this.failingSince + this.options.unavailableMs) {
      const asked = error.retryAfterMs;
      const why = asked !== null && asked > delay ? ` It asks to wait ${formatSeconds(asked)}.` : '';
      throw new RetriesExhausted(error, 'budget', `${error.message} It kept failing for ${formatSeconds(now - this.failingSince)}.${why}`);
    }
    if (this.deadline !== null && until > this.deadline) {
      throw new RetriesExhausted(error, 'deadline', `${error.message} The sync reached its time limit.`);
    }
    this.options.onWait?.({ until, reason: error.message, attempt, ...causeOf(error) });
    await cancellableSleep(delay, this.options.signal, error.operation);
  }
}

/** Sleeps `ms`, or rejects with CancelledError as soon as `signal` aborts. */
export function cancellableSleep(ms: number, signal: AbortSignal | undefined, operation = 'sync'): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new CancelledError(operation, false));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new CancelledError(operation, false));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A budget for one-off calls outside a sync (connect, tests): a few quick tries. */
export function quickBudget(policy: RetryPolicy = DEFAULT_RETRY): RetryBudget {
  return new RetryBudget(policy, { unavailableMs: 10_000 });
}

export function isTransient(error: unknown): error is CallError {
  return error instanceof CallError && error.transient;
}

/**
 * Runs a read until it succeeds, trying again after transient failures within the budget (and at
 * most `policy.attempts` times). Verdicts and other failures are thrown at once.
 */
export async function withRetry<T>(read: () => Promise<T>, budget: RetryBudget = quickBudget()): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    budget.throwIfCancelled();
    try {
      const value = await read();
      budget.succeeded();
      return value;
    } catch (e) {
      if (!isTransient(e)) throw e;
      // Out of tries, the last failure is the answer (still transient: the sync may go on later).
      if (attempt >= budget.policy.attempts) throw e;
      await budget.pause(e, attempt);
    }
  }
}
