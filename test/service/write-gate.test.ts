/**
 * The write gate: a write runs at once when nothing else is in flight; with others in flight, writes
 * wait for the window and are let through together, in one turn (so that they share one group commit),
 * early when enough wait or when every connection in use waits; with a window of 0 nothing ever waits.
 * (Through a running service the gate is on in every service test: the kill -9 test of crash.test.ts
 * and the interleaved reads and writes of answer-cache.test.ts among them.)
 */
import { Agent, request } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServiceEndpoint } from '../../src-service/server/endpoint';
import {
  ActiveConnections,
  activeConnections,
  createHttpServer,
  listen,
  openConnections,
  shutdown,
} from '../../src-service/server/http-server';
import { DEFAULT_LIMITS } from '../../src-service/server/limits';
import { WriteGate } from '../../src-service/server/write-gate';
import { turns } from '../support/until';

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

// The gate's window and the connections' spans run on clocks faked here (vitest's fake timers), moved on by
// the test: a window of 40 ms is over exactly when 40 ms have been advanced, however busy the machine.
afterEach(() => void vi.useRealTimers());

describe('the write gate', () => {
  it('lets a write through at once when no other request is in flight, or when the window is 0', () => {
    expect(gate(50, { inFlight: 1, connections: 5 }).enter()).toBeUndefined();
    expect(gate(0, { inFlight: 30, connections: 30 }).enter()).toBeUndefined();
  });

  it('holds writes for the window while others are in flight, then lets them all through in one turn', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const load = { inFlight: 10, connections: 32 };
    const g = gate(40, load);
    const log: string[] = [];
    const writes = ['a', 'b', 'c'].map((name) => enter(g, log, name));
    expect(g.size).toBe(3);
    await turns();
    expect(log).toEqual([]);
    // Once one waits, the next waits with it even if it is alone in flight by now.
    load.inFlight = 1;
    writes.push(enter(g, log, 'd'));
    // Held a millisecond before the window ends...
    await vi.advanceTimersByTimeAsync(39);
    expect(log).toEqual([]);
    expect(g.size).toBe(4);
    // ...and all four let through as it ends, before the turn after the timer's is reached.
    let turnAfter = false;
    const first = Promise.race(writes).then(() => setImmediate(() => (turnAfter = true)));
    vi.advanceTimersByTime(1);
    expect(g.size, 'the gate opened as the window ended').toBe(0);
    await first;
    expect(log).toEqual(['a', 'b', 'c', 'd']);
    expect(turnAfter).toBe(false);
    await Promise.all(writes);
    expect(g.size).toBe(0);
  });

  it('opens early when enough writes wait, or when every connection in use waits', async () => {
    // The window's timer never fires here (the fake clock is not moved): only an early opening lets them through.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const log: string[] = [];
    const full = gate(10_000, { inFlight: 10, connections: 32 }, 3);
    const batch = ['a', 'b', 'c'].map((name) => enter(full, log, name));
    await turns();
    expect(log).toEqual(['a', 'b', 'c']);
    await Promise.all(batch);

    const load = { inFlight: 3, connections: 3 };
    const everyone = gate(10_000, load);
    const all = ['x', 'y', 'z'].map((name) => enter(everyone, log, name));
    await turns();
    expect(log.slice(3)).toEqual(['x', 'y', 'z']);
    await Promise.all(all);
  });
});

describe('the connections in use, which the write gate waits for', () => {
  it('counts each connection with a request in this span or the last once, and drops one left idle', () => {
    let now = 1000;
    const active = new ActiveConnections(100, () => now);
    const [a, b, c] = [{}, {}, {}];
    active.seen(a);
    active.seen(a);
    active.seen(b);
    expect(active.count).toBe(2);
    now += 150;
    // A new span: a and b are still counted from the last one; c is new.
    active.seen(a);
    active.seen(c);
    expect(active.count).toBe(2);
    now += 100;
    active.seen(c);
    // b sent nothing in two spans: gone; a and c sent in the span before.
    expect(active.count).toBe(2);
    now += 100;
    expect(active.count).toBe(1);
    now += 1000;
    expect(active.count).toBe(0);
  });

  it('leaves idle keep-alive connections of a running server out, while they stay open', async () => {
    // The server's count of connections in use reads performance.now(), faked from before it is made.
    vi.useFakeTimers({ toFake: ['performance'] });
    const endpoint = { handle: (_req: unknown, res: { end: (body: string) => void }) => res.end('ok') } as unknown as ServiceEndpoint;
    const server = createHttpServer(endpoint, DEFAULT_LIMITS);
    const { port } = await listen(server, 0, '127.0.0.1');
    const agent = new Agent({ keepAlive: true, maxSockets: 3 });
    const get = () =>
      new Promise<void>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: '/', agent }, (res) => res.resume().on('end', resolve))
          .on('error', reject)
          .end();
      });
    try {
      await Promise.all([get(), get(), get()]);
      expect(openConnections(server)).toBe(3);
      expect(activeConnections(server)).toBe(3);
      // Two spans (100 ms each) and more without a request: open, but not in use.
      vi.advanceTimersByTime(350);
      expect(openConnections(server)).toBe(3);
      expect(activeConnections(server)).toBe(0);
      await get();
      expect(activeConnections(server)).toBe(1);
    } finally {
      agent.destroy();
      await shutdown(server);
    }
  });
});
