/**
 * Screens' chunks read ahead in idle time (src-renderer/src/logic/idle-prefetch.ts): each in an idle period of
 * its own, one at a time, in order; a chunk that fails to load does not stop the others, and the screen whose
 * chunk failed still opens when navigated to (its own load tries again).
 */
import { describe, expect, it } from 'vitest';
import { createMemoryHistory, createRouter } from 'vue-router';
import { prefetchWhenIdle, type WhenIdle } from '../../src-renderer/src/logic/idle-prefetch';
import { until } from '../support/until';

/** Idle periods handed out by the test: each `run()` lets the next waiting load start. */
function idlePeriods() {
  const waiting: (() => void)[] = [];
  const whenIdle: WhenIdle = (work) => void waiting.push(work);
  return { whenIdle, waiting, run: () => waiting.shift()?.() };
}

/** A load the test settles by hand, recording when it started. */
function manualLoad(log: string[], name: string) {
  let settle: { resolve: (v: unknown) => void; reject: (e: unknown) => void } | undefined;
  const load = () =>
    new Promise((resolve, reject) => {
      log.push(`start ${name}`);
      settle = { resolve, reject };
    });
  return { load, resolve: () => settle!.resolve({ default: {} }), reject: () => settle!.reject(new Error(`${name} is gone`)) };
}

describe('prefetchWhenIdle', () => {
  it('loads each chunk in an idle period of its own, the next only after the one before settled', async () => {
    const idle = idlePeriods();
    const log: string[] = [];
    const a = manualLoad(log, 'a');
    const b = manualLoad(log, 'b');
    const done = prefetchWhenIdle([a.load, b.load], { whenIdle: idle.whenIdle });
    await until('an idle period asked for', () => idle.waiting.length === 1);
    // Nothing before the page is idle.
    expect(log).toEqual([]);
    idle.run();
    await until('a started', () => log.length === 1);
    // While a loads, b waits: not even an idle period is asked for it yet.
    expect(idle.waiting).toHaveLength(0);
    a.resolve();
    await until('an idle period asked for b', () => idle.waiting.length === 1);
    expect(log).toEqual(['start a']);
    idle.run();
    await until('b started', () => log.length === 2);
    expect(log).toEqual(['start a', 'start b']);
    b.resolve();
    await expect(done).resolves.toBeUndefined();
  });

  it('passes over idle periods while it may not load (calls to the core awaited)', async () => {
    const idle = idlePeriods();
    const log: string[] = [];
    const a = manualLoad(log, 'a');
    let calls = 1;
    const done = prefetchWhenIdle([a.load], { whenIdle: idle.whenIdle, ready: () => calls === 0 });
    await until('an idle period asked for', () => idle.waiting.length === 1);
    idle.run();
    // Not now: the next idle period is asked for instead.
    await until('another idle period asked for', () => idle.waiting.length === 1);
    expect(log).toEqual([]);
    calls = 0;
    idle.run();
    await until('a started', () => log.length === 1);
    a.resolve();
    await done;
  });

  it('goes on past a chunk that fails, and the screen of that chunk still opens', async () => {
    const idle = idlePeriods();
    const log: string[] = [];
    const later = manualLoad(log, 'later');
    const Reports = { name: 'ReportsStandIn', render: () => null };
    let attempts = 0;
    // Fails when read ahead (a dropped connection), loads when the screen is opened.
    const reports = () => (++attempts === 1 ? Promise.reject(new Error('network')) : Promise.resolve({ default: Reports }));
    const done = prefetchWhenIdle([reports, later.load], { whenIdle: idle.whenIdle });
    await until('an idle period asked for', () => idle.waiting.length === 1);
    idle.run();
    // The failed one is passed over: the next asks for its idle period and loads.
    await until('an idle period asked for the next', () => idle.waiting.length === 1);
    idle.run();
    await until('the next started', () => log.length === 1);
    expect(log).toEqual(['start later']);
    later.resolve();
    await done;

    const router = createRouter({
      history: createMemoryHistory(),
      routes: [
        { path: '/', component: { render: () => null } },
        { path: '/reports', component: reports },
      ],
    });
    await router.push('/reports');
    expect(router.currentRoute.value.path).toBe('/reports');
    expect(router.currentRoute.value.matched[0]!.components!.default).toBe(Reports);
    expect(attempts).toBe(2);
  });
});
