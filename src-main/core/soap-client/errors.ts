/**
 * What can go wrong with one call, typed so that the sync engine acts on it without reading messages.
 * Every failure is one of two things:
 *
 * - the service's **verdict**: a SOAP Fault (or, on the HTTP GET/POST bindings, the service's own
 *   error text). The call was refused; for a write, nothing happened ('fault', 'auth');
 * - **everything else**: a connection that failed or was lost, a timeout, a proxy's or load balancer's
 *   408/429/502/503/504, an HTML page, an empty, truncated or garbled body. Such an answer says nothing
 *   about the request: a read is tried again, a write's outcome is unknown until its effect is looked for.
 *
 * `transient` says whether trying again later may help; `sent` whether a write may have happened.
 */
import { AppError, englishText, type CauseParams, type ErrorOf, type NetworkCause } from '../../../src-shared/app-api/errors';
import { type ServiceFault, type WireError } from '../../../src-shared/wire';

export type CallErrorKind =
  /** The service refused the call with a fault. */
  | 'fault'
  /** The service refused the client key, login or password. */
  | 'auth'
  /** The connection failed before the request could leave: certainly not handled. */
  | 'not-sent'
  /** The connection was lost after the request left. */
  | 'outcome-unknown'
  /** No whole answer within the call's time limit. */
  | 'timeout'
  /** HTTP 408, 429, 502, 503 or 504: the service or something in front of it asks to try later. */
  | 'unavailable'
  /** An answer that is not this operation's result (HTML, empty, truncated, not XML, bad gzip). */
  | 'malformed'
  /** An answer over the size cap, or over a cap on records: trying again would fetch the same. */
  | 'too-large'
  /** TLS: the service's certificate is not trusted, or differs from the one the user trusted. */
  | 'certificate'
  /** The HTTP proxy refused the request (407: proxy credentials). */
  | 'proxy'
  /** A well-formed answer that would corrupt the local copy (ids not positive, duplicates, cycles, caps). */
  | 'untrusted'
  /** The user cancelled the sync (or the app is closing). */
  | 'cancelled';

/** Kinds after which trying again later may succeed. */
const TRANSIENT: ReadonlySet<CallErrorKind> = new Set(['not-sent', 'outcome-unknown', 'timeout', 'unavailable', 'malformed']);

export abstract class CallError extends Error {
  abstract readonly kind: CallErrorKind;
  /** The request may have reached the service: a write may have happened even though no answer was read. */
  abstract readonly sent: boolean;
  constructor(
    /** The operation the call was for. */
    readonly operation: string,
    message: string,
  ) {
    super(message);
  }

  /** Trying again later may help (a read is retried; a write is looked for, then sent again). */
  get transient(): boolean {
    return TRANSIENT.has(this.kind);
  }

  /** Whether this is the service's own refusal of the call (nothing written). */
  get isVerdict(): boolean {
    return this.kind === 'fault' || this.kind === 'auth';
  }

  /** True when the call may or may not have taken effect on the service. */
  get outcomeUnknown(): boolean {
    return this.sent && !this.isVerdict;
  }

  /** How long the service asked to wait before the next try (Retry-After), when it said so. */
  get retryAfterMs(): number | null {
    return null;
  }

  /** Why it failed, in words of no language, for the screens to word in theirs (the message is English). */
  get why(): CauseParams {
    return causeParams('failed', { code: this.name });
  }
}

/** A cause with the parameters it names, the others empty. */
export function causeParams(cause: NetworkCause, given: Partial<Omit<CauseParams, 'cause'>> = {}): CauseParams {
  return { cause, code: given.code ?? '', status: given.status ?? 0, seconds: given.seconds ?? 0 };
}

/** What a system or library error code (ECONNREFUSED, UND_ERR_SOCKET...) says happened. */
export function failureCause(code: string | undefined): NetworkCause {
  switch (code) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'notFound';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENETDOWN':
      return 'noRoute';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'UND_ERR_SOCKET':
      return 'lost';
    case 'ETIMEDOUT':
      return 'connectTimeout';
    case 'EPROXY':
    case 'EPROXYCONFIG':
      return 'proxy';
    default:
      return code && /^ERR_(SSL|TLS)_/.test(code) ? 'tls' : 'failed';
  }
}

/** The service answered a fault: it refused the call. Nothing was written (a write happens whole or not at all). */
export class FaultError extends CallError {
  override name = 'FaultError';
  readonly kind: CallErrorKind = 'fault';
  readonly sent = true;
  constructor(
    operation: string,
    readonly fault: ServiceFault,
  ) {
    super(operation, fault.message);
  }
  get httpStatus(): number {
    return this.fault.httpStatus;
  }
}

