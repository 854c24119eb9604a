/**
 * One HTTP exchange with a time limit and a cap on the answer's size, over a keep-alive agent. It
 * records whether the request could have reached the service, which is what decides between "safe to
 * send again" and "outcome unknown" when the connection fails.
 */
import http from 'node:http';
import https from 'node:https';
import { CallError, NetworkError, OutcomeUnknownError, ResponseTooLargeError, TimeoutError, MalformedResponseError } from './errors';

export interface HttpAnswer {
  status: number;
  contentType: string;
  body: string;
}

export interface HttpExchange {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body: string;
}

export interface TransportLimits {
  timeoutMs: number;
  maxResponseBytes: number;
}

export class Agents {
  readonly http: http.Agent;
  readonly https: https.Agent;
  constructor(maxSockets: number) {
    // Keep-alive saves a TCP (and TLS) handshake per call; Node drops a kept socket just before the
    // server's advertised Keep-Alive timeout, which avoids most races with a server closing it.
    this.http = new http.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: 'lifo' });
    this.https = new https.Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets, scheduling: 'lifo' });
  }
  for(url: URL): http.Agent {
    return url.protocol === 'https:' ? this.https : this.http;
  }
  destroy(): void {
    this.http.destroy();
    this.https.destroy();
  }
}

function describe(err: NodeJS.ErrnoException): string {
  switch (err.code) {
    case 'ECONNREFUSED':
      return 'The service refused the connection (is it running?).';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'The service address could not be resolved.';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENETDOWN':
      return 'The network cannot reach the service.';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'The connection to the service was lost.';
    default:
      return 'The connection to the service failed.';
  }
}

/** Sends one request and reads the whole answer, or throws a CallError saying whether it may have been handled. */
export function exchange(operation: string, req: HttpExchange, agent: http.Agent, limits: TransportLimits): Promise<HttpAnswer> {
  return new Promise<HttpAnswer>((resolve, reject) => {
    const lib = req.url.protocol === 'https:' ? https : http;
    // Until the socket is connected, nothing of the request has left this machine.
    let connected = false;
    let settled = false;
    const finish = (error: CallError | null, answer?: HttpAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        request.destroy();
        reject(error);
      } else resolve(answer!);
    };

    const headers: Record<string, string> = { ...req.headers, Accept: 'application/soap+xml, text/xml, text/plain, */*' };
    if (req.method === 'POST') headers['Content-Length'] = String(Buffer.byteLength(req.body, 'utf8'));
    const request = lib.request(req.url, { method: req.method, headers, agent });

    const timer = setTimeout(() => {
      finish(
        connected
          ? new TimeoutError(operation, limits.timeoutMs)
          : new NetworkError(operation, `Could not connect to the service within ${limits.timeoutMs} ms.`, 'ETIMEDOUT'),
      );
    }, limits.timeoutMs);

    request.on('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => (connected = true));
      else connected = true;
    });
    request.on('error', (err: NodeJS.ErrnoException) => {
      // Only whether the connection was up decides: once it is, the request may have left, and a host
      // or network that becomes unreachable mid-call says nothing about what the service received.
      finish(connected ? new OutcomeUnknownError(operation, describe(err), err.code) : new NetworkError(operation, describe(err), err.code));
    });
    request.on('response', (res) => {
      const status = res.statusCode ?? 0;
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > limits.maxResponseBytes) {
        res.resume();
        finish(new ResponseTooLargeError(operation, limits.maxResponseBytes, status));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > limits.maxResponseBytes) {
          finish(new ResponseTooLargeError(operation, limits.maxResponseBytes, status));
          return;
        }
        chunks.push(chunk);
      });
      res.on('aborted', () => {
        finish(new OutcomeUnknownError(operation, 'The connection was lost while the answer was being received.', 'ECONNRESET'));
      });
      res.on('error', () => {
        finish(new OutcomeUnknownError(operation, 'The connection was lost while the answer was being received.', 'ECONNRESET'));
      });
      res.on('close', () => {
        if (!res.complete) finish(new OutcomeUnknownError(operation, 'The answer ended before it was complete.', 'ECONNRESET'));
      });
      res.on('end', () => {
        if (!res.complete) {
          finish(new OutcomeUnknownError(operation, 'The answer ended before it was complete.', 'ECONNRESET'));
          return;
        }
        let body: string;
        try {
          body = new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks, size));
        } catch {
          finish(new MalformedResponseError(operation, 'The answer is not valid UTF-8 text.', status));
          return;
        }
        finish(null, { status, contentType: String(res.headers['content-type'] ?? ''), body });
      });
    });
    request.end(req.method === 'POST' ? req.body : undefined);
  });
}
