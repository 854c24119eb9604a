/**
 * `/API/APIservice.asmx` and everything under it: the HTML page, `?WSDL`, and the operations in the four
 * bindings. Requests are read and answers written by the shared codec only; this module decides which
 * binding a request uses, reads its body within the limits, authenticates, runs the handler and turns
 * every failure into the binding's own fault:
 *
 * - the codec's request errors: a Client fault with the codec's status (400 unparsable XML, 404 unknown
 *   operation in the path, 413, 415, else 500);
 * - "Invalid credentials" and broken rules: a Client fault, 500; refused credentials marked with the
 *   InvalidCredentials subcode (SOAP 1.2 Subcode, SOAP 1.1 detail element, GET/POST Fault-Subcode header);
 * - anything else: logged here, answered as a Server fault that says nothing about the cause.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { OPERATIONS } from '../../src-shared/catalog';
import {
  CONTENT_TYPE,
  SERVICE_PATH,
  WireError,
  buildFault,
  buildResponse,
  faultForWireError,
  parseRequest,
  type AnyCall,
  type Binding,
  type RequestOptions,
  type WireResponse,
} from '../../src-shared/wire';
import type { Authenticator } from '../auth/authenticator';
import { RuleError, ServiceBusy } from '../errors';
import type { Logger } from '../log';
import { runOperation } from '../operations';
import { loginKey, type ServiceStore, type UserRow } from '../store';
import { answer, send, write, writeAtTurnEnd } from './answer';
import { dependenciesOf, isCacheable, stampScope, touchedBy } from './answer-dependencies';
import { BodyBudget } from './body-budget';
import type { TrustedProxies } from './client-address';
import { helpPage } from './help-page';
import type { HttpLimits } from './limits';
import { RequestHeads, type RequestHead } from './request-head';
import type { Entry, ResponseCache } from './response-cache';
import { WriteGate, type WriteGateLoad, type WriteGateOptions } from './write-gate';
import { WsdlDocument } from './wsdl';

export interface EndpointOptions {
  namespace: string;
  timeZone: string;
  limits: HttpLimits;
  logger: Logger;
  /** The origin to write into the WSDL when a request names no usable Host. */
  fallbackOrigin: () => string;
  /** Answers to repeated identical reads; undefined turns it off. */
  cache?: ResponseCache<KnownRequest>;
  now?: () => number;
  /** Holds a crowded call's answer back for `ms` (default: a timer). */
  pause?: (ms: number) => Promise<void>;
  /** How writes of concurrent requests are gathered into one group commit (see write-gate.ts), and the load it looks at. */
  writeGate: WriteGateOptions;
  load: WriteGateLoad;
  /** The proxies whose X-Forwarded-For names the client a call comes from (its verification's turn is that address's). */
  trustedProxies: TrustedProxies;
}

/** A request as the cache of answers keeps it: as read, its password blanked, and the user it was verified for. */
export interface KnownRequest {
  call: AnyCall;
  user: UserRow;
}

export const SERVER_FAULT_MESSAGE = 'Server was unable to process request.';

const SERVICE_PATH_LOWER = SERVICE_PATH.toLowerCase();
// A Host header is used in the WSDL's addresses only when it is a plain host name or address with a port.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252})|\[[0-9A-Fa-f:.]{2,45}\])(?::\d{1,5})?$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });
const PERCENT_ESCAPES = /(?:%[0-9A-Fa-f]{2})+/g;
/** A held-back answer's wait; it never keeps a stopping service alive. */
const timerPause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

class BodyTooLarge extends Error {}
/** The bodies in flight already hold the budget of all of them. */
class BudgetExhausted extends Error {}
/** The client went away before its request was read; there is no one to answer. */
class ClientGone extends Error {}

function sendText(res: ServerResponse, status: number, text: string, extra?: Record<string, string>): void {
  send(res, { status, contentType: CONTENT_TYPE.text, body: text }, extra);
}

/**
 * Reads the request body, refused beyond `limit` bytes (by Content-Length before reading, else while
 * reading) and when the bodies of all requests in flight would pass the shared budget; `done` is called
 * once, with the body or the error. What it took from the budget is given back when the body is whole
 * (its bytes then live only as long as the request's synchronous handling) or refused. A callback, not a
 * promise: a request answered from the cache of answers is then answered in the turn its body arrives,
 * without a promise or a named closure made for it (tsx names every one, at a property definition's cost).
 */
