/**
 * The browser shell: a loopback HTTP server that serves the built renderer and answers the same app API
 * as the Electron IPC bridge, backed by the same core, so that the app runs in any browser where Electron
 * cannot. It must not become a hole (see security.ts).
 */
import { readFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import {
  AppError,
  HTTP_API_PREFIX,
  HTTP_EVENTS_PATH,
  HTTP_HANDOVER_PATH,
  HTTP_TOKEN_HEADER,
  SHELL_KEY_PARAM,
  SHELL_TICKET_PARAM,
  type AppApi,
  type AppEvent,
  type AppEventSource,
  DEFAULT_MAX_INPUT_BYTES,
  bytesInput,
  isAppMethod,
  maxInputBytes,
  type CallOutcome,
} from '../../src-shared/app-api';
import { CONTENT_SECURITY_POLICY } from '../app-bridge/csp';
import { dispatch, type ErrorLogger } from '../app-bridge/dispatch';
import { Tickets, type TicketEnd } from './handover';
import { isListenHost, newToken, refusal, tokenMatches } from './security';

export interface WebShellOptions {
  core: AppApi & AppEventSource;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  host?: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  log?: ErrorLogger;
}

export interface WebShell {
  /** Opens the app: the page's address with this run's token in its fragment, for the owner to open by hand. */
  url: string;
  origin: string;
  token: string;
  /**
   * An address that opens one session: its one-time ticket is traded for the token once, within `ttlMs`;
   * `ended` says how the ticket ended (used, expired, or revoked by `revoke` or the shell's close).
   */
  handoverUrl(ttlMs: number, ended?: (how: TicketEnd) => void): { url: string; revoke(): void };
  close(): Promise<void>;
}

const DRAIN_LIMIT = 8 * 1024 * 1024;
/** A handover's body: `{ "ticket": "<43 characters>" }`. */
const HANDOVER_BYTES = 1024;
const HEARTBEAT_MS = 15_000;

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
};

const SECURITY_HEADERS = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'X-Frame-Options': 'DENY',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