/** A fault that says the client key, login or password was refused. */
export class InvalidCredentialsError extends FaultError {
  override name = 'InvalidCredentialsError';
  override readonly kind: CallErrorKind = 'auth';
}

/** The connection failed; `code` is the system's error code (ECONNREFUSED, ECONNRESET...) when there is one. */
abstract class ConnectionFailure extends CallError {
  constructor(
    operation: string,
    message: string,
    readonly code?: string,
  ) {
    super(operation, message);
  }
  override get why(): CauseParams {
    return causeParams(failureCause(this.code), { code: this.code ?? this.name });
  }
}

/** The connection failed before the request could be written: the service never saw it, so it is safe to send again. */
export class NetworkError extends ConnectionFailure {
  override name = 'NetworkError';
  readonly kind = 'not-sent' as const;
  readonly sent = false;
}

/** The connection was lost after the request was sent: the service may or may not have handled it. */
export class OutcomeUnknownError extends ConnectionFailure {
  override name = 'OutcomeUnknownError';
  readonly kind = 'outcome-unknown' as const;
  readonly sent = true;
}

/** No answer within the call's time limit after the request was sent. */
export class TimeoutError extends CallError {
  override name = 'TimeoutError';
  readonly kind = 'timeout' as const;
  readonly sent = true;
  constructor(
    operation: string,
    readonly timeoutMs: number,
  ) {
    super(operation, `The service did not answer ${operation} within ${formatSeconds(timeoutMs)}.`);
  }
  override get why(): CauseParams {
    return causeParams('timeout', { seconds: Math.ceil(this.timeoutMs / 1000) });
  }
}

/**
 * HTTP 408, 429, 502, 503 or 504, whatever the body: the service is restarting, overloaded, or a proxy
 * or load balancer in front of it could not reach it. Never the service's verdict on the call.
 */
export class UnavailableError extends CallError {
  override name = 'UnavailableError';
  readonly kind = 'unavailable' as const;
  readonly sent = true;
  constructor(
    operation: string,
    readonly httpStatus: number,
    private readonly retryAfter: number | null,
  ) {
    super(operation, `The service is unavailable (HTTP ${httpStatus}${STATUS_TEXT[httpStatus] ? ` ${STATUS_TEXT[httpStatus]}` : ''}).`);
  }
  override get retryAfterMs(): number | null {
    return this.retryAfter;
  }
  override get why(): CauseParams {
    return causeParams('http', { status: this.httpStatus });
  }
}

