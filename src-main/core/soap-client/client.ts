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
import { buildRequest, localTimeZone, parseResponse, ServiceFault, WireError, type Binding } from '../../../src-shared/wire';
import {
  FaultError,
  InvalidCredentialsError,
  MalformedResponseError,
  isCredentialFault,
  isMissingOperation,
} from './errors';
import { Agents, exchange, type HttpAnswer } from './transport';
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
  /** Operations the service is known to offer (from `connect`); unknown means: try, and fall back. */
  available?: Iterable<OperationName>;
}

export interface CallOptions {
  timeoutMs?: number;
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
  private readonly agents: Agents;
  private readonly credentialSource: SoapClientOptions['credentials'];
  private credentials: Promise<Credentials> | null = null;
  /** Operations found missing, by a WSDL that lacks them or by a call that the service did not recognise. */
  private readonly missing = new Set<OperationName>();

  constructor(options: SoapClientOptions) {
    this.base = normalizeBaseUrl(options.baseUrl);
    this.baseUrl = this.base;
    this.namespace = options.namespace;
    this.binding = options.binding ?? 'soap12';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.timeZone = options.timeZone ?? localTimeZone();
    this.credentialSource = options.credentials;
    this.agents = new Agents(options.maxSockets ?? 8);
    if (options.available) {
      const offered = new Set(options.available);
      for (const name of OPERATION_NAMES) if (!offered.has(name)) this.missing.add(name);
    }
    const ops: Record<string, unknown> = {};
    for (const name of OPERATION_NAMES) ops[name] = (params: never, o?: CallOptions) => this.call(name, params, o);
    this.ops = ops as OperationMethods;
  }

  private loadCredentials(): Promise<Credentials> {
    if (!this.credentials) {
      const source = this.credentialSource;
      this.credentials = typeof source === 'function' ? source() : Promise.resolve(source);
      // A failed fetch (no password given) must not stick.
      this.credentials.catch(() => (this.credentials = null));
    }
    return this.credentials;
  }

  /** Calls one operation and returns its typed result, or throws a CallError. */
  async call<N extends OperationName>(operation: N, params: ParamsOf<N>, options: CallOptions = {}): Promise<ResultOf<N>> {
    const credentials = await this.loadCredentials();
    const req = buildRequest(this.binding, { operation, credentials, params }, this.namespace);
    // The codec's path starts with the service path; the base may carry a prefix of its own.
    const url = new URL(this.base + req.path);
    const answer = await exchange(operation, { method: req.method, url, headers: req.headers, body: req.body }, this.agents.for(url), {
      timeoutMs: options.timeoutMs ?? this.timeoutMs,
      maxResponseBytes: this.maxResponseBytes,
    });
    return this.read(operation, answer);
  }

  private read<N extends OperationName>(operation: N, answer: HttpAnswer): ResultOf<N> {
    try {
      return parseResponse(operation, answer, {
        timeZone: this.timeZone,
        limits: { maxChars: this.maxResponseBytes, maxDepth: 64 },
      });
    } catch (e) {
      if (e instanceof ServiceFault) {
        throw isCredentialFault(e) ? new InvalidCredentialsError(operation, e) : new FaultError(operation, e);
      }
      if (e instanceof WireError) {
        throw new MalformedResponseError(operation, `The answer to ${operation} could not be read: ${e.message}`, answer.status, e);
      }
      throw e;
    }
  }

  /** Whether the service is known to lack the operation. */
  lacks(operation: OperationName): boolean {
    return this.missing.has(operation);
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
    if (!this.missing.has(preferred)) {
      try {
        return fromPreferred(await this.call(preferred, params, options));
      } catch (e) {
        if (!isMissingOperation(e)) throw e;
        this.missing.add(preferred);
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
      (r) => ({ items: r as ListedTransaction[], hasIds: true }),
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

  /** Closes the kept connections. */
  close(): void {
    this.agents.destroy();
  }
}
