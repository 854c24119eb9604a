/**
 * What can go wrong with one call, typed so that the sync engine can act on it without reading
 * messages: was the request certainly not sent (safe to send again), or may a write have happened
 * (outcome unknown: look for its effect first), or did the service refuse it (a fault)?
 */
import { ServiceFault, type WireError } from '../../../src-shared/wire';

export type CallErrorKind = 'fault' | 'auth' | 'not-sent' | 'outcome-unknown' | 'timeout' | 'malformed' | 'too-large';

export abstract class CallError extends Error {
  abstract readonly kind: CallErrorKind;
  /** The request reached the network: a write may have happened even though no answer was read. */
  abstract readonly sent: boolean;
  /** The operation the call was for. */
  constructor(
    readonly operation: string,
    message: string,
  ) {
    super(message);
  }

  /** True when the call may or may not have taken effect on the service. */
  get outcomeUnknown(): boolean {
    return this.sent && this.kind !== 'fault' && this.kind !== 'auth';
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
    super(operation, `The service did not answer ${operation} within ${timeoutMs} ms.`);
  }
}

/** The answer could not be read as this operation's result (not XML, wrong element, HTTP error without a fault). */
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
}

/** The answer was larger than the cap on response size; reading stopped at the cap. */
export class ResponseTooLargeError extends MalformedResponseError {
  override name = 'ResponseTooLargeError';
  override readonly kind: CallErrorKind = 'too-large';
  constructor(
    operation: string,
    readonly maxBytes: number,
    httpStatus: number,
  ) {
    super(operation, `The answer to ${operation} is larger than the limit of ${formatBytes(maxBytes)}.`, httpStatus);
  }
}

function formatBytes(n: number): string {
  return n >= 1024 * 1024 ? `${Math.round((n / 1024 / 1024) * 10) / 10} MB` : `${Math.round(n / 1024)} kB`;
}

const CREDENTIAL_FAULT =
  /invalid credentials|credentials? (are |is )?(invalid|wrong|incorrect|refused)|(wrong|incorrect|invalid|unknown) (password|login|user|client key|api ?client ?key)|authenticat|unauthori[sz]ed|access denied|not authori[sz]ed|too many failed/i;

/** Whether a fault reports refused credentials (the interface does not say how; these are the usual wordings). */
export function isCredentialFault(fault: ServiceFault): boolean {
  return fault.httpStatus === 401 || fault.httpStatus === 403 || CREDENTIAL_FAULT.test(fault.message);
}

const MISSING_OPERATION = /did not recognize|not recognized|unknown operation|no such operation|unknown method|invalid web service method|method not (found|allowed)|operation .* (not found|not supported)/i;

/** Whether an error says that the service does not offer the operation at all (so an older variant may be tried). */
export function isMissingOperation(error: unknown): boolean {
  if (error instanceof FaultError) return error.httpStatus === 404 || MISSING_OPERATION.test(error.message);
  if (error instanceof MalformedResponseError) return error.httpStatus === 404;
  return false;
}
