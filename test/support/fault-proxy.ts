/**
 * A fault-injecting HTTP proxy between a client under test and the real service on loopback. For each
 * request it picks a mode: pass it on, drop the connection before the request reaches the service,
 * drop it after the service handled it, answer 500 or garbage (with or without having forwarded the
 * request), answer slowly, cut the answer short, or answer with a huge body; and what the proxies, load
 * balancers and broken servers of real networks answer: 408, 429 (with and without Retry-After), 502,
 * 503 (plain text, as a reverse proxy does while the service restarts), 504, an HTML page, an empty
 * body, a connection reset mid-body, XML cut short with whole HTTP framing, a body dripped a byte at a
 * time, and a gzip body that does not inflate. It counts what it did, so that tests can assert the
 * faults really happened.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type FaultMode =
  | 'pass'
  /** The connection is closed before the request reaches the service. */
  | 'drop-before'
  /** The service handles the request; the connection is closed before the answer arrives. */
  | 'drop-after'
  /** HTTP 500 with an HTML page, without asking the service. */
  | 'error-500'
  /** The service handles the request; the client gets HTTP 500 with an HTML page instead of its answer. */
  | 'error-500-after'
  /** HTTP 200 with bytes that are not XML, without asking the service. */
  | 'garbage'
  /** The service handles the request; the client gets garbage instead of its answer. */
  | 'garbage-after'
  /** The service handles the request; its answer is held back for `slowMs` (by default until the client gives up). */
  | 'slow'
  /** The service handles the request; only half of its answer is sent, then the connection closes. */
  | 'truncate'
  /** HTTP 200 streaming `hugeBytes` of XML-looking filler (no Content-Length), without asking the service. */
  | 'huge'
  /** A SOAP 1.2 Sender fault ("AccountId: account ... does not exist."), without asking the service. */
  | 'client-fault'
  /** A SOAP 1.2 Sender fault worded like refused credentials, about this request only ("... not authorized ..."). */
  | 'authorization-fault'
  /** Status answers of proxies and load balancers, without asking the service (plain text bodies). */
  | 'status-408'
  | 'status-429'
  /** 429 with `Retry-After: <retryAfterSeconds>`. */
  | 'status-429-retry-after'
  | 'status-502'
  /** 503 Service Unavailable in text/plain, as a reverse proxy answers while the service restarts. */
  | 'status-503'
  /** 503 with `Retry-After` as an HTTP date `retryAfterSeconds` from now. */
  | 'status-503-retry-after'
  | 'status-504'
  /** The service handles the request; the gateway answers 504 (its upstream took too long). */
  | 'status-504-after'
  /** HTTP 200 with an HTML page (a captive portal, a misrouted virtual host), without asking the service. */
  | 'html-page'
  /** HTTP 200 with an empty body, without asking the service. */
  | 'empty-body'
  /** The service handles the request; the answer's headers and part of its body arrive, then the connection is reset (RST). */
  | 'reset-mid-body'
  /** The service handles the request; its XML is cut in half but sent with a Content-Length that matches (whole HTTP framing). */
  | 'truncated-xml'
  /** The service handles the request; its answer is dripped one byte every `dripMs`. */
  | 'slow-drip'
  /** HTTP 200 with `Content-Encoding: gzip` over bytes that do not inflate, without asking the service. */
  | 'bad-gzip';

/** Every mode that is not the service's verdict: none of them may ever mark a write refused. */
export const NETWORK_FAULT_MODES: readonly FaultMode[] = [
  'drop-before',
  'drop-after',
  'error-500',
  'error-500-after',
  'garbage',
  'garbage-after',
  'slow',
  'truncate',
  'status-408',
  'status-429',
  'status-429-retry-after',
  'status-502',
  'status-503',
  'status-503-retry-after',
  'status-504',
  'status-504-after',
  'html-page',
  'empty-body',
  'reset-mid-body',
  'truncated-xml',
  'slow-drip',
  'bad-gzip',
];

export const FAULT_MODES: readonly FaultMode[] = [
  'drop-before',
  'drop-after',
  'error-500',
  'error-500-after',
  'garbage',
  'garbage-after',
  'slow',
  'truncate',
];

export interface ProxyRequest {
  method: string;
  path: string;
  /** The operation, read from the SOAP body, the SOAPAction/action, or the path. */
  operation: string;
  body: string;
}

export interface ProxyLogEntry {
  operation: string;
  mode: FaultMode;
  at: number;
}

export interface FaultProxyOptions {
  target: string;
  /**
   * How long 'slow' holds an answer back (default 60 s: longer than any call time limit of a test, so that
   * the client's limit decides, however busy the machine; a shorter hold races the limit).
   */
  slowMs?: number;
  hugeBytes?: number;
  /** Retry-After of the *-retry-after modes, in seconds (default 1). */
  retryAfterSeconds?: number;
  /** Pause between the bytes of 'slow-drip' (default 200 ms). */
  dripMs?: number;
}

