/**
 * Waiting in tests: for a condition, never for a time. A fixed sleep is too short on a busy machine (the
 * test flakes) and longer than needed on a quiet one; a condition checked until a deadline is neither. The
 * deadline is far beyond what the condition needs (it is met in milliseconds where it holds): reaching it
 * means the awaited thing does not happen, and the failure names what was awaited and what was seen last.
 */

/** Longer than anything a test waits for takes on a busy 2-core machine, shorter than a test's own timeout (30 s). */
export const DEFAULT_DEADLINE_MS = 15_000;

export interface UntilOptions {
  /** How long to keep checking (default DEFAULT_DEADLINE_MS). */
  deadlineMs?: number;
  /** Pause between checks (default 10 ms). */
  everyMs?: number;
}

export class DeadlineError extends Error {
  override name = 'DeadlineError';
}

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What a check returned or threw, for the failure message. */
function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  if (typeof value === 'string') return JSON.stringify(value);
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Checks `condition` until it returns (or resolves to) a truthy value, and returns that value. A check that
 * throws counts as not yet. At the deadline: a DeadlineError naming `what` and the last result or error.
 */
export async function until<T>(what: string, condition: () => T | Promise<T>, options: UntilOptions = {}): Promise<NonNullable<T>> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const everyMs = options.everyMs ?? 10;
  const deadline = performance.now() + deadlineMs;
  let last: unknown;
  for (;;) {
    try {
      last = await condition();
      if (last) return last as NonNullable<T>;
    } catch (e) {
      last = e;
    }
    if (performance.now() >= deadline) {
      throw new DeadlineError(`Waited ${deadlineMs} ms for ${what}; it did not happen (last seen: ${describe(last)}).`, {
        cause: last,
      });
    }
    await pause(everyMs);
  }
}

/**
 * Runs `check` (expectations that throw until they hold) until it passes, and returns what it returns. At
 * the deadline the last failure is thrown, its message prefixed with what was awaited.
 */
export async function untilPasses<T>(what: string, check: () => T | Promise<T>, options: UntilOptions = {}): Promise<T> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  const everyMs = options.everyMs ?? 10;
  const deadline = performance.now() + deadlineMs;
  for (;;) {
    try {
      return await check();
    } catch (e) {
      if (performance.now() >= deadline) {
        if (e instanceof Error) e.message = `Waited ${deadlineMs} ms for ${what}: ${e.message}`;
        throw e;
      }
    }
    await pause(everyMs);
  }
}

/**
 * The promise's outcome, or a DeadlineError naming `what` when it has not settled by the deadline: for
 * an operation that must end (a cancelled wait, a sync cut off by its own limit) where hanging is the bug.
 */
export async function settles<T>(what: string, promise: Promise<T>, options: Pick<UntilOptions, 'deadlineMs'> = {}): Promise<T> {
  const deadlineMs = options.deadlineMs ?? DEFAULT_DEADLINE_MS;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(`Waited ${deadlineMs} ms for ${what}; it did not end.`)), deadlineMs);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the promise settles while `event` has not happened yet: resolves to true when it does, false once
 * `event` resolves first. For "still waiting" checks, where the event is the one that must release it.
 */
export async function settledBefore(promise: Promise<unknown>, event: Promise<unknown>): Promise<boolean> {
  return Promise.race([
    promise.then(
      () => true,
      () => true,
    ),
    event.then(() => false),
  ]);
}

/**
 * Lets every callback that is due now run: a few turns of the event loop (setImmediate), so that promise
 * chains settled by I/O already received have run, and a rejection nobody handles has been reported
 * (Node reports one once the microtasks of a turn have run). A turn, not a time.
 */
export async function turns(n = 3): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
