/**
 * The browser shell's stream of the core's events, as the renderer's transport reads it: a stream that
 * broke is opened again, and since what the core said meanwhile is lost, every table then counts as
 * changed (with the status as it is then), so that every screen reads again once.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { httpTransport } from '../../src-renderer/src/api/bridge';
import { DATA_TABLES, HTTP_API_PREFIX, HTTP_EVENTS_PATH, HTTP_TOKEN_HEADER, type AppEvent } from '../../src-shared/app-api';
import { status } from './stand-in';

const TOKEN = 't'.repeat(43);
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

/** A stand-in of the shell: the first stream sends one event and breaks, the next ones stay open; getStatus answers. */
async function shell(): Promise<{ base: string; streams: () => number; statusReads: () => number }> {
  const open = new Set<ServerResponse>();
  let streams = 0;
  let statusReads = 0;
  const server = createServer((req, res) => {
    if (req.headers[HTTP_TOKEN_HEADER] !== TOKEN) return void res.writeHead(403).end();
    if (req.url === HTTP_EVENTS_PATH) {
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      if (++streams === 1) return void res.end(`${JSON.stringify({ type: 'sync-started' })}\n`);
      res.write('\n');
      open.add(res);
      return;
    }
    if (req.url === `${HTTP_API_PREFIX}getStatus`) {
      statusReads++;
      return void res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ ok: true, value: status() }));
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(async () => {
    for (const res of open) res.end();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, streams: () => streams, statusReads: () => statusReads };
}

describe('the browser shell’s event stream', () => {
  it('once a broken stream is back, every table counts as changed, with the status as it is then', async () => {
    const s = await shell();
    const events: AppEvent[] = [];
    const stop = httpTransport(TOKEN, s.base).onEvent((e) => events.push(e));
    closers.unshift(async () => stop());
    await vi.waitFor(() => expect(events).toHaveLength(2), { timeout: 10_000, interval: 20 });
    // The first stream opened is no resumption: nothing was missed before it.
    expect(events[0]).toEqual({ type: 'sync-started' });
    expect(events[1]).toEqual({ type: 'data-changed', status: status(), tables: [...DATA_TABLES] });
    expect(s.streams()).toBe(2);
    expect(s.statusReads()).toBe(1);
  });
});