export interface FaultProxy {
  url: string;
  port: number;
  /** Picks the mode of each request (default: always pass). */
  choose(picker: (req: ProxyRequest) => FaultMode): void;
  /** What happened, by mode. */
  counts: Map<FaultMode, number>;
  /** Every request with the mode it got and when its body had arrived (performance.now(), ms). */
  log: ProxyLogEntry[];
  /** TCP connections accepted (keep-alive reuses them). */
  connections(): number;
  /** Bytes of filler the 'huge' answers have handed to their sockets so far (a client that stops reading early stops it). */
  hugeBytesSent(): number;
  /** The most requests that were being handled at one time (since the last resetMaxInFlight). */
  maxInFlight(): number;
  resetMaxInFlight(): void;
  close(): Promise<void>;
}

/** The seeded generator of the demo data, so that a failing randomized run can be repeated. */
export { seededRandom } from '../../src-service/admin/seeded-random';

/** A picker that faults a share of all requests with modes drawn evenly from `modes`. */
export function randomFaults(
  rate: number,
  random: () => number,
  modes: readonly FaultMode[] = FAULT_MODES,
): (req: ProxyRequest) => FaultMode {
  return () => (random() < rate ? modes[Math.floor(random() * modes.length)]! : 'pass');
}

/** The operation a request is for: from the path (GET/POST bindings) or the SOAP Body's first element. */
export function operationOf(path: string, body: string): string {
  const fromPath = /APIservice\.asmx\/(\w+)/.exec(path)?.[1];
  if (fromPath) return fromPath;
  return /<(?:\w+:)?Body[^>]*>\s*<(?:\w+:)?(\w+)/.exec(body)?.[1] ?? (path.includes('WSDL') ? 'WSDL' : '?');
}

