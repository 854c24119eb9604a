/**
 * The Node HTTP server around the endpoint: keep-alive, timeouts for slow clients, header and connection
 * caps (in all, per address, idle ones closed first when slots run low: connection-slots.ts); over TLS
 * (HTTPS) when given a certificate and its key.
 */
import { createServer, type ServerResponse } from 'node:http';
import { createServer as createSecureServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { TrustedProxies } from './client-address';
import { ConnectionSlots } from './connection-slots';
import type { ServiceEndpoint } from './endpoint';
import type { HttpLimits } from './limits';

/** The server of either kind; both have the same HTTP life cycle. */
export type Server = ReturnType<typeof createServer> | ReturnType<typeof createSecureServer>;

/** A certificate (chain) and its private key, PEM text. */
export interface TlsCredentials {
  cert: string;
  key: string;
}

/** The answers not yet written, per server: at shutdown they are told to close their connection. */
const pending = new WeakMap<Server, Set<ServerResponse>>();
/** Connections open, per server, and those in use (the write gate asks). */
const connectionCounts = new WeakMap<Server, { slots: ConnectionSlots; active: ActiveConnections }>();

/**
 * How many connections have sent a request lately (within the last one to two spans of `spanMs`), counted
 * without a walk over the connections: each remembers the span of its last request, and a count per
 * span is kept. A keep-alive connection left idle (a client between two calls, a tool that asked once)
 * drops out of it, so the write gate does not wait for writes that no one is about to send.
 */
export class ActiveConnections {
  private readonly lastSpan = new WeakMap<object, number>();
  private span = 0;
  private spanStarted = 0;
  private current = 0;
  private previous = 0;

  constructor(
    private readonly spanMs = 100,
    private readonly now: () => number = performance.now.bind(performance),
  ) {}

  /** A request arrived on `connection`. */
  seen(connection: object): void {
    this.turn();
    if (this.lastSpan.get(connection) === this.span) return;
    this.lastSpan.set(connection, this.span);
    this.current += 1;
  }

  /** Connections that sent a request in this span or the one before. */
  get count(): number {
    this.turn();
    return Math.max(this.current, this.previous);
  }

  private turn(): void {
    const now = this.now();
    if (now - this.spanStarted < this.spanMs) return;
    // A span passed with no request at all leaves nothing to carry over.
    this.previous = now - this.spanStarted < 2 * this.spanMs ? this.current : 0;
    this.current = 0;
    this.span += 1;
    this.spanStarted = now;
  }
}

/** The server; `trusted` are the proxies whose connections are not capped per address (client-address.ts). */
export function createHttpServer(
  endpoint: ServiceEndpoint,
  limits: HttpLimits,
  tls?: TlsCredentials,
  trusted = new TrustedProxies(),
): Server {
  const unanswered = new Set<ServerResponse>();
  const counts = { slots: new ConnectionSlots(limits, trusted, tls !== undefined), active: new ActiveConnections() };
  const options = {
    maxHeaderSize: limits.maxHeaderBytes,
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // How often Node looks for requests past their timeouts; by default only every 30 s.
    connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
    noDelay: true,
  };
  const handle = (req: Parameters<ServiceEndpoint['handle']>[0], res: ServerResponse) => {
    // A keep-alive client may still send requests on its connection while the server stops.
    if (!server.listening) res.shouldKeepAlive = false;
    unanswered.add(res);
    counts.active.seen(req.socket);
    counts.slots.requestStarted(req.socket);
    res.once('close', () => {
      unanswered.delete(res);
      counts.slots.requestEnded(req.socket);
    });
    endpoint.handle(req, res);
  };
  // The same handler over TLS: a handshake gets as long as the headers of a request.
  const server: Server = tls
    ? createSecureServer({ ...options, cert: tls.cert, key: tls.key, handshakeTimeout: limits.headersTimeoutMs }, handle)
    : createServer(options, handle);
  server.maxConnections = limits.maxConnections;
  pending.set(server, unanswered);
  connectionCounts.set(server, counts);
  // The TCP connection, before Node's own listener: one over its address's cap costs no HTTP parser or TLS handshake.
  server.prependListener('connection', (socket: Socket) => counts.slots.accepted(socket));
  return server;
}

/** Requests of the server received and not yet answered. */
export function requestsInFlight(server: Server): number {
  return pending.get(server)?.size ?? 0;
}

/** Connections of the server open now. */
export function openConnections(server: Server): number {
  return connectionCounts.get(server)?.slots.open ?? 0;
}

/** Connections of the server open now that have sent a request lately (see ActiveConnections). */
export function activeConnections(server: Server): number {
  const counts = connectionCounts.get(server);
  return counts === undefined ? 0 : Math.min(counts.slots.open, counts.active.count);
}

/**
 * Connections the kernel keeps waiting for their accept (it caps this at net.core.somaxconn, 4096 on
 * current Linux). Node's 511 overflowed while a client holding connections opened hundreds again at once
 * (each reset for its address's cap), and the kernel then dropped other clients' connections too, which
 * tried again only a second or three later.
 */
export const LISTEN_BACKLOG = 4096;

export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/**
 * Stops accepting connections and resolves once the server is closed. Idle keep-alive connections go at
 * once; requests in progress get `graceMs` to finish before their connections are dropped too (0: at once,
 * as a crash or a pulled cable would).
 */
export function shutdown(server: Server, graceMs = 0): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) return resolve();
    let timer: NodeJS.Timeout | undefined;
    server.close((e) => {
      clearTimeout(timer);
      if (e) reject(e);
      else resolve();
    });
    // Node keeps a connection whose answer goes out during the grace period open for the next request,
    // so close would wait for the whole grace; an answer with Connection: close ends it at once.
    for (const res of pending.get(server) ?? []) if (!res.headersSent) res.shouldKeepAlive = false;
    server.closeIdleConnections();
    if (graceMs <= 0) server.closeAllConnections();
    else timer = setTimeout(() => server.closeAllConnections(), graceMs);
  });
}

/** `http://host:port` (or https://), with IPv6 addresses in brackets. */
export function originOf(address: AddressInfo, secure = false): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `${secure ? 'https' : 'http'}://${host}:${address.port}`;
}
