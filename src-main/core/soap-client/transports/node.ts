/**
 * The transport of the command line, the browser shell and the tests: undici, with kept-alive
 * connections (up to `maxConnections` per origin), the proxies of HTTPS_PROXY / HTTP_PROXY / NO_PROXY,
 * gzip and brotli answers inflated under the size cap, and TLS checked by this module on every
 * connection: normal verification against the system's authorities (NODE_EXTRA_CA_CERTS included), or
 * exactly the certificate the user pinned.
 *
 * "Was it sent?" follows the connection: until undici hands the request to a connected socket (TCP,
 * and for https the TLS handshake, done), nothing of it has left this machine (NetworkError); from then
 * on a failure leaves the outcome unknown.
 */
import { isIP } from 'node:net';
import { TLSSocket } from 'node:tls';
import zlib from 'node:zlib';
import { EnvHttpProxyAgent, Pool, buildConnector, type Dispatcher } from 'undici';
import { certificateInfo, certificateReason, certificateRefusal, pinnedFingerprint, type CertificateReason } from '../certificates';
import {
  CallError,
  CancelledError,
  MalformedResponseError,
  NetworkError,
  OutcomeUnknownError,
  ProxyError,
  ResponseTooLargeError,
  TimeoutError,
  formatBytes,
  formatSeconds,
  type CertificateInfo,
} from '../errors';
import {
  ACCEPT,
  ACCEPT_ENCODING,
  decodeText,
  describeFailure,
  type ExchangeOptions,
  type HttpAnswer,
  type HttpRequest,
  type Transport,
  type TransportFactory,
  type TransportOptions,
} from '../transport';

export interface NodeTransportConfig {
  /** Where HTTPS_PROXY, HTTP_PROXY and NO_PROXY (or their lower-case forms, which win) are read. Default: process.env. */
  env?: Readonly<Record<string, string | undefined>>;
  /**
   * How an http:// request goes through a plain HTTP proxy: false (the default) sends it whole to the
   * proxy in absolute form, as proxies expect (many allow CONNECT to port 443 only); true tunnels it
   * with CONNECT. https:// requests always tunnel, so that TLS runs end to end with the service.
   */
  proxyTunnel?: boolean;
}

/** TLS options of every connection to a service: the default authorities, no resumed sessions; the check is ours. */
const SERVICE_TLS = {
  // Node still verifies the chain and the host name and reports the result on the socket (authorized,
  // authorizationError); `verified` decides on it, with the certificate at hand to show or compare.
  rejectUnauthorized: false,
  // A resumed session would skip the certificate: every connection shows it anew.
  maxCachedSessions: 0,
};

/** A certificate refused during the handshake, before anything was sent. */
class TlsRefusal extends Error {
  constructor(
    readonly reason: CertificateReason,
    readonly certificate: CertificateInfo | null,
    readonly host: string,
    readonly code?: string,
  ) {
    super(`TLS refused the certificate of ${host} (${reason})`);
  }
}

type Connector = buildConnector.connector;

interface ProxySettings {
  http: URL | null;
  https: URL | null;
  noProxy: string;
}

/** The proxy settings of an environment, as undici's EnvHttpProxyAgent reads them (lower case first). */
function proxySettings(env: Readonly<Record<string, string | undefined>>): ProxySettings {
  const read = (name: string) => (env[name.toLowerCase()] ?? env[name] ?? '').trim();
  const proxyUrl = (name: string): URL | null => {
    const value = read(name);
    if (!value) return null;
    let url: URL;
    try {
      // curl and most tools accept host:port without a scheme.
      url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `http://${value}`);
    } catch {
      throw new RangeError(`The proxy setting ${name} is not an address such as http://proxy.example.com:3128.`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new RangeError(`The proxy setting ${name} must be an http:// or https:// address.`);
    }
    return url;
  };
  return { http: proxyUrl('HTTP_PROXY'), https: proxyUrl('HTTPS_PROXY'), noProxy: read('NO_PROXY') };
}

