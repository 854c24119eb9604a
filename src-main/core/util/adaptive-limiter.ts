/**
 * Parallelism that adapts to the round trip: how many requests may be in flight at once, learned from
 * how long they take (a gradient rule, after Netflix's concurrency-limits).
 *
 * On a long, fat pipe (50-150 ms between the app and a service that keeps up) a request's latency stays
 * near the smallest seen however many are in flight, so the limit grows towards `max`: the sync costs
 * round trips, not requests. When the service starts queueing, latency rises above the smallest seen
 * and the limit shrinks in proportion; a transient failure (the service or a proxy overloaded) halves
 * it at once. So the app fills a slow link and does not pile onto a busy service.
 *
 * After each completed request with latency `rtt`, with `minRtt` the smallest latency seen:
 *   gradient = clamp(tolerance * minRtt / rtt, 0.5, 1)
 *   target   = limit * gradient + sqrt(limit)            (sqrt(limit): room to probe for more)
 *   limit    = limit * (1 - smoothing) + target * smoothing, within [min, max]
 */

export interface AdaptiveLimitOptions {
  /** Requests in flight at first. */
  initial: number;
  /** The cap, never exceeded (1: one request at a time, whatever the latency). */
  max: number;
  /** The floor (default 1). */
  min?: number;
  /** Latency this many times the smallest seen still counts as "not queueing" (default 2). */
  tolerance?: number;
  /** Weight of each new sample (default 0.2). */
  smoothing?: number;
  /** Whether a failure means "overloaded" (halve the limit); others leave it as it is. */
  isOverload?: (error: unknown) => boolean;
  /** The clock in ms (tests simulate time). */
  now?: () => number;
}

export interface AdaptiveLimiter {
  /** Runs `task` when a slot is free; tasks wait their turn in order. */
  <T>(task: () => Promise<T>): Promise<T>;
  /** Requests that may be in flight now (whole number, from min to max). */
  readonly limit: number;
  /** Requests in flight now. */
  readonly inFlight: number;
}

export function createAdaptiveLimiter(options: AdaptiveLimitOptions): AdaptiveLimiter {
  const max = Math.max(1, Math.floor(options.max));
  const min = Math.min(max, Math.max(1, Math.floor(options.min ?? 1)));
  const tolerance = options.tolerance ?? 2;
  const smoothing = options.smoothing ?? 0.2;
  const now = options.now ?? (() => performance.now());
  let estimate = Math.min(max, Math.max(min, options.initial));
  let minRtt = Infinity;
  let active = 0;
  const queue: (() => void)[] = [];

  const current = () => Math.max(min, Math.min(max, Math.floor(estimate)));
  const next = () => {
    while (active < current() && queue.length > 0) {
      active++;
      queue.shift()!();
    }
  };
  const completed = (rtt: number) => {
    minRtt = Math.min(minRtt, Math.max(rtt, 0.001));
    const gradient = Math.max(0.5, Math.min(1, (tolerance * minRtt) / Math.max(rtt, 0.001)));
    const target = estimate * gradient + Math.sqrt(estimate);
    estimate = Math.max(min, Math.min(max, estimate * (1 - smoothing) + target * smoothing));
  };
  const failed = (error: unknown) => {
    if (options.isOverload?.(error)) estimate = Math.max(min, estimate / 2);
  };

  const limiter = (<T>(task: () => Promise<T>) =>
    new Promise<T>((resolve, reject) => {
      queue.push(() => {
        const started = now();
        let run: Promise<T>;
        try {
          run = task();
        } catch (e) {
          run = Promise.reject(e);
        }
        run
          .then(
            (value) => {
              completed(now() - started);
              resolve(value);
            },
            (error: unknown) => {
              failed(error);
              reject(error);
            },
          )
          .finally(() => {
            active--;
            next();
          });
      });
      next();
    })) as AdaptiveLimiter;
  Object.defineProperties(limiter, {
    limit: { get: current },
    inFlight: { get: () => active },
  });
  return limiter;
}

/** A transient failure of a call (the service or a proxy overloaded or unreachable): the limiter backs off. */
export function isTransientFailure(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { transient?: unknown }).transient === true;
}