function readBody(req: IncomingMessage, limit: number, budget: BodyBudget, done: (error: Error | null, body: Buffer) => void): void {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return done(new BodyTooLarge(), EMPTY);
  const reading = { chunks: [] as Buffer[], size: 0, done: false };
  // Unnamed closures given straight to `on`: a bound function cost more (bind copies the name and length
  // of the function it binds: 4% of the mix's CPU in all), and one held in a const, its name defined.
  req.on('data', (chunk: Buffer) => {
    if (reading.done) return;
    if (reading.size + chunk.length > limit) return settleBody(reading, budget, done, new BodyTooLarge());
    if (!budget.take(budget.counted(reading.size, reading.size + chunk.length))) {
      return settleBody(reading, budget, done, new BudgetExhausted());
    }
    reading.size += chunk.length;
    reading.chunks.push(chunk);
  });
  req.on('end', () => {
    if (!reading.done) settleBody(reading, budget, done, null);
  });
  // The client went away (or its connection failed) before the body was whole: no one is left to answer.
  req.on('error', () => {
    if (!reading.done) settleBody(reading, budget, done, new ClientGone());
  });
  req.on('close', () => {
    if (!reading.done) settleBody(reading, budget, done, new ClientGone());
  });
}

const EMPTY = Buffer.alloc(0);

function settleBody(
  reading: { chunks: Buffer[]; size: number; done: boolean },
  budget: BodyBudget,
  done: (error: Error | null, body: Buffer) => void,
  error: Error | null,
): void {
  reading.done = true;
  budget.give(budget.counted(0, reading.size));
  const { chunks } = reading;
  if (error) {
    chunks.length = 0;
    done(error, EMPTY);
  } else done(null, chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, reading.size));
}

export class ServiceEndpoint {
  private readonly wsdl: WsdlDocument;
  private readonly page: string;
  private readonly readOptions: RequestOptions;
  private readonly now: () => number;
  private readonly budget: BodyBudget;
  private readonly writeGate: WriteGate;
  private readonly heads: RequestHeads;

  constructor(
    private readonly store: ServiceStore,
    private readonly auth: Authenticator,
    private readonly options: EndpointOptions,
  ) {
    this.wsdl = new WsdlDocument(options.namespace);
    this.page = helpPage(options.namespace);
    this.readOptions = {
      namespace: options.namespace,
      timeZone: options.timeZone,
      limits: { maxChars: options.limits.maxBodyBytes, maxDepth: options.limits.maxXmlDepth },
    };
    this.now = options.now ?? Date.now;
    this.budget = new BodyBudget(options.limits.maxBufferedBodyBytes, options.limits.freeBodyBytes);
    this.writeGate = new WriteGate(options.writeGate, options.load);
    this.heads = new RequestHeads(options.namespace);
  }

  /** Answers one HTTP request; never throws and never leaves a request unanswered. */
  handle(req: IncomingMessage, res: ServerResponse): void {
    this.settled(req, res, () => this.route(req, res));
  }

  /**
   * Runs a step of answering `req`, at once or to a promise; a failure it did not turn into a fault is
   * logged and answered as a Server fault (or the connection dropped, when the answer had begun).
   */
  private settled(req: IncomingMessage, res: ServerResponse, step: () => Promise<void> | void): void {
    try {
      step()?.catch((e: unknown) => this.unhandled(req, res, e));
    } catch (e) {
      this.unhandled(req, res, e);
    }
  }

  private unhandled(req: IncomingMessage, res: ServerResponse, e: unknown): void {
    this.options.logger.error(`Unhandled failure of ${req.method} ${SERVICE_PATH}`, e);
    if (!res.headersSent) sendText(res, 500, SERVER_FAULT_MESSAGE);
    else res.destroy();
  }

  private route(req: IncomingMessage, res: ServerResponse): Promise<void> | void {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    const query = q < 0 ? '' : url.slice(q + 1);
    const lower = path.toLowerCase();
    const method = req.method ?? 'GET';

    if (lower === SERVICE_PATH_LOWER || path === '/') {
      if (method === 'GET' || method === 'HEAD') return this.describe(req, res, query);
      if (method === 'POST' && path !== '/') return this.soap(req, res);
      return sendText(res, 405, `Method ${method} is not allowed here.`, { Allow: 'GET, HEAD, POST' });
    }
    if (lower.startsWith(`${SERVICE_PATH_LOWER}/`)) {
      let operation: string;
      try {
        operation = decodeURIComponent(path.slice(SERVICE_PATH.length + 1));
      } catch {
        return sendText(res, 400, 'The request path is not valid.');
      }
      if (method !== 'GET' && method !== 'POST') {
        return sendText(res, 405, `Method ${method} is not allowed here.`, { Allow: 'GET, POST' });
      }
      return this.form(req, res, method, operation, query);
    }
    return sendText(res, 404, 'Not found.');
  }

