/**
 * The write gate: a write runs at once when nothing else is in flight; with others in flight, writes
 * wait for the window and are let through together, in one turn (so that they share one group commit),
 * early when enough wait or when every open connection waits; with a window of 0 nothing ever waits.
 * (Through a running service the gate is on in every service test: the kill -9 test of crash.test.ts
 * and the interleaved reads and writes of answer-cache.test.ts among them.)
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { WriteGate } from '../../src-service/server/write-gate';

function gate(windowMs: number, load: { inFlight: number; connections: number }, maxBatch = 64): WriteGate {
  return new WriteGate({ windowMs, maxBatch }, { requestsInFlight: () => load.inFlight, connections: () => load.connections });
}

/** Enters the gate and records when the write is let through. */
function enter(g: WriteGate, log: string[], name: string): Promise<void> {
  const waiting = g.enter();
  if (waiting === undefined) {
    log.push(`${name} at once`);
    return Promise.resolve();
  }
  return waiting.then(() => void log.push(name));
}

describe('the write gate', () => {
  it('lets a write through at once when no other request is in flight, or when the window is 0', () => {
    expect(gate(50, { inFlight: 1, connections: 5 }).enter()).toBeUndefined();
    expect(gate(0, { inFlight: 30, connections: 30 }).enter()).toBeUndefined();
  });

  it('holds writes for the window while others are in flight, then lets them all through in one turn', async () => {
    const load = { inFlight: 10, connections: 32 };
    const g = gate(40, load);
    const log: string[] = [];
    const started = performance.now();
    const writes = ['a', 'b', 'c'].map((name) => enter(g, log, name));
    expect(g.size).toBe(3);
    await nextTurn();
    expect(log).toEqual([]);
    // Once one waits, the next waits with it even if it is alone in flight by now.
    load.inFlight = 1;
    writes.push(enter(g, log, 'd'));
    // All four resolve before the turn after the timer's is reached.
    let turnAfter = false;
    await Promise.race(writes).then(() => setImmediate(() => (turnAfter = true)));
    expect(log).toEqual(['a', 'b', 'c', 'd']);
    expect(turnAfter).toBe(false);
    await Promise.all(writes);
    expect(performance.now() - started).toBeGreaterThanOrEqual(35);
    expect(g.size).toBe(0);
  });

  it('opens early when enough writes wait, or when every open connection waits', async () => {
    const log: string[] = [];
    const full = gate(10_000, { inFlight: 10, connections: 32 }, 3);
    await Promise.all(['a', 'b', 'c'].map((name) => enter(full, log, name)));
    expect(log).toEqual(['a', 'b', 'c']);

    const load = { inFlight: 3, connections: 3 };
    const everyone = gate(10_000, load);
    const started = performance.now();
    await Promise.all(['x', 'y', 'z'].map((name) => enter(everyone, log, name)));
    expect(log.slice(3)).toEqual(['x', 'y', 'z']);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