function send(res: ServerResponse, status: number, type: string, body: string | Buffer, cache = 'no-store'): void {
  res.writeHead(status, { ...SECURITY_HEADERS, 'Content-Type': type, 'Cache-Control': cache, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

function sendJson(res: ServerResponse, status: number, outcome: CallOutcome<unknown>): void {
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(outcome));
}

function forbidden(res: ServerResponse, why: string): void {
  sendJson(res, 403, { ok: false, error: new AppError('refused', { why }).toData() });
}

/**
 * The body, or null when it is larger than `limit` (what was sent is drained, so that the caller reads our
 * 413 instead of a reset connection; a body beyond DRAIN_LIMIT is cut off). A body of declared length goes
 * straight into one buffer of that size: chunks joined at the end would hold a backup twice.
 */
async function readBody(req: IncomingMessage, limit: number): Promise<Buffer | null> {
  const declared = Number(req.headers['content-length']);
  const whole = Number.isSafeInteger(declared) && declared >= 0 && declared <= limit ? Buffer.allocUnsafe(declared) : null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (whole && size + chunk.length <= whole.length) chunk.copy(whole, size);
    else if (!whole && size + chunk.length <= limit) chunks.push(chunk);
    size += chunk.length;
    if (size > limit + DRAIN_LIMIT) {
      req.destroy();
      return null;
    }
  }
  if (size > limit) return null;
  return whole ? whole.subarray(0, size) : Buffer.concat(chunks);
}

const isType = (req: IncomingMessage, type: string) => (req.headers['content-type'] ?? '').toLowerCase().startsWith(type);
const isJson = (req: IncomingMessage) => isType(req, 'application/json');
const OCTETS = 'application/octet-stream';

function tooLarge(res: ServerResponse): undefined {
  sendJson(res, 413, { ok: false, error: new AppError('requestTooLarge').toData() });
  return undefined;
}

/** A JSON body of at most `limit` bytes (null: none), or undefined once a 413 or 400 has been answered. */
async function readJson(req: IncomingMessage, res: ServerResponse, limit: number): Promise<unknown> {
  const body = await readBody(req, limit);
  if (body === null) return tooLarge(res);
  try {
    return body.length === 0 ? null : (JSON.parse(body.toString('utf8')) as unknown);
  } catch {
    sendJson(res, 400, { ok: false, error: new AppError('requestNotJson').toData() });
    return undefined;
  }
}

/**
 * The input of an app method's call: its JSON body, or for a method that takes a file (bytesInput) the
 * body's bytes as that field; undefined once the call has been answered (refused, too large, not JSON).
 */
async function readInput(req: IncomingMessage, res: ServerResponse, method: string): Promise<unknown> {
  const known = isAppMethod(method);
  const limit = known ? maxInputBytes(method) : DEFAULT_MAX_INPUT_BYTES;
  const field = known ? bytesInput(method) : null;
  if (field === null) {
    if (!isJson(req)) return forbidden(res, 'the app API takes application/json');
    return readJson(req, res, limit);
  }
  if (!isType(req, OCTETS)) return forbidden(res, `${method} takes ${OCTETS}`);
  const body = await readBody(req, limit);
  return body === null ? tooLarge(res) : { [field]: body };
}

const isPage = (req: IncomingMessage, path: string) =>
  (req.method === 'GET' || req.method === 'HEAD') && (path === '/' || path === '/index.html');

/** What the shell's requests are answered from. */
interface Shell {
  options: WebShellOptions;
  rendererDir: string;
  /** The page: it holds no secret, it finds the token in its address (src-renderer/src/api/shell-key.ts). */
  page: Buffer;
  token: string;
  tickets: Tickets;
  streams: EventStreams;
  /** The port listened on, once it is. */
  port: number;
}

export async function startWebShell(options: WebShellOptions): Promise<WebShell> {
  const host = options.host ?? '127.0.0.1';
  if (!isListenHost(host)) throw new Error(`The browser shell listens on loopback only, not on ${host}.`);
  const token = newToken();
  const tickets = new Tickets();
  const rendererDir = normalize(options.rendererDir);
  const page = await readFile(join(rendererDir, 'index.html'));
  const shell: Shell = { options, rendererDir, page, token, tickets, streams: new EventStreams(options.core), port: 0 };

  const server = createServer((req, res) => {
    handle(shell, req, res).catch((e: unknown) => {
      (options.log ?? console.error)('browser shell request failed', e);
      if (!res.headersSent) sendJson(res, 500, { ok: false, error: new AppError('requestFailed').toData() });
      else res.destroy();
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  shell.port = await listen(server, options.port ?? 0, host);
  const origin = `http://${host === '::1' ? '[::1]' : host}:${shell.port}`;

  return {
    url: `${origin}/#${SHELL_KEY_PARAM}=${token}`,
    origin,
    token,
    handoverUrl(ttlMs, ended) {
      const ticket = tickets.issue(ttlMs, ended);
      return { url: `${origin}/#${SHELL_TICKET_PARAM}=${ticket}`, revoke: () => tickets.revoke(ticket) };
    },
    async close() {
      tickets.close();
      shell.streams.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Listens on the port (0: a free one) and says which it is. */
async function listen(server: Server, port: number, host: string): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  return (server.address() as AddressInfo).port;
}

async function handle(shell: Shell, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', `http://127.0.0.1:${shell.port}`);
  const path = url.pathname;
  const why = refusal(req.headers, shell.port, isPage(req, path));
  if (why) return forbidden(res, why);
  if (path === HTTP_HANDOVER_PATH) return handOver(shell, req, res);
  if (path.startsWith(HTTP_API_PREFIX)) return callApi(shell, req, res, path);
  if (req.method !== 'GET' && req.method !== 'HEAD') return forbidden(res, '');
  if (isPage(req, path)) return send(res, 200, 'text/html; charset=utf-8', shell.page);
  return serveStatic(shell.rendererDir, res, path);
}

/** The app API: a call (POST) or the stream of the core's events (GET), each with this run's token. */
async function callApi(shell: Shell, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  if (!tokenMatches(shell.token, req.headers[HTTP_TOKEN_HEADER] as string | undefined)) {
    return forbidden(res, 'this call does not carry the token of this run');
  }
  if (path === HTTP_EVENTS_PATH && req.method === 'GET') return shell.streams.open(res);
  if (req.method !== 'POST') return forbidden(res, 'the app API takes POST');
  const method = path.slice(HTTP_API_PREFIX.length);
  const input = await readInput(req, res, method);
  if (input === undefined) return;
  const outcome = await dispatch(shell.options.core, method, input, shell.options.log);
  return sendJson(res, 200, outcome);
}

/** Trades a live ticket for the token, once. */
async function handOver(shell: Shell, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'POST' || !isJson(req)) return forbidden(res, 'the handover takes a JSON POST');
  const input = await readJson(req, res, HANDOVER_BYTES);
  if (input === undefined) return;
  const ticket = typeof input === 'object' && input !== null ? (input as { ticket?: unknown }).ticket : undefined;
  if (!shell.tickets.redeem(ticket)) return sendJson(res, 403, { ok: false, error: new AppError('handoverSpent').toData() });
  sendJson(res, 200, { ok: true, value: { token: shell.token } });
}

/** A file of the built renderer, never one outside its folder. */
async function serveStatic(rendererDir: string, res: ServerResponse, pathname: string): Promise<void> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return send(res, 400, 'text/plain; charset=utf-8', 'Bad path.');
  }
  const file = normalize(join(rendererDir, decoded));
  if (!file.startsWith(rendererDir + sep) || decoded.includes('\0')) return send(res, 404, 'text/plain; charset=utf-8', 'Not found.');
  const type = MIME[extname(file).toLowerCase()];
  if (!type) return send(res, 404, 'text/plain; charset=utf-8', 'Not found.');
  try {
    send(res, 200, type, await readFile(file), 'public, max-age=31536000, immutable');
  } catch {
    send(res, 404, 'text/plain; charset=utf-8', 'Not found.');
  }
}

/** The open streams of the core's events, one JSON line per event, kept alive by empty lines. */
class EventStreams {
  private readonly streams = new Set<ServerResponse>();
  private readonly unsubscribe: () => void;

  constructor(core: AppEventSource) {
    this.unsubscribe = core.onEvent((event: AppEvent) => {
      const line = `${JSON.stringify(event)}\n`;
      for (const s of this.streams) s.write(line);
    });
  }

  open(res: ServerResponse): void {
    res.writeHead(200, { ...SECURITY_HEADERS, 'Content-Type': 'application/x-ndjson; charset=utf-8', 'Cache-Control': 'no-store' });
    res.write('\n');
    this.streams.add(res);
    const beat = setInterval(() => res.write('\n'), HEARTBEAT_MS);
    res.on('close', () => {
      clearInterval(beat);
      this.streams.delete(res);
    });
  }

  close(): void {
    this.unsubscribe();
    for (const s of this.streams) s.end();
  }
}