  /** GET of the bare address: the WSDL when the query is `wsdl` (any case), else the HTML page. */
  private describe(req: IncomingMessage, res: ServerResponse, query: string): void {
    const first = query.split('&', 1)[0]!.split('=', 1)[0]!.toLowerCase();
    if (first === 'wsdl') {
      const host = req.headers.host;
      const origin = host !== undefined && HOST.test(host) ? `http://${host}` : this.options.fallbackOrigin();
      return send(res, { status: 200, contentType: CONTENT_TYPE.xml, body: this.wsdl.render(origin) });
    }
    send(res, { status: 200, contentType: 'text/html; charset=utf-8', body: this.page });
  }

  /** A POST to the bare address: SOAP 1.1 or 1.2 by the media type. */
  private soap(req: IncomingMessage, res: ServerResponse): void {
    const contentType = req.headers['content-type'];
    const soapActionHeader = req.headers.soapaction;
    const soapAction = Array.isArray(soapActionHeader) ? soapActionHeader[0] : soapActionHeader;
    const head = this.heads.of('POST', undefined, contentType, soapAction);
    const binding = head.binding;
    if (binding === undefined) return sendText(res, head.refusal!.httpStatus, head.refusal!.message);
    if (head.charsetRefused) return this.refuseCharset(res, binding);
    readBody(req, this.options.limits.maxBodyBytes, this.budget, (error, bytes) =>
      this.settled(req, res, () => {
        if (error) return this.bodyRefused(req, res, binding, error);
        const { key, answered, pending } = this.lookUp(res, binding, head, bytes);
        if (answered) return pending;
        const body = this.text(res, binding, bytes);
        if (body === undefined) return;
        return this.call(res, binding, { method: 'POST', contentType, soapAction, body }, key);
      }),
    );
  }

  /** `.../APIservice.asmx/<Operation>` by GET (query string) or POST (form). */
  private form(req: IncomingMessage, res: ServerResponse, method: 'GET' | 'POST', operation: string, query: string): Promise<void> | void {
    const contentType = req.headers['content-type'];
    const head = this.heads.of(method, operation, contentType, undefined);
    const binding = head.binding;
    if (binding === undefined) return sendText(res, head.refusal!.httpStatus, head.refusal!.message);
    if (binding === 'httpGet') {
      if (!this.escapesAreUtf8(res, binding, query)) return;
      const { key, answered, pending } = this.lookUp(res, binding, head, query);
      if (answered) return pending;
      return this.call(res, binding, { method, pathOperation: operation, query }, key);
    }
    if (head.charsetRefused) return this.refuseCharset(res, binding);
    readBody(req, this.options.limits.maxBodyBytes, this.budget, (error, bytes) =>
      this.settled(req, res, () => {
        if (error) return this.bodyRefused(req, res, binding, error);
        const { key, answered, pending } = this.lookUp(res, binding, head, bytes);
        if (answered) return pending;
        const body = this.text(res, binding, bytes);
        if (body === undefined || !this.escapesAreUtf8(res, binding, body)) return;
        return this.call(res, binding, { method, pathOperation: operation, contentType, body }, key);
      }),
    );
  }

  /**
   * The request's key in the cache of answers (undefined: its answers are never kept), and whether the
   * cache has answered it: a hit at once, a request seen before answered anew by `pending`.
   */
  private lookUp(
    res: ServerResponse,
    binding: Binding,
    head: RequestHead,
    body: string | Buffer,
  ): { key: string | undefined; answered: boolean; pending?: Promise<void> } {
    const key = head.cacheable ? this.options.cache?.keyOf(head.keyHead, body) : undefined;
    const entry = this.fromCache(key);
    if (entry === undefined) return { key, answered: false };
    if (entry.answer !== undefined && entry.stamp === undefined) {
      writeAtTurnEnd(res, entry.answer);
      return { key, answered: true };
    }
    return { key, answered: true, pending: this.answerKnown(res, binding, entry, key!) };
  }

  /**
   * What the cache of answers holds for the request, when it was seen since the last commit of another
   * process and the throttle does not refuse its login meanwhile: its answer when nothing it shows has
   * been written here since (given at once, or once its stamp is found current), and the request as it
   * was read and verified, to be answered anew without reading and verifying it again.
   */
  private fromCache(key: string | undefined): Entry<KnownRequest> | undefined {
    if (key === undefined) return undefined;
    const entry = this.options.cache!.get(key, this.store.outsideGeneration());
    // A lock that cannot be told at once (the shared throttle asking its table) is a miss.
    if (!entry || this.auth.throttle.isLocked(entry.login) !== false) return undefined;
    return entry;
  }

