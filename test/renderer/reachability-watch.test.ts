/**
 * When the badge asks whether the service answers: on focus, on the system's online/offline events and
 * every minute while it says unreachable, never more often than once a minute. Time moves by hand.
 */
import { describe, expect, it } from 'vitest';
import { CHECK_INTERVAL_MS, createReachabilityWatch } from '../../src-renderer/src/logic/reachability-watch';
import { FakeClock, settle } from './fake-clock';

function setup() {
  const clock = new FakeClock();
  const checks: number[] = [];
  const watch = createReachabilityWatch({
    clock,
    check: async () => {
      checks.push(clock.now());
    },
  });
  return { clock, checks, watch };
}

const MINUTE = CHECK_INTERVAL_MS;

describe('the reachability watch', () => {
  it('checks on focus, then not again within the minute however often the focus comes back', async () => {
    const { clock, checks, watch } = setup();
    watch.trigger('focus');
    await settle();
    expect(checks).toEqual([0]);
    for (let i = 0; i < 5; i++) {
      await clock.advance(10_000);
      watch.trigger('focus');
    }
    // 50 s later: five focus events, no check; a focus within the minute is not kept for later.
    expect(checks).toEqual([0]);
    expect(clock.pending).toBe(0);
    await clock.advance(MINUTE);
    expect(checks).toEqual([0]);
    watch.trigger('focus');
    await settle();
    expect(checks).toEqual([0, 110_000]);
  });

  it('checks on online and offline at once, or as soon as the minute since the last check is up', async () => {
    const { clock, checks, watch } = setup();
    watch.trigger('offline');
    await settle();
    expect(checks).toEqual([0]);
    await clock.advance(20_000);
    watch.trigger('online');
    watch.trigger('offline');
    watch.trigger('online');
    await settle();
    // Three changes within the minute: one check, when it is up.
    expect(checks).toEqual([0]);
    await clock.advance(39_999);
    expect(checks).toEqual([0]);
    await clock.advance(1);
    expect(checks).toEqual([0, MINUTE]);
    await clock.advance(5 * MINUTE);
    expect(checks).toEqual([0, MINUTE]);
    watch.trigger('online');
    await settle();
    expect(checks).toEqual([0, MINUTE, 6 * MINUTE]);
  });

  it('checks every minute while the badge says unreachable, and stops when it no longer does', async () => {
    const { clock, checks, watch } = setup();
    watch.trigger('focus');
    await settle();
    await clock.advance(15_000);
    watch.setUnreachable(true);
    await clock.advance(45_000);
    expect(checks).toEqual([0, MINUTE]);
    await clock.advance(2 * MINUTE);
    expect(checks).toEqual([0, MINUTE, 2 * MINUTE, 3 * MINUTE]);
    // A focus between them adds none.
    await clock.advance(30_000);
    watch.trigger('focus');
    await settle();
    expect(checks).toHaveLength(4);
    watch.setUnreachable(false);
    expect(clock.pending).toBe(0);
    await clock.advance(10 * MINUTE);
    expect(checks).toHaveLength(4);
  });

  it('starts no check while one runs, plans the next a minute after it started, and none once stopped', async () => {
    const clock = new FakeClock();
    const started: number[] = [];
    let finish: () => void = () => undefined;
    const watch = createReachabilityWatch({
      clock,
      check: () => {
        started.push(clock.now());
        return new Promise<void>((resolve) => (finish = resolve));
      },
    });
    watch.setUnreachable(true);
    await clock.advance(0);
    expect(started).toEqual([0]);
    // The check hangs for two minutes (a timeout): no second one meanwhile.
    await clock.advance(2 * MINUTE);
    watch.trigger('online');
    expect(started).toEqual([0]);
    finish();
    await settle();
    // Its minute is long up: the next one at once.
    await clock.advance(0);
    expect(started).toEqual([0, 2 * MINUTE]);
    watch.stop();
    finish();
    await clock.advance(10 * MINUTE);
    watch.trigger('focus');
    expect(started).toEqual([0, 2 * MINUTE]);
    expect(clock.pending).toBe(0);
  });
});
