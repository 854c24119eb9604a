/** Writing answers: the body encoded once, its headers made once, so that a cached answer is written as is. */
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { faultHeaders, type WireResponse } from '../../src-shared/wire';

const COMMON_HEADERS = { 'Cache-Control': 'private, max-age=0', 'X-Content-Type-Options': 'nosniff' };

/** An answer ready to write: the body encoded once, its headers made once (a cached answer is reused as is). */
export interface Answer {
  status: number;
  headers: OutgoingHttpHeaders;
  payload: Buffer;
}

export function answer(wire: WireResponse, extra?: Record<string, string>): Answer {
  const payload = Buffer.from(wire.body, 'utf8');
  return {
    status: wire.status,
    headers: { ...COMMON_HEADERS, ...faultHeaders(wire), ...extra, 'Content-Type': wire.contentType, 'Content-Length': payload.length },
    payload,
  };
}

export function write(res: ServerResponse, a: Answer): void {
  res.writeHead(a.status, a.headers);
  res.end(a.payload);
}

/** The most answers put off at once: then they are written, and the next ones wait for the turn's end again. */
export const MOST_PUT_OFF = 16;

/** The answers to write at the end of this turn of the event loop, in the order they came. */
let due: { res: ServerResponse; a: Answer }[] = [];

/**
 * Writes the answer at the end of this turn of the event loop (its check phase, once every request read
 * in the turn has been handled), right after the turn's other answers. An answer written at once makes
 * the kernel wake the client's side (a load balancer, a proxy) in the service's send whenever that side
 * has gone back to waiting since the last one, as it does while the service works on the next request;
 * written one after another, the first answer wakes it and the others find it awake. The service's CPU
 * per request on the mix fell to 0.86-0.88 of the commit before (`npm run bench -- service --paired`;
 * src-service/README.md has the rest). For the answers of reads: those of writes come together already,
 * when their group commits, and that happens in the check phase itself, where an answer put off would
 * wait for the next turn's requests.
 */
export function writeAtTurnEnd(res: ServerResponse, a: Answer): void {
  if (due.length === 0) setImmediate(writeDue);
  due.push({ res, a });
  // A turn may read hundreds of requests (a poll of the event loop returns up to 1,024 sockets): the first
  // answers do not wait for all of them, nor a client for an answer the service had long ready.
  if (due.length >= MOST_PUT_OFF) writeDue();
}

function writeDue(): void {
  if (due.length === 0) return;
  const answers = due;
  due = [];
  // An answer another step has given meanwhile (a failure's, by the endpoint's `settled`) stays: nothing is answered twice.
  for (const { res, a } of answers) if (!res.headersSent) write(res, a);
}

export function send(res: ServerResponse, wire: WireResponse, extra?: Record<string, string>): void {
  write(res, answer(wire, extra));
}