  /** A body that could not be read whole: the fault that says why (or nothing, when no one is left to answer). */
  private bodyRefused(req: IncomingMessage, res: ServerResponse, binding: Binding, e: Error): void {
    if (e instanceof ClientGone) {
      res.destroy();
      return;
    }
    if (e instanceof BudgetExhausted) {
      // Busy with the bodies of many others: try again in a moment; the rest of this one is not read.
      req.pause();
      send(
        res,
        buildFault(binding, { code: 'Server', message: 'The service is busy receiving other requests; try again shortly.', status: 503 }),
        {
          'Retry-After': '1',
          Connection: 'close',
        },
      );
      res.once('finish', () => req.destroy());
      return;
    }
    if (!(e instanceof BodyTooLarge)) throw e;
    const limit = this.options.limits.maxBodyBytes;
    // Stop reading; the connection closes once the answer is out.
    req.resume();
    send(res, buildFault(binding, { code: 'Client', message: `The request is larger than ${limit} bytes.`, status: 413 }), {
      Connection: 'close',
    });
  }

  /** The fault for a request that declares a charset other than UTF-8, the only one read. */
  private refuseCharset(res: ServerResponse, binding: Binding): void {
    send(res, buildFault(binding, { code: 'Client', message: 'The request must be encoded in UTF-8.', status: 415 }));
  }

  /**
   * True when every run of %XX escapes in a form or query string is UTF-8; otherwise a fault has been
   * answered. URLSearchParams would turn such bytes (a Latin-1 é, say) into U+FFFD without a word.
   */
  private escapesAreUtf8(res: ServerResponse, binding: Binding, form: string): boolean {
    for (const [run] of form.matchAll(PERCENT_ESCAPES)) {
      try {
        utf8.decode(Buffer.from(run.replaceAll('%', ''), 'hex'));
      } catch {
        send(res, buildFault(binding, { code: 'Client', message: 'The request is not valid UTF-8.', status: 400 }));
        return false;
      }
    }
    return true;
  }

  /** The body as text, or undefined when it is not UTF-8 and a fault has been answered instead. */
  private text(res: ServerResponse, binding: Binding, bytes: Buffer): string | undefined {
    try {
      return utf8.decode(bytes);
    } catch {
      send(res, buildFault(binding, { code: 'Client', message: 'The request is not valid UTF-8.', status: 400 }));
      return undefined;
    }
  }

  /** Parses, authenticates, runs and answers one call; `cacheKey` (when caching) is where a read's answer is kept. */
  private async call(
    res: ServerResponse,
    binding: Binding,
    incoming: Parameters<typeof parseRequest>[1],
    cacheKey: string | undefined,
  ): Promise<void> {
    let call: AnyCall;
    try {
      call = parseRequest(binding, incoming, this.readOptions);
    } catch (e) {
      if (e instanceof WireError) return send(res, faultForWireError(binding, e));
      throw e;
    }
    let user: UserRow;
    try {
      const from = this.options.trustedProxies.clientOf(res.req.socket.remoteAddress, res.req.headers['x-forwarded-for']);
      user = await this.auth.authenticate(call.credentials, from);
    } catch (e) {
      if (e instanceof ServiceBusy) return this.busy(res, binding, e);
      return write(res, answer(this.failure(binding, call, e)));
    }
    const known = cacheKey === undefined ? undefined : { call: { ...call, credentials: { ...call.credentials, password: '' } }, user };
    await this.run(res, binding, call, user, cacheKey, known);
  }

  /**
   * A crowded call's 503 with Retry-After, held back for `crowdedAnswerDelayMs` first. A client that sends
   * its next call as soon as one is answered, Retry-After or not, would otherwise be back at once, and a
   * few dozen such would keep the event loop turning on refusals alone, each turn longer; libuv accepts
   * one connection per turn (libuv/libuv#3696), so new clients' connections waited seconds in the
   * kernel's queue. Held back, they cost a timer each.
   */
  private async busy(res: ServerResponse, binding: Binding, e: ServiceBusy): Promise<void> {
    const delayMs = this.options.limits.crowdedAnswerDelayMs;
    if (delayMs > 0) {
      let gone = false;
      const left = () => (gone = true);
      res.once('close', left);
      await (this.options.pause ?? timerPause)(delayMs);
      res.off('close', left);
      // The client went away (or the service stops): nobody is left to tell.
      if (gone) return;
    }
    send(res, buildFault(binding, { code: 'Server', message: e.message, status: 503 }), { 'Retry-After': String(e.retryAfterSeconds) });
  }

