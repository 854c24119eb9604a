/**
 * The badge that knows, as the screens wire it: the window's focus and the system's online/offline events
 * ask the core (checkReachability) through the watch's timing, the answer's status is the badge's, and
 * while the badge says unreachable the core is asked every minute. Time moves by hand.
 */
import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useConnectionBadge } from '../../src-renderer/src/composables/connection-badge';
import { CHECK_INTERVAL_MS } from '../../src-renderer/src/logic/reachability-watch';
import { useReachabilityStore, type EventSource } from '../../src-renderer/src/stores/reachability';
import { useStatusStore } from '../../src-renderer/src/stores/status';
import type { ExchangeOutcome, ReachabilityCheck } from '../../src-shared/app-api';
import { FakeClock, settle } from './fake-clock';
import { standIn, status } from './stand-in';

/** A window: events dispatched by hand, the focus as the test sets it. */
function fakeWindow(focused: boolean): EventSource & EventTarget {
  const target = new EventTarget() as EventTarget & { document: Pick<Document, 'hasFocus'> };
  target.document = { hasFocus: () => focused };
  return target;
}

let outcome: ExchangeOutcome = 'unreachable';
let asked = 0;
const answer = (): ReachabilityCheck => {
  asked++;
  return {
    checked: true,
    outcome,
    status: status({ exchange: { outcome, at: '2026-11-27T10:00:00', via: 'check', lastSuccessAt: null, error: null } }),
  };
};

beforeEach(() => {
  setActivePinia(createPinia());
  outcome = 'unreachable';
  asked = 0;
  standIn({ checkReachability: async () => answer() });
});
afterEach(() => useReachabilityStore().stop(fakeWindow(false)));

describe('the reachability store', () => {
  it('asks on opening with the focus, puts the answer in the badge, and asks every minute while it says unreachable', async () => {
    const clock = new FakeClock();
    const win = fakeWindow(true);
    useStatusStore().status = status();
    const badge = useConnectionBadge();
    useReachabilityStore().start(clock, win);
    await settle();
    expect(asked).toBe(1);
    expect(badge.value?.kind).toBe('unreachable');
    await clock.advance(CHECK_INTERVAL_MS);
    expect(asked).toBe(2);
    // The service is back: the next check says so, and the minute's checks stop.
    outcome = 'connected';
    await clock.advance(CHECK_INTERVAL_MS);
    expect(asked).toBe(3);
    expect(badge.value?.kind).toBe('connected');
    await clock.advance(10 * CHECK_INTERVAL_MS);
    expect(asked).toBe(3);
  });

  it('the focus and the network events ask, at most once a minute', async () => {
    outcome = 'connected';
    const clock = new FakeClock();
    const win = fakeWindow(false);
    useStatusStore().status = status();
    useReachabilityStore().start(clock, win);
    await settle();
    // Opened without the focus: nothing asked until the window gains it.
    expect(asked).toBe(0);
    win.dispatchEvent(new Event('focus'));
    await settle();
    expect(asked).toBe(1);
    await clock.advance(1000);
    win.dispatchEvent(new Event('focus'));
    win.dispatchEvent(new Event('offline'));
    win.dispatchEvent(new Event('online'));
    await settle();
    expect(asked).toBe(1);
    // The network changed within the minute: asked once it is up.
    await clock.advance(CHECK_INTERVAL_MS - 1000);
    expect(asked).toBe(2);
    useReachabilityStore().stop(win);
    win.dispatchEvent(new Event('online'));
    await clock.advance(10 * CHECK_INTERVAL_MS);
    expect(asked).toBe(2);
  });
});
