/**
 * The transport seam: one HTTP exchange, whatever carries it. The SOAP client builds the request and
 * classifies the answer (answers.ts); a transport only moves bytes, with a time limit, a cap on the
 * answer's size and cancellation, and says, when it fails, whether the request could have reached the
 * service: that decides between "safe to send again" and "outcome unknown".
 *
 * A transport resolves with every answer it reads whole, whatever its status, and rejects only with a
 * CallError: NetworkError (not sent), OutcomeUnknownError (connection lost after sending, or an answer
 * cut short), TimeoutError, ResponseTooLargeError, MalformedResponseError (a body that cannot be
 * decoded), CertificateError, ProxyError or CancelledError.
 */
import http from 'node:http';
import https from 'node:https';
import {
  CallError,
  CancelledError,
  MalformedResponseError,
  NetworkError,
  OutcomeUnknownError,
  ResponseTooLargeError,
  TimeoutError,
  formatSeconds,
} from './errors';

export interface HttpRequest {
  method: 'GET' | 'POST';
  url: URL;
  headers: Record<string, string>;
  body: string;
}

export interface HttpAnswer {
  status: number;
  contentType: string;
  body: string;
  /** The Retry-After header as sent, if any. */
  retryAfter: string | null;
}

export interface ExchangeOptions {
  /** Time limit from sending to the last byte of the answer. */
  timeoutMs: number;
  /** Largest answer read (after decompression); a larger one fails with ResponseTooLargeError. */
  maxResponseBytes: number;
  signal?: AbortSignal;
}

export interface Transport {
  exchange(operation: string, req: HttpRequest, options: ExchangeOptions): Promise<HttpAnswer>;
  /** Closes kept connections. */
  close(): void;
}

export interface TransportOptions {
  /** Connections kept open to the service at most (parallel exchanges beyond it wait). */
  maxConnections: number;
  /**
   * SHA-256 fingerprint (AB:CD:...) of a certificate the user chose to trust (a self-hosted service
   * with a self-signed certificate): exactly this certificate is accepted, any other is refused.
   */
  trustedCertificate?: string | null;
}

export type TransportFactory = (options: TransportOptions) => Transport;

/** The media type sent in Accept: every answer the bindings give, errors included. */
export const ACCEPT = 'application/soap+xml, text/xml, text/plain, */*';

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

/** The transport over Node's http and https modules, with keep-alive agents. */
export class NodeHttpTransport implements Transport {
  private readonly http: http.Agent;
  private readonly https: https.Agent;

  constructor(options: TransportOptions) {
    const { maxConnections } = options;
    // Keep-alive saves a TCP (and TLS) handshake per call; Node drops a kept socket just before the
    // server's advertised Keep-Alive timeout, which avoids most races with a server closing it.
    this.http = new http.Agent({ keepAlive: true, maxSockets: maxConnections, maxFreeSockets: maxConnections, scheduling: 'lifo' });
    this.https = new https.Agent({ keepAlive: true, maxSockets: maxConnections, maxFreeSockets: maxConnections, scheduling: 'lifo' });
  }

  close(): void {
    this.http.destroy();
    this.https.destroy();
  }

  exchange(operation: string, req: HttpRequest, limits: ExchangeOptions): Promise<HttpAnswer> {
    return new Promise<HttpAnswer>((resolve, reject) => {
      const secure = req.url.protocol === 'https:';
      const lib = secure ? https : http;
      // Until the socket is connected, nothing of the request has left this machine.
      let connected = false;
      let settled = false;
      const finish = (error: CallError | null, answer?: HttpAnswer) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        limits.signal?.removeEventListener('abort', onAbort);
        if (error) {
          request.destroy();
          reject(error);
        } else resolve(answer!);
      };
      const onAbort = () => finish(new CancelledError(operation, connected));
      if (limits.signal?.aborted) {
        reject(new CancelledError(operation, false));
        return;
      }

      const headers: Record<string, string> = { ...req.headers, Accept: ACCEPT };
      if (req.method === 'POST') headers['Content-Length'] = String(Buffer.byteLength(req.body, 'utf8'));
      const request = lib.request(req.url, { method: req.method, headers, agent: secure ? this.https : this.http });
      limits.signal?.addEventListener('abort', onAbort, { once: true });

      const timer = setTimeout(() => {
        finish(
          connected
            ? new TimeoutError(operation, limits.timeoutMs)
            : new NetworkError(operation, `Could not connect to the service within ${formatSeconds(limits.timeoutMs)}.`, 'ETIMEDOUT'),
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
        const lost = () => finish(new OutcomeUnknownError(operation, 'The connection was lost while the answer was being received.', 'ECONNRESET'));
        res.on('aborted', lost);
        res.on('error', lost);
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
          const retryAfter = res.headers['retry-after'];
          finish(null, { status, contentType: String(res.headers['content-type'] ?? ''), body, retryAfter: typeof retryAfter === 'string' ? retryAfter : null });
        });
      });
      request.end(req.method === 'POST' ? req.body : undefined);
    });
  }
}

/** The transport of the command line, the browser shell and the tests. */
export const nodeTransport: TransportFactory = (options) => new NodeHttpTransport(options);