  /**
   * A request read and verified before: its answer when its stamp is still the database's (one round
   * trip; ServiceStore.answerStamp), else answered anew from the store, without reading and verifying it
   * again, and kept with the stamp just read (read before the data, it can only be older than them).
   */
  private answerKnown(res: ServerResponse, binding: Binding, entry: Entry<KnownRequest>, cacheKey: string): Promise<void> {
    const known = entry.request;
    const pending = this.stampOf(known.call, known.user);
    // Without stamps (SQLite) the request runs in this very turn, as a read must there (see run).
    if (pending === undefined) return this.run(res, binding, known.call, known.user, cacheKey, known);
    return pending.then((stamp) => {
      if (entry.answer !== undefined && stamp === entry.stamp) return writeAtTurnEnd(res, entry.answer);
      this.options.cache!.outdated(cacheKey, entry);
      return this.run(res, binding, known.call, known.user, cacheKey, known, stamp);
    });
  }

  /** The stamp of what the call's answer shows, where the store's answers carry one; undefined elsewhere. */
  private stampOf(call: AnyCall, user: UserRow): Promise<string> | undefined {
    return this.store.answerStamp?.(user.id, stampScope(call));
  }

  /** Runs a verified call and answers it; a read's answer is kept under `cacheKey` with `known`. */
  private async run(
    res: ServerResponse,
    binding: Binding,
    call: AnyCall,
    user: UserRow,
    cacheKey: string | undefined,
    known: KnownRequest | undefined,
    stampRead?: string,
  ): Promise<void> {
    let wire: WireResponse;
    /** A read's answer is kept under the generation it began in, with what it shows (and its stamp). */
    let keep: { generation: number; dependsOn: string[]; stamp: string | undefined } | undefined;
    const cache = this.options.cache;
    const reads = OPERATIONS[call.operation].access === 'read';
    try {
      const context = { user, timeZone: this.options.timeZone, now: this.now };
      let result;
      if (reads) {
        // A read runs on committed data and its answer is kept under the outside generation seen as it
        // began. On SQLite it runs at once, in one snapshot, and its answer is kept (or not) in the same
        // synchronous step: no write can be committed, nor its touches dropped, in between; this process's
        // writes drop what they touch themselves. On PostgreSQL, where others write too, the answer is
        // kept with the stamp read before it (ServiceStore.answerStamp), and given only while it holds.
        const keeping = cache !== undefined && cacheKey !== undefined && known !== undefined && isCacheable(call.operation);
        // Awaited only where the store has stamps: on SQLite the read stays in the turn the request came in.
        const pending = keeping && stampRead === undefined ? this.stampOf(call, user) : undefined;
        const stamp = pending === undefined ? stampRead : await pending;
        let generation = 0;
        const read = this.store.read((store) => {
          generation = this.store.outsideGeneration();
          return runOperation(call, { ...context, store });
        });
        result = read instanceof Promise ? await read : read;
        if (keeping) keep = { generation, dependsOn: dependenciesOf(call, user, result), stamp };
      } else {
        // A write waits for the writes of other requests in flight (write-gate.ts) and is answered once
        // its group is committed; the cached answers showing what it touched are dropped then, before
        // any other request is read (the group's writes settle in one go, and their continuations run
        // before the event loop takes the next request).
        const touched = cache ? touchedBy(call, user) : [];
        const gate = this.writeGate.enter();
        if (gate) await gate;
        try {
          result = await this.store.write((store) => runOperation(call, { ...context, store }));
        } finally {
          cache?.invalidate(touched);
        }
      }
      wire = buildResponse(binding, call.operation, result, this.options.namespace);
    } catch (e) {
      wire = this.failure(binding, call, e);
    }
    const a = answer(wire);
    if (keep) cache!.set(cacheKey!, keep.generation, loginKey(call.credentials.login), a, keep.dependsOn, known!, keep.stamp);
    // A write's answer goes at once: its group's answers come together (see writeAtTurnEnd).
    if (reads) writeAtTurnEnd(res, a);
    else write(res, a);
  }

  /**
   * A broken rule or refused credentials as a Client fault (refused credentials marked with their subcode);
   * anything else logged, and a Server fault that says nothing of it.
   */
  private failure(binding: Binding, call: AnyCall, e: unknown): WireResponse {
    if (e instanceof RuleError) {
      const subcode = e.subcode ? { subcode: e.subcode } : {};
      return buildFault(binding, { code: 'Client', message: e.message, ...subcode }, this.options.namespace);
    }
    this.options.logger.error(`Operation ${call.operation} failed`, e);
    return buildFault(binding, { code: 'Server', message: SERVER_FAULT_MESSAGE });
  }
}
