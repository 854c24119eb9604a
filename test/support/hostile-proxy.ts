/**
 * A hostile service for tests: a proxy in front of the real service that passes everything (WSDL,
 * credentials, the operations a scenario leaves alone) and answers the operations a scenario chooses
 * itself: a crafted result written by the shared codec (ids 0 or -5, duplicates, a cycle, 100,000
 * records), or a handler that writes the answer as it likes (a gibibyte streamed, one byte a second).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { OperationName, ResultOf } from '../../src-shared/catalog';
import { buildResponse } from '../../src-shared/wire';
import { operationOf } from './fault-proxy';

export type HostileAnswer = ((res: http.ServerResponse) => void) | null;

export interface HostileProxy {
  url: string;
  /** Chooses what the service answers to each operation; null passes the request to the real service. */
  answer(pick: (operation: string) => HostileAnswer): void;
  close(): Promise<void>;
}

/** A SOAP 1.2 answer of `operation` holding `result` as given, however wrong. */
export function crafted<N extends OperationName>(operation: N, result: ResultOf<N>, namespace: string): HostileAnswer {
  const wire = buildResponse('soap12', operation, result, namespace);
  return (res) => {
    res.writeHead(wire.status, { 'content-type': wire.contentType, 'content-length': Buffer.byteLength(wire.body) });
    res.end(wire.body);
  };
}

/** An answer that never ends: its headers, then one space every `everyMs`, until the client hangs up. */
export function dripped(everyMs: number): HostileAnswer {
  return (res) => {
    res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8' });
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), everyMs);
    res.on('close', () => clearInterval(timer));
  };
}

export async function startHostileProxy(target: string): Promise<HostileProxy> {
  const upstream = new URL(target);
  let pick: (operation: string) => HostileAnswer = () => null;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const own = pick(operationOf(req.url ?? '', body.toString('utf8')));
      if (own) return own(res);
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          path: req.url,
          method: req.method,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      forward.on('error', () => res.destroy());
      forward.end(body);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answer: (p) => (pick = p),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
