/**
 * Answers written at the end of the event loop's turn (answer.ts, `writeAtTurnEnd`, how the service writes
 * the answers of reads): not while the request is handled, nor in its microtasks, but in the turn's check
 * phase, in the order given; an answer another step has given meanwhile stays the one the client gets.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MOST_PUT_OFF, answer, write, writeAtTurnEnd } from '../../src-service/server/answer';
import { send } from '../support/http';
import { until } from '../support/until';

let server: Server | undefined;
afterEach(
  () =>
    new Promise<void>((done) => {
      if (!server) return done();
      server.close(() => done());
      // A request left unanswered by a failing test must not hold the close.
      server.closeAllConnections();
    }),
);

function serve(handler: (res: ServerResponse) => void): Promise<string> {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => handler(res));
  });
  return new Promise((resolve) =>
    server!.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`)),
  );
}

/** A GET of the test server's root, by the project's own test client: its status and body. */
async function get(base: string): Promise<{ status: number; body: string }> {
  const { status, body } = await send(base, { method: 'GET', path: '/', headers: {}, body: '' });
  return { status, body };
}

const text = (status: number, body: string) => answer({ status, contentType: 'text/plain; charset=utf-8', body });

describe('writeAtTurnEnd', () => {
  it('writes the answer once the turn has handled its requests, not at once nor in a microtask', async () => {
    const seen: Record<string, boolean> = {};
    const url = await serve((res) => {
      writeAtTurnEnd(res, text(200, 'first'));
      seen.atOnce = res.headersSent;
      queueMicrotask(() => (seen.inMicrotask = res.headersSent));
      // An immediate set after the answer was put off runs after it, in the same check phase.
      setImmediate(() => (seen.atTurnEnd = res.headersSent));
    });
    expect(await get(url)).toEqual({ status: 200, body: 'first' });
    expect(seen).toEqual({ atOnce: false, inMicrotask: false, atTurnEnd: true });
  });

  it('writes the answers of one turn in the order given', async () => {
    const finished: string[] = [];
    const held: ServerResponse[] = [];
    // The first request is held until the second is in: then both answers are put off in one turn.
    const url = await serve((res) => {
      held.push(res);
      if (held.length < 2) return;
      held.forEach((r, i) => {
        r.once('finish', () => finished.push(`answer ${i + 1}`));
        writeAtTurnEnd(r, text(200, `answer ${i + 1}`));
      });
    });
    const first = get(url);
    await until('the first request is held', () => held.length === 1);
    expect(await Promise.all([first, get(url)])).toEqual([
      { status: 200, body: 'answer 1' },
      { status: 200, body: 'answer 2' },
    ]);
    expect(finished).toEqual(['answer 1', 'answer 2']);
  });

  it('leaves an answer another step gave meanwhile, and writes the rest of the turn', async () => {
    const held: ServerResponse[] = [];
    const url = await serve((res) => {
      held.push(res);
      if (held.length < 2) return;
      writeAtTurnEnd(held[0]!, text(200, 'put off'));
      // Another step answered it first (a failure's answer, say): the put-off answer must not be written over it.
      write(held[0]!, text(503, 'answered first'));
      writeAtTurnEnd(held[1]!, text(200, 'later in the turn'));
    });
    const first = get(url);
    await until('the first request is held', () => held.length === 1);
    expect(await Promise.all([first, get(url)])).toEqual([
      { status: 503, body: 'answered first' },
      { status: 200, body: 'later in the turn' },
    ]);
  });

  it(`writes the answers put off once there are ${MOST_PUT_OFF}, without waiting for the turn's end`, async () => {
    const held: ServerResponse[] = [];
    const sent: boolean[][] = [];
    const url = await serve((res) => {
      held.push(res);
      if (held.length < MOST_PUT_OFF) return;
      held.forEach((r, i) => {
        writeAtTurnEnd(r, text(200, `answer ${i + 1}`));
        if (i >= MOST_PUT_OFF - 2) sent.push(held.map((h) => h.headersSent));
      });
    });
    const answers = Array.from({ length: MOST_PUT_OFF }, () => get(url));
    expect((await Promise.all(answers)).map((a) => a.status)).toEqual(Array(MOST_PUT_OFF).fill(200));
    // One short of the most: none written yet; at the most: all of them, at once.
    expect(sent).toEqual([Array(MOST_PUT_OFF).fill(false), Array(MOST_PUT_OFF).fill(true)]);
  });
});