/** HTTP statuses that say "try later", not "refused". */
export const UNAVAILABLE_STATUSES: ReadonlySet<number> = new Set([408, 429, 502, 503, 504]);
const STATUS_TEXT: Record<number, string> = {
  408: 'Request Timeout',
  429: 'Too Many Requests',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

/** The answer could not be read as this operation's result (not XML, a web page, wrong element, HTTP error without a fault). */
export class MalformedResponseError extends CallError {
  override name = 'MalformedResponseError';
  readonly kind: CallErrorKind = 'malformed';
  readonly sent = true;
  constructor(
    operation: string,
    message: string,
    readonly httpStatus: number,
    readonly wireError?: WireError,
  ) {
    super(operation, message);
  }
  override get why(): CauseParams {
    return causeParams('unreadable', { status: this.httpStatus });
  }
}

/** The answer was larger than the cap on response size; reading stopped at the cap. */
export class ResponseTooLargeError extends MalformedResponseError {
  override name = 'ResponseTooLargeError';
  override readonly kind: CallErrorKind = 'too-large';
  constructor(
    operation: string,
    readonly maxBytes: number,
    httpStatus: number,
    /** What was over the cap, when it was not the bytes of the answer (inflated size, records). */
    what?: string,
  ) {
    super(operation, what ?? `The answer to ${operation} is larger than the limit of ${formatBytes(maxBytes)}.`, httpStatus);
  }
}

/** What the client saw of a service's TLS certificate. */
export interface CertificateInfo {
  /** SHA-256 fingerprint as colon-separated upper-case hex (AB:CD:...), as browsers and openssl show it. */
  fingerprint256: string;
  subject: string;
  issuer: string;
  validFrom: string;
  validTo: string;
}

/**
 * TLS refused the service's certificate: 'untrusted' (self-signed or an unknown authority: the user
 * may trust it after comparing its fingerprint), 'changed' (differs from the one the user trusted:
 * refused, as SSH refuses a changed host key), or 'invalid' (expired, wrong host name...).
 */
export class CertificateError extends CallError {
  override name = 'CertificateError';
  readonly kind = 'certificate' as const;
  readonly sent = false;
  constructor(
    operation: string,
    /** What is wrong with it, as an error code of the app API and its parameters (`waiting` 0). */
    readonly refusal: CertificateRefusal,
    readonly reason: 'untrusted' | 'changed' | 'invalid',
    /** The certificate the service presented, when it could be read. */
    readonly certificate: CertificateInfo | null,
    /** For 'changed': the fingerprint the user trusted. */
    readonly pinned: string | null = null,
  ) {
    super(operation, englishText(refusal.code, refusal.params));
  }
}

/** The codes a refused certificate is told by (src-shared/app-api/errors.ts). */
export type CertificateRefusal = ErrorOf<
  | 'certificateUntrusted'
  | 'certificateUntrustedUnread'
  | 'certificateChanged'
  | 'certificateExpired'
  | 'certificateNotYetValid'
  | 'certificateOtherHost'
  | 'certificateRevoked'
  | 'certificateInvalid'
>;

/** The HTTP proxy refused the request (407: it wants credentials, or refused those given). */
export class ProxyError extends CallError {
  override name = 'ProxyError';
  readonly kind = 'proxy' as const;
  readonly sent = false;
  constructor(
    operation: string,
    message: string,
    readonly httpStatus: number,
  ) {
    super(operation, message);
  }
  override get why(): CauseParams {
    return causeParams('proxyAuth', { status: this.httpStatus });
  }
}

/** The call was cancelled; `sent` says whether the request may have left before. */
export class CancelledError extends CallError {
  override name = 'CancelledError';
  readonly kind = 'cancelled' as const;
  constructor(
    operation: string,
    readonly sent: boolean,
  ) {
    super(operation, 'The sync was cancelled.');
  }
}

export function formatBytes(n: number): string {
  if (n >= 1024 * 1024 * 1024) return `${Math.round((n / 1024 / 1024 / 1024) * 10) / 10} GB`;
  return n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MB` : `${Math.round(n / 1024)} kB`;
}

export function formatSeconds(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`;
}

/**
 * The words our services before the subcode sent for every refusal of the credentials, and for nothing else
 * (service-decisions.md fixes them). Their code cannot tell it: on the GET and POST bindings a fault is plain
 * text, whose code follows only from its status.
 */
const UNMARKED_CREDENTIAL_FAULT = 'Invalid credentials';

/**
 * Whether a fault reports refused credentials (client key, login or password, or a locked login): the service
 * marks it with the InvalidCredentials subcode, whatever its words. A fault without a subcode comes from a
 * service that marks none (an older one of ours): it is a credential fault only when its words are exactly those
 * such a service sends for them, or when HTTP itself says so (401, 403). Anything else is the service refusing
 * the call, whatever its words say (a rule about a password, say): shown in its words, never taken for a
 * password to ask for again. Taking the older service's refusal for an ordinary one would be wrong: a write it
 * refused for its credentials would be marked refused by the service instead of sent again.
 */
export function isCredentialFault(fault: ServiceFault): boolean {
  if (fault.subcode !== null) return fault.subcode === 'InvalidCredentials';
  if (fault.httpStatus === 401 || fault.httpStatus === 403) return true;
  return fault.message.trim().replace(/\.$/, '') === UNMARKED_CREDENTIAL_FAULT;
}

const MISSING_OPERATION =
  /did not recognize|not recognized|unknown operation|no such operation|unknown method|invalid web service method|method not (found|allowed)|operation .* (not found|not supported)/i;

/** Whether an error says that the service does not offer the operation at all (so an older variant may be tried). */
export function isMissingOperation(error: unknown): boolean {
  if (error instanceof FaultError) return error.httpStatus === 404 || MISSING_OPERATION.test(error.message);
  if (error instanceof MalformedResponseError) return error.httpStatus === 404;
  return false;
}

/** A failed call as the app API says it: the same words for a direct call (a test, a check) and a stopped sync. */
export function callToAppError(e: CallError): AppError {
  if (e instanceof InvalidCredentialsError) return new AppError('credentialsRefused');
  switch (e.kind) {
    case 'fault':
      // The service's own words, shown as theirs.
      return new AppError('serviceFault', { service: e.message });
    case 'malformed':
    case 'too-large':
    case 'untrusted':
      return new AppError('serviceAnswerUnusable', { detail: e.message, ...e.why });
    case 'certificate':
      return e instanceof CertificateError ? AppError.fromData(e.refusal) : new AppError('unreachable', { detail: e.message, ...e.why });
    default:
      return new AppError('unreachable', { detail: e.message, ...e.why });
  }
}