export async function startFaultProxy(options: FaultProxyOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
  let picker: (req: ProxyRequest) => FaultMode = () => 'pass';
  const counts = new Map<FaultMode, number>();
  const log: ProxyLogEntry[] = [];
  const slowMs = options.slowMs ?? 60_000;
  const hugeBytes = options.hugeBytes ?? 100 * 1024 * 1024;
  const retryAfterSeconds = options.retryAfterSeconds ?? 1;
  const dripMs = options.dripMs ?? 200;
  const timers = new Set<NodeJS.Timeout>();

  const forward = (req: http.IncomingMessage, body: Buffer): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> =>
    new Promise((resolve, reject) => {
      const headers = { ...req.headers, host: target.host };
      const out = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 502, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      });
      out.on('error', reject);
      out.end(body);
    });

  const reply = (res: http.ServerResponse, answer: { status: number; headers: http.IncomingHttpHeaders; body: Buffer }) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [k, v] of Object.entries(answer.headers)) {
      if (v !== undefined && k !== 'transfer-encoding' && k !== 'connection' && k !== 'keep-alive') headers[k] = v;
    }
    headers['content-length'] = answer.body.length;
    res.writeHead(answer.status, headers);
    res.end(answer.body);
  };

  const html500 = (res: http.ServerResponse) => {
    res.writeHead(500, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<html><body><h1>500 Internal Server Error</h1></body></html>');
  };
  const senderFault = (res: http.ServerResponse, text: string) => {
    res.writeHead(500, { 'content-type': 'application/soap+xml; charset=utf-8' });
    res.end(
      '<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><soap:Fault>' +
        `<soap:Code><soap:Value>soap:Sender</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang="en">${text}</soap:Text></soap:Reason>` +
        '</soap:Fault></soap:Body></soap:Envelope>',
    );
  };
  const plainStatus = (res: http.ServerResponse, status: number, text: string, headers: http.OutgoingHttpHeaders = {}) => {
    res.writeHead(status, { 'content-type': 'text/plain', ...headers });
    res.end(text);
  };
  const garbage = (res: http.ServerResponse) => {
    res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8' });
    res.end('<soap:Envelope xmlns:soap="http://www.w3.org/2003/05/soap-envelope"><soap:Body><Acc\u0000%%garbage');
  };

  let connections = 0;
  let hugeSent = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const server = http.createServer((req, res) => {
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    let counted = true;
    const settle = () => {
      if (counted) inFlight--;
      counted = false;
    };
    res.on('finish', settle);
    res.on('close', settle);
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const info: ProxyRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        operation: operationOf(req.url ?? '', body.toString('utf8')),
        body: body.toString('utf8'),
      };
      const mode = picker(info);
      counts.set(mode, (counts.get(mode) ?? 0) + 1);
      log.push({ operation: info.operation, mode, at: performance.now() });
      const fail = () => res.socket?.destroy();
      void (async () => {
        switch (mode) {
          case 'drop-before':
            req.socket.destroy();
            return;
          case 'error-500':
            html500(res);
            return;
          case 'garbage':
            garbage(res);
            return;
          case 'client-fault':
            senderFault(res, 'AccountId: account does not exist.');
            return;
          case 'authorization-fault':
            senderFault(res, 'You are not authorized to change this record.');
            return;
          case 'status-408':
            plainStatus(res, 408, 'Request Timeout');
            return;
          case 'status-429':
            plainStatus(res, 429, 'Too Many Requests');
            return;
          case 'status-429-retry-after':
            plainStatus(res, 429, 'Too Many Requests', { 'retry-after': String(retryAfterSeconds) });
            return;
          case 'status-502':
            plainStatus(res, 502, 'Bad Gateway');
            return;
          case 'status-503':
            plainStatus(res, 503, 'Service Unavailable');
            return;
          case 'status-503-retry-after':
            // An HTTP date, rounded up to the next whole second so that it is never earlier than meant.
            plainStatus(res, 503, 'Service Unavailable', {
              'retry-after': new Date(Math.ceil(Date.now() / 1000) * 1000 + retryAfterSeconds * 1000).toUTCString(),
            });
            return;
          case 'status-504':
            plainStatus(res, 504, 'Gateway Timeout');
            return;
          case 'html-page':
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
            res.end(
              '<!DOCTYPE html><html><head><title>Hotel Wi-Fi - please log in</title></head><body><form>Room number</form></body></html>',
            );
            return;
          case 'empty-body':
            res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8', 'content-length': 0 });
            res.end();
            return;
          case 'bad-gzip':
            res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8', 'content-encoding': 'gzip' });
            res.end(Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x01, 0x02, 0x03, 0x04, 0xff, 0xee]));
            return;
          case 'huge': {
            res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8' });
            const chunk = Buffer.alloc(64 * 1024, '<x>filler</x>');
            let sent = 0;
            const pump = () => {
              while (sent < hugeBytes && !res.destroyed) {
                sent += chunk.length;
                hugeSent += chunk.length;
                if (!res.write(chunk)) return void res.once('drain', pump);
              }
              if (!res.destroyed) res.end();
            };
            res.on('close', () => (sent = hugeBytes));
            pump();
            return;
          }
          default:
            // The modes that first let the service answer: below.
            break;
        }
        const answer = await forward(req, body);
        switch (mode) {
          case 'pass':
            reply(res, answer);
            return;
          case 'drop-after':
            req.socket.destroy();
            return;
          case 'error-500-after':
            html500(res);
            return;
          case 'garbage-after':
            garbage(res);
            return;
          case 'slow': {
            const t = setTimeout(() => {
              timers.delete(t);
              if (!res.destroyed) reply(res, answer);
            }, slowMs);
            timers.add(t);
            return;
          }
          case 'truncate': {
            const headers: http.OutgoingHttpHeaders = {
              'content-type': answer.headers['content-type'] ?? 'text/xml',
              'content-length': answer.body.length,
            };
            res.writeHead(answer.status, headers);
            res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)), () => res.socket?.destroy());
            return;
          }
          case 'status-504-after':
            plainStatus(res, 504, 'Gateway Timeout');
            return;
          case 'reset-mid-body': {
            res.writeHead(answer.status, {
              'content-type': answer.headers['content-type'] ?? 'text/xml',
              'content-length': answer.body.length,
            });
            res.write(answer.body.subarray(0, Math.floor(answer.body.length / 3)), () => res.socket?.resetAndDestroy());
            return;
          }
          case 'truncated-xml': {
            const half = answer.body.subarray(0, Math.floor(answer.body.length / 2));
            res.writeHead(answer.status, { 'content-type': answer.headers['content-type'] ?? 'text/xml', 'content-length': half.length });
            res.end(half);
            return;
          }
          case 'slow-drip': {
            res.writeHead(answer.status, {
              'content-type': answer.headers['content-type'] ?? 'text/xml',
              'content-length': answer.body.length,
            });
            let at = 0;
            const drip = () => {
              if (res.destroyed) return;
              if (at >= answer.body.length) return void res.end();
              res.write(answer.body.subarray(at, ++at));
              const t = setTimeout(() => {
                timers.delete(t);
                drip();
              }, dripMs);
              timers.add(t);
            };
            drip();
            return;
          }
        }
      })().catch(fail);
    });
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    counts,
    log,
    connections: () => connections,
    hugeBytesSent: () => hugeSent,
    maxInFlight: () => maxInFlight,
    resetMaxInFlight: () => (maxInFlight = inFlight),
    choose(p) {
      picker = p;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      agent.destroy();
    },
  };
}