/** host:port of a proxy, never its credentials. */
function proxyName(proxy: URL): string {
  return `${proxy.hostname}:${proxy.port || (proxy.protocol === 'https:' ? 443 : 80)}`;
}

/** Whether a connection error is about reaching the proxy rather than the service (by the address it names). */
function concernsProxy(err: NodeJS.ErrnoException & { address?: string; port?: number; hostname?: string }, proxy: URL): boolean {
  const host = proxy.hostname.replace(/^\[|\]$/g, '');
  const port = Number(proxy.port || (proxy.protocol === 'https:' ? 443 : 80));
  if (err.hostname !== undefined) return err.hostname === host;
  if (err.port !== undefined) return err.port === port && (isIP(host) === 0 || err.address === host);
  // undici's connect timeout names the address in its message only.
  return err.message.includes(`attempted address: ${host}:${port}`);
}

/** Why a proxy could not be reached, in words. */
function unreachable(code: string | undefined): string {
  if (code === 'ECONNREFUSED') return 'it refused the connection (is it running?)';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'its address could not be resolved';
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'it did not answer in time';
  return `the connection failed${code ? ` (${code})` : ''}`;
}

function header(headers: Record<string, string | string[] | undefined>, name: string): string | null {
  const v = headers[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}

/** An inflating stream for a Content-Encoding; null for none; undefined for one this transport cannot read. */
function decoderFor(encoding: string): Decoder | null | undefined {
  switch (encoding) {
    case '':
    case 'identity':
      return null;
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return undefined;
  }
}

/** The transport over undici; one per SOAP client (its connections are shared by the client's calls). */
export class NodeTransport implements Transport {
  private readonly dispatcher: Dispatcher | null;
  private readonly proxies: ProxySettings | null;
  /** Why no request can be made (a proxy setting that is not an address). */
  private readonly problem: string | null;
  private readonly pinned: string | null;

  constructor(options: TransportOptions, config: NodeTransportConfig = {}) {
    this.pinned = pinnedFingerprint(options.trustedCertificate);
    let proxies: ProxySettings | null = null;
    let problem: string | null = null;
    try {
      proxies = proxySettings(config.env ?? process.env);
    } catch (e) {
      problem = (e as Error).message;
    }
    this.proxies = proxies;
    this.problem = problem;
    const connections = options.maxConnections;
    this.dispatcher = proxies
      ? new EnvHttpProxyAgent({
          // Given explicitly (empty for none) so that undici never falls back to process.env itself.
          httpProxy: proxies.http?.href ?? '',
          httpsProxy: proxies.https?.href ?? '',
          noProxy: proxies.noProxy,
          proxyTunnel: config.proxyTunnel ?? false,
          connections,
          connect: SERVICE_TLS,
          requestTls: SERVICE_TLS,
          // Every pool, whether it connects directly, through a CONNECT tunnel or to a plain proxy, checks
          // the certificate of each connection it opens before the first byte of a request is written.
          factory: (origin: string | URL, opts: object) => {
            const o = opts as Pool.Options & { connect?: unknown };
            return new Pool(origin, { ...o, connections: o.connections ?? connections, connect: this.verified(o.connect) });
          },
        })
      : null;
  }

  close(): void {
    this.dispatcher?.destroy().catch(() => {});
  }

  /** The proxy an exchange with `url` is sent to unless NO_PROXY exempts it (as undici picks it). */
  private proxyFor(url: URL): URL | null {
    if (!this.proxies) return null;
    return url.protocol === 'https:' ? (this.proxies.https ?? this.proxies.http) : this.proxies.http;
  }

  /** A connector that refuses a TLS connection whose certificate is not accepted (see `refusal`). */
  private verified(connect: unknown): Connector {
    const base = typeof connect === 'function' ? (connect as Connector) : buildConnector({ ...(connect as object), ...SERVICE_TLS });
    return (options, callback) => {
      base(options, (err, socket) => {
        if (err || !socket) return callback(err ?? new Error('No connection.'), null);
        if (!(socket instanceof TLSSocket)) {
          if (options.protocol !== 'https:') return callback(null, socket);
          socket.destroy();
          return callback(new Error('An https connection was not encrypted.'), null);
        }
        const refusal = this.refusal(socket, options.servername || options.hostname);
        if (refusal) {
          socket.destroy();
          callback(refusal, null);
        } else callback(null, socket);
      });
    };
  }

  /**
   * Pinned: exactly the certificate whose fingerprint the user trusted, nothing else. Not pinned: what
   * the system's authorities vouch for (chain and host name, as Node checked them).
   */
  private refusal(socket: TLSSocket, host: string): TlsRefusal | null {
    const peer = socket.getPeerCertificate();
    let certificate: CertificateInfo | null = null;
    try {
      certificate = peer?.raw ? certificateInfo(peer.raw) : null;
    } catch {
      // A certificate Node could not parse again is shown as unreadable.
    }
    if (this.pinned) return certificate?.fingerprint256 === this.pinned ? null : new TlsRefusal('changed', certificate, host);
    if (socket.authorized) return null;
    const code = String(socket.authorizationError ?? 'UNKNOWN');
    return new TlsRefusal(certificateReason(code) ?? 'invalid', certificate, host, code);
  }

  exchange(operation: string, req: HttpRequest, limits: ExchangeOptions): Promise<HttpAnswer> {
    if (limits.signal?.aborted) return Promise.reject(new CancelledError(operation, false));
    if (!this.dispatcher) return Promise.reject(new NetworkError(operation, this.problem ?? 'No request can be made.', 'EPROXYCONFIG'));
    const dispatcher = this.dispatcher;
    return new Promise<HttpAnswer>((resolve, reject) => {
      const failure = (error: Error, connected: boolean) => this.failure(operation, error, connected, req.url, limits.timeoutMs);
      new Exchange(operation, limits, failure, { resolve, reject }).send(dispatcher, req);
    });
  }

  /** What a failure of undici means for the call. */
  private failure(operation: string, error: Error, connected: boolean, url: URL, timeoutMs: number): CallError {
    if (error instanceof CallError) return error;
    if (error instanceof TlsRefusal) {
      return certificateRefusal(operation, {
        reason: error.reason,
        certificate: error.certificate,
        pinned: this.pinned,
        code: error.code,
        host: error.host,
      });
    }
    const err = error as NodeJS.ErrnoException;
    const proxy = this.proxyFor(url);
    // undici reports a proxy's refusal in words only: of the CONNECT (a tunnel) or of the request itself.
    const proxyStatus =
      /^Proxy response \((\d{3})\) !== 200/.exec(err.message)?.[1] ??
      (err.message === 'Proxy Authentication Required (407)' ? '407' : undefined);
    if (proxyStatus && proxy) {
      const name = proxyName(proxy);
      if (proxyStatus === '407') {
        return new ProxyError(
          operation,
          proxy.username
            ? `The proxy at ${name} refused the proxy credentials (HTTP 407); check the user name and password in the proxy address.`
            : `The proxy at ${name} asks for credentials (HTTP 407): give them in the proxy address, as http://user:password@${name}.`,
          407,
        );
      }
      return new NetworkError(
        operation,
        `The proxy at ${name} could not open a connection to the service (HTTP ${proxyStatus}).`,
        'EPROXY',
      );
    }
    if (err.code === 'UND_ERR_HEADERS_TIMEOUT' || err.code === 'UND_ERR_BODY_TIMEOUT') return new TimeoutError(operation, timeoutMs);
    if (connected) return new OutcomeUnknownError(operation, describeFailure(err.code), err.code);
    if (proxy && concernsProxy(err, proxy)) {
      return new NetworkError(operation, `The proxy at ${proxyName(proxy)} could not be reached: ${unreachable(err.code)}.`, err.code);
    }
    if (err.code === 'UND_ERR_CONNECT_TIMEOUT') {
      return new NetworkError(operation, 'Could not connect to the service in time.', 'ETIMEDOUT');
    }
    if (certificateReason(err.code) && proxy) {
      return new NetworkError(
        operation,
        `The proxy at ${proxyName(proxy)} presented a certificate that is not accepted (${err.code}).`,
        err.code,
      );
    }
    return new NetworkError(operation, describeFailure(err.code), err.code);
  }
}

type Decoder = zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;

/**
 * One exchange, from its dispatch to its answer or its failure: what undici reports (the handler), the
 * answer's body kept (inflated when compressed) under the size cap, the time limit and the cancellation.
 * It settles once; whatever undici reports after that is dropped.
 */
class Exchange {
  /** Set once undici hands the request to a connected socket: from then on it may have left. */
  private connected = false;
  private controller: Dispatcher.DispatchController | null = null;
  private settled = false;
  private status = 0;
  private headers: Record<string, string | string[] | undefined> = {};
  private decoder: Decoder | null = null;
  private readonly chunks: Buffer[] = [];
  /** Bytes of the answer kept (inflated), and bytes received (as sent). */
  private size = 0;
  private received = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly onAbort = () => this.finish(new CancelledError(this.operation, this.connected));

  constructor(
    private readonly operation: string,
    private readonly limits: ExchangeOptions,
    /** What a failure undici reports means for the call (NodeTransport.failure). */
    private readonly failure: (error: Error, connected: boolean) => CallError,
    private readonly settle: { resolve: (answer: HttpAnswer) => void; reject: (error: CallError) => void },
  ) {
    limits.signal?.addEventListener('abort', this.onAbort, { once: true });
    this.timer = setTimeout(() => this.timedOut(), limits.timeoutMs);
  }

  send(dispatcher: Dispatcher, req: HttpRequest): void {
    const body = req.method === 'POST' ? Buffer.from(req.body, 'utf8') : null;
    try {
      dispatcher.dispatch(
        {
          origin: req.url.origin,
          path: req.url.pathname + req.url.search,
          method: req.method,
          headers: { ...req.headers, accept: ACCEPT, 'accept-encoding': ACCEPT_ENCODING },
          body,
        },
        this.handler(),
      );
    } catch (e) {
      this.finish(new NetworkError(this.operation, `The request could not be made: ${(e as Error).message}`));
    }
  }

  /** What undici calls as the exchange goes on; nothing once it has settled. */
  private handler(): Dispatcher.DispatchHandler {
    return {
      onRequestStart: (c) => {
        this.controller = c;
        // Given up on while it waited for a connection: abandoned before a byte is written.
        if (this.settled) c.abort(new Error('The exchange was abandoned.'));
        else this.connected = true;
      },
      onResponseStart: (c, statusCode, headers) => {
        if (!this.settled && statusCode >= 200) this.responseStart(c, statusCode, headers);
      },
      onResponseData: (c, chunk) => {
        if (!this.settled) this.data(c, chunk);
      },
      onResponseEnd: () => {
        if (this.settled) return;
        // An empty body (HEAD, 204) has nothing to inflate, whatever its Content-Encoding says.
        if (this.decoder && this.received > 0) this.decoder.end();
        else this.complete();
      },
      onResponseError: (_c, err) => this.finish(this.lost(err)),
    };
  }

  /** The status line and headers: refused at once when the body cannot be read or is declared too large. */
  private responseStart(c: Dispatcher.DispatchController, status: number, headers: Record<string, string | string[] | undefined>): void {
    this.status = status;
    this.headers = headers;
    const encoding = (header(headers, 'content-encoding') ?? '').trim().toLowerCase();
    const made = decoderFor(encoding);
    if (made === undefined) {
      const words = `The answer uses a content encoding the app cannot read (${encoding.slice(0, 40)}).`;
      return this.finish(new MalformedResponseError(this.operation, words, status));
    }
    const declared = Number(header(headers, 'content-length'));
    if (Number.isFinite(declared) && declared > this.limits.maxResponseBytes) return this.tooLarge();
    if (made) this.inflate(made, c);
  }

  /** A compressed answer goes through its inflater, which keeps pace with the network. */
  private inflate(decoder: Decoder, c: Dispatcher.DispatchController): void {
    this.decoder = decoder;
    decoder.on('data', (chunk: Buffer) => this.keep(chunk));
    decoder.on('error', () => {
      const words = `The answer to ${this.operation} was compressed, but the compressed answer could not be inflated.`;
      this.finish(new MalformedResponseError(this.operation, words, this.status));
    });
    decoder.on('end', () => this.complete());
    // Reading pauses while the inflater has a backlog.
    decoder.on('drain', () => c.resume());
  }

  private data(c: Dispatcher.DispatchController, chunk: Buffer): void {
    this.received += chunk.length;
    if (this.received > this.limits.maxResponseBytes) return this.tooLarge();
    if (!this.decoder) this.keep(chunk);
    else if (!this.decoder.write(chunk)) c.pause();
  }

  /** A piece of the answer's body (inflated), under the size cap. */
  private keep(chunk: Buffer): void {
    this.size += chunk.length;
    if (this.size > this.limits.maxResponseBytes) {
      const { operation, limits } = this;
      return this.tooLarge(
        this.decoder ? `The answer to ${operation} inflates to more than the limit of ${formatBytes(limits.maxResponseBytes)}.` : undefined,
      );
    }
    this.chunks.push(chunk);
  }

  private complete(): void {
    if (this.settled) return;
    let body: string;
    try {
      body = decodeText(this.operation, this.status, Buffer.concat(this.chunks, this.size));
    } catch (e) {
      return this.finish(e as CallError);
    }
    const { status, headers } = this;
    this.finish(null, { status, contentType: header(headers, 'content-type') ?? '', body, retryAfter: header(headers, 'retry-after') });
  }

  /** A failure undici reports: cut off after the status line, the service may have done the work and the answer is lost. */
  private lost(err: Error): CallError {
    if (this.status === 0 || err instanceof CallError) return this.failure(err, this.connected);
    const why = 'The answer ended before it was complete: the connection was lost while it was being received.';
    return new OutcomeUnknownError(this.operation, why, (err as NodeJS.ErrnoException).code ?? 'ECONNRESET');
  }

  private timedOut(): void {
    const { operation, limits } = this;
    this.finish(
      this.connected
        ? new TimeoutError(operation, limits.timeoutMs)
        : new NetworkError(operation, `Could not connect to the service within ${formatSeconds(limits.timeoutMs)}.`, 'ETIMEDOUT'),
    );
  }

  private tooLarge(what?: string): void {
    this.finish(new ResponseTooLargeError(this.operation, this.limits.maxResponseBytes, this.status, what));
  }

  private finish(error: CallError | null, answer?: HttpAnswer): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.timer);
    this.limits.signal?.removeEventListener('abort', this.onAbort);
    if (error) {
      // Drops the connection: what is still on its way must not be read as the next answer.
      this.controller?.abort(error);
      this.decoder?.destroy();
      this.settle.reject(error);
    } else this.settle.resolve(answer!);
  }
}

/** A transport factory over undici reading the proxy settings from `config.env` (default process.env) when each transport is made. */
export function nodeTransportFactory(config: NodeTransportConfig = {}): TransportFactory {
  return (options) => new NodeTransport(options, config);
}

/** The transport of the command line, the browser shell and the tests. */
export const nodeTransport: TransportFactory = nodeTransportFactory();
