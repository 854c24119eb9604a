/**
 * The adaptive limiter against simulated services (simulated time: no test depends on this machine's
 * speed): on a long fat pipe it grows to its cap, on a service with little capacity it stays near what
 * the service can take, a transient failure halves it and it recovers, and a cap of 1 means one at a time.
 */
import { describe, expect, it } from 'vitest';
import { createAdaptiveLimiter, type AdaptiveLimitOptions } from '../../src-main/core/util/adaptive-limiter';

/** A service `rtt` ms away that works on `capacity` requests at once, `serviceMs` each; events in time order. */
class SimulatedService {
  now = 0;
  inFlight = 0;
  maxInFlight = 0;
  private events: { at: number; done: () => void }[] = [];

  constructor(
    private readonly rtt: number,
    private readonly serviceMs: number,
    private readonly capacity: number,
  ) {}

  request(fail = false): Promise<void> {
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const queueing = this.serviceMs * Math.max(1, this.inFlight / this.capacity);
    return new Promise((resolve, reject) => {
      this.events.push({
        at: this.now + this.rtt + queueing,
        done: () => {
          this.inFlight--;
          if (fail) reject(new Error('503'));
          else resolve();
        },
      });
    });
  }

  /** Runs events until none are left (letting the limiter start what it may after each). */
  async drain(): Promise<void> {
    for (;;) {
      await new Promise((r) => setImmediate(r));
      if (this.events.length === 0) return;
      this.events.sort((a, b) => a.at - b.at);
      const next = this.events.shift()!;
      this.now = next.at;
      next.done();
    }
  }
}

function run(service: SimulatedService, count: number, options: Partial<AdaptiveLimitOptions> = {}) {
  const limiter = createAdaptiveLimiter({ initial: 4, max: 32, now: () => service.now, isOverload: () => true, ...options });
  const limits: number[] = [];
  const all = Promise.allSettled(
    Array.from({ length: count }, () =>
      limiter(() => {
        limits.push(limiter.limit);
        return service.request();
      }),
    ),
  );
  return { limiter, limits, all };
}

describe('the adaptive limiter', () => {
  it('grows to its cap on a long fat pipe (50 ms away, a service that keeps up)', async () => {
    const service = new SimulatedService(50, 1, 1000);
    const { limiter, all } = run(service, 400);
    await service.drain();
    await all;
    expect(limiter.limit).toBe(32);
    expect(service.maxInFlight).toBe(32);
    // 400 requests at up to 32 at once cost a few dozen round trips, not 400.
    expect(service.now).toBeLessThan(40 * 51);
  });

  it('stays near what a service with little capacity takes (4 at once, 10 ms each, 1 ms away)', async () => {
    const service = new SimulatedService(1, 10, 4);
    const { limiter, all } = run(service, 400);
    await service.drain();
    await all;
    expect(limiter.limit).toBeLessThanOrEqual(12);
    expect(limiter.limit).toBeGreaterThanOrEqual(2);
  });

  it('halves on a transient failure and recovers afterwards', async () => {
    const service = new SimulatedService(50, 1, 1000);
    const limiter = createAdaptiveLimiter({
      initial: 32,
      max: 32,
      now: () => service.now,
      isOverload: (e) => (e as Error).message === '503',
    });
    const failures = Promise.allSettled(Array.from({ length: 3 }, () => limiter(() => service.request(true))));
    await service.drain();
    await failures;
    expect(limiter.limit).toBe(4);
    const ok = Promise.all(Array.from({ length: 300 }, () => limiter(() => service.request())));
    await service.drain();
    await ok;
    expect(limiter.limit).toBe(32);
  });

  it('a cap of 1 runs one request at a time, whatever the latency', async () => {
    const service = new SimulatedService(50, 1, 1000);
    const { limits, all } = run(service, 50, { max: 1 });
    await service.drain();
    await all;
    expect(service.maxInFlight).toBe(1);
    expect(new Set(limits)).toEqual(new Set([1]));
  });
});
