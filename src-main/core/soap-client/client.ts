/**
 * The typed SOAP client: one `call` for every operation of the catalog, typed by ParamsOf/ResultOf,
 * over SOAP 1.2 by default (SOAP 1.1, HTTP GET and HTTP POST selectable). Requests and answers go
 * through the shared codec; this module adds the HTTP exchange, typed errors and the choice between
 * the "2" variants and the older operations of a service that lacks them.
 */
import {
  OPERATION_NAMES,
  type ApiAccount2,
  type ApiDefineTransaction2,
  type ApiTransaction,
  type Credentials,
  type OperationName,
  type ParamsOf,
  type ResultOf,
} from '../../../src-shared/catalog';
import { buildRequest, localTimeZone, type Binding } from '../../../src-shared/wire';
import { readAnswer } from './answers';
import { isMissingOperation } from './errors';
import type { Transport, TransportFactory } from './transport';
import { nodeTransport } from './transports/node';
import { checkAnswer, countBeforeParsing } from './trust';
import { normalizeBaseUrl } from './urls';

export interface SoapClientOptions {
  /** The service's base URL (`{base_url}`); `/API/APIservice.asmx` is appended. */
  baseUrl: string;
  /** The XML namespace of the operations (`targetNamespace` of the WSDL). */
  namespace: string;
  /** The three credentials, or a function that fetches them when the first call needs them. */
  credentials: Credentials | (() => Promise<Credentials>);
  binding?: Binding;
  /** Time limit of one call, from sending to the last byte of the answer. */
  timeoutMs?: number;
  /** Largest answer read; a larger one fails with ResponseTooLargeError without being buffered. */
  maxResponseBytes?: number;
  /** Zone that dateTimes with an offset are converted into (default: this machine's). */
  timeZone?: string;
  /** Connections kept open to the service at most (parallel calls beyond it wait). */
  maxSockets?: number;
  /** What carries the requests (default: Node's HTTP stack). */
  transport?: TransportFactory;
  /** SHA-256 fingerprint of a self-signed certificate the user trusted (see TransportOptions). */
  trustedCertificate?: string | null;
  /** Operations the service is known to offer (from `connect`); unknown means: try, and fall back. */
  available?: Iterable<OperationName>;
}

export interface CallOptions {
  timeoutMs?: number;
  /** Cancels the call (CancelledError); defaults to the client's own (see withSignal). */
  signal?: AbortSignal;
}

/** A transaction from either list variant; `Id` is null when the service only offers the older list. */
export type ListedTransaction = ApiTransaction & { Id: number | null };
export interface TransactionList {
  items: ListedTransaction[];
  /** False when the service offers only the older list, whose records carry no Id. */
  hasIds: boolean;
}

export type OperationMethods = { [N in OperationName]: (params: ParamsOf<N>, options?: CallOptions) => Promise<ResultOf<N>> };

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

export class SoapClient {
  readonly baseUrl: string;
  readonly namespace: string;
  readonly binding: Binding;
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly timeZone: string;
  /** One typed method per operation: `client.ops.TransactionListLast50_2({ AccountId: 12 })`. */
  readonly ops: OperationMethods;
  private readonly base: string;
  /** What the clients derived by withSignal share with this one. */
  private readonly shared: {
    transport: Transport;
    credentialSource: SoapClientOptions['credentials'];
    credentials: Promise<Credentials> | null;
    /** Operations found missing, by a WSDL that lacks them or by a call that the service did not recognise. */
    missing: Set<OperationName>;
  };
  private readonly signal: AbortSignal | undefined;
  private readonly options: SoapClientOptions;

  constructor(options: SoapClientOptions, derived?: { from: SoapClient; signal: AbortSignal }) {
    this.base = normalizeBaseUrl(options.baseUrl);
    this.baseUrl = this.base;
    this.namespace = options.namespace;
    this.binding = options.binding ?? 'soap12';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.timeZone = options.timeZone ?? localTimeZone();
    this.signal = derived?.signal;
    if (derived) {
      this.shared = derived.from.shared;
    } else {
      const maxConnections = options.maxSockets ?? 8;
      this.shared = {
        transport: (options.transport ?? nodeTransport)({ maxConnections, trustedCertificate: options.trustedCertificate ?? null }),
        credentialSource: options.credentials,
        credentials: null,
        missing: new Set(),
      };
      if (options.available) {
        const offered = new Set(options.available);
        for (const name of OPERATION_NAMES) if (!offered.has(name)) this.shared.missing.add(name);
      }
    }
    this.options = options;
    const ops: Record<string, unknown> = {};
    for (const name of OPERATION_NAMES) ops[name] = (params: never, o?: CallOptions) => this.call(name, params, o);
    this.ops = ops as OperationMethods;
  }

