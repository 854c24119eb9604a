/**
 * When the screens ask the core whether the service answers (checkReachability), so that the badge knows
 * without a sync: when the window gains focus, when the system goes on or off line, and every minute
 * while the badge says unreachable; never more often than once a minute. The clock is given, so that
 * tests move time by hand.
 */

/** Time and timers: the browser's, or a test's. */
export interface WatchClock {
  /** Milliseconds, monotonic. */
  now(): number;
  setTimeout(run: () => void, ms: number): number;
  clearTimeout(handle: number): void;
}

/**
 * `focus`: the window gained it (or the app opened): checked if a minute has passed, else the last check
 * is fresh enough. `online`, `offline`: the system's network changed: checked now, or as soon as a minute
 * has passed since the last check.
 */
export type CheckReason = 'focus' | 'online' | 'offline';

export interface ReachabilityWatch {
  trigger(reason: CheckReason): void;
  /** The badge says unreachable (checked every minute while it does) or no longer. */
  setUnreachable(unreachable: boolean): void;
  /** Stops its timer: no check after this. */
  stop(): void;
}

export const CHECK_INTERVAL_MS = 60_000;

export function createReachabilityWatch(options: {
  check: () => Promise<void>;
  clock: WatchClock;
  intervalMs?: number;
}): ReachabilityWatch {
  const { check, clock } = options;
  const interval = options.intervalMs ?? CHECK_INTERVAL_MS;
  let lastAt: number | null = null;
  let timer: number | null = null;
  /** A change of the network came within the minute: check once it is up. */
  let wanted = false;
  let unreachable = false;
  let stopped = false;
  /** A check is under way (a slow network: up to its timeout): the next is planned when it is done. */
  let running = false;

  const sinceLast = (): number => (lastAt === null ? Number.POSITIVE_INFINITY : clock.now() - lastAt);

  function clear(): void {
    if (timer !== null) clock.clearTimeout(timer);
    timer = null;
  }

  /** The timer of the next check: when one is wanted or the badge says unreachable, at the end of the minute. */
  function plan(): void {
    clear();
    if (stopped || running || !(wanted || unreachable)) return;
    timer = clock.setTimeout(run, Math.max(0, interval - sinceLast()));
  }

  function run(): void {
    clear();
    wanted = false;
    lastAt = clock.now();
    running = true;
    // The next one is planned once this one is done, a minute after it started.
    void check().finally(() => {
      running = false;
      plan();
    });
  }

  return {
    trigger(reason) {
      if (stopped) return;
      if (sinceLast() >= interval && !running) run();
      else if (reason !== 'focus') {
        wanted = true;
        plan();
      }
    },
    setUnreachable(next) {
      if (next === unreachable) return;
      unreachable = next;
      plan();
    },
    stop() {
      stopped = true;
      clear();
    },
  };
}
