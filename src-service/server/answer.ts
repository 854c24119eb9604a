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

export function send(res: ServerResponse, wire: WireResponse, extra?: Record<string, string>): void {
  write(res, answer(wire, extra));
}