  /**
   * The same client (connections, credentials, what it learned of the service) whose calls end with
   * CancelledError once `signal` aborts: one per sync, so that Cancel stops every request in flight.
   */
  withSignal(signal: AbortSignal): SoapClient {
    return new SoapClient(this.options, { from: this, signal });
  }

  /**
   * Fetches the credentials again at the next call: for each sync, so that a password typed for it (or
   * changed since) is the one sent, never the one the client first read.
   */
  forgetCredentials(): void {
    this.shared.credentials = null;
  }

  private loadCredentials(): Promise<Credentials> {
    const shared = this.shared;
    if (!shared.credentials) {
      const source = shared.credentialSource;
      const loading = typeof source === 'function' ? source() : Promise.resolve(source);
      shared.credentials = loading;
      // A failed fetch (no password given) must not stick.
      loading.catch(() => {
        if (shared.credentials === loading) shared.credentials = null;
      });
    }
    return shared.credentials;
  }

  /** Calls one operation and returns its typed result, or throws a CallError (classified by readAnswer). */
  async call<N extends OperationName>(operation: N, params: ParamsOf<N>, options: CallOptions = {}): Promise<ResultOf<N>> {
    const credentials = await this.loadCredentials();
    const req = buildRequest(this.binding, { operation, credentials, params }, this.namespace);
    // The codec's path starts with the service path; the base may carry a prefix of its own.
    const url = new URL(this.base + req.path);
    const answer = await this.shared.transport.exchange(
      operation,
      { method: req.method, url, headers: req.headers, body: req.body },
      { timeoutMs: options.timeoutMs ?? this.timeoutMs, maxResponseBytes: this.maxResponseBytes, signal: options.signal ?? this.signal },
    );
    // A list too long for the app is refused before its records are parsed.
    if (answer.status === 200) countBeforeParsing(operation, answer.body);
    const result = readAnswer(operation, answer, {
      binding: this.binding,
      timeZone: this.timeZone,
      maxChars: this.maxResponseBytes,
      namespace: this.namespace,
    });
    return checkAnswer(operation, result, params);
  }

  /** Whether the service is known to lack the operation. */
  lacks(operation: OperationName): boolean {
    return this.shared.missing.has(operation);
  }

  /** Calls `preferred`, or `older` when the service lacks `preferred` (remembered for later calls). */
  private async either<P extends OperationName, O extends OperationName, T>(
    preferred: P,
    older: O,
    params: ParamsOf<P> & ParamsOf<O>,
    fromPreferred: (r: ResultOf<P>) => T,
    fromOlder: (r: ResultOf<O>) => T,
    options?: CallOptions,
  ): Promise<T> {
    if (!this.shared.missing.has(preferred)) {
      try {
        return fromPreferred(await this.call(preferred, params, options));
      } catch (e) {
        if (!isMissingOperation(e)) throw e;
        this.shared.missing.add(preferred);
      }
    }
    return fromOlder(await this.call(older, params, options));
  }

  /** Accounts with balances: AccountListWithAmount2, or AccountListWithAmount (no IsHidden: read as false). */
  listAccounts(options?: CallOptions): Promise<ApiAccount2[]> {
    return this.either(
      'AccountListWithAmount2',
      'AccountListWithAmount',
      {},
      (r) => r,
      (r) => r.map((a) => ({ ...a, IsHidden: false })),
      options,
    );
  }

  /** The last 50 transactions of an account: TransactionListLast50_2, or TransactionListLast50 (no ids). */
  listTransactions(accountId: number, options?: CallOptions): Promise<TransactionList> {
    return this.either<'TransactionListLast50_2', 'TransactionListLast50', TransactionList>(
      'TransactionListLast50_2',
      'TransactionListLast50',
      { AccountId: accountId },
      (r) => ({ items: r, hasIds: true }),
      (r) => ({ items: r.map((t) => ({ ...t, Id: null })), hasIds: false }),
      options,
    );
  }

  /** Templates: DefineTransactionList2, or DefineTransactionList (no Ord: their listed order is kept). */
  listTemplates(options?: CallOptions): Promise<ApiDefineTransaction2[]> {
    return this.either(
      'DefineTransactionList2',
      'DefineTransactionList',
      {},
      (r) => r,
      (r) => r.map((t, i) => ({ ...t, Ord: i })),
      options,
    );
  }

  /** Closes the kept connections (of every client derived from this one too). */
  close(): void {
    this.shared.transport.close();
  }
}
