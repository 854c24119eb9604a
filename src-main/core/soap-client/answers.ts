/**
 * The one classification of every answer, used by every call: the service's verdict, or not.
 *
 * - A SOAP Fault (and, on the HTTP GET and POST bindings, the service's plain-text error) is the
 *   service's verdict: FaultError, or InvalidCredentialsError when it refuses the credentials.
 * - HTTP 408, 429, 502, 503 and 504 are "try later", whatever their body says (a gateway may well
 *   wrap its own trouble in a fault): UnavailableError, with the Retry-After the answer carries.
 * - An HTML page (a proxy's error page, a hotel Wi-Fi's login page), an empty, truncated or garbled
 *   body, or XML that is not this operation's result: MalformedResponseError.
 * Only a verdict may mark a write refused; everything else is transient (see errors.ts).
 */
import type { OperationName, ResultOf } from '../../../src-shared/catalog';
import { mediaType, parseResponse, ServiceFault, WireError, type Binding } from '../../../src-shared/wire';
import {
  FaultError,
  InvalidCredentialsError,
  isCredentialFault,
  MalformedResponseError,
  UNAVAILABLE_STATUSES,
  UnavailableError,
} from './errors';
import { parseRetryAfter } from './retry';
import type { HttpAnswer } from './transport';

export interface AnswerOptions {
  binding: Binding;
  timeZone: string;
  /** Largest answer parsed, in characters. */
  maxChars: number;
  /** The API's namespace: a fault's subcode counts only in it (without it, in any namespace). */
  namespace?: string;
}

/** Whether the answer is a web page rather than any answer of the bindings. */
export function isWebPage(answer: HttpAnswer): boolean {
  const type = mediaType(answer.contentType);
  if (type === 'text/html' || type === 'application/xhtml+xml') return true;
  return /^\s*(<\?xml[^>]*>\s*)?(<!doctype\s+html|<html[\s>])/i.test(answer.body.slice(0, 512));
}

/** The title of a web page, shortened, to name what answered. */
function pageTitle(body: string): string | null {
  const title = /<title[^>]*>([^<]{1,200})<\/title>/i.exec(body.slice(0, 8192))?.[1]?.replace(/\s+/g, ' ').trim();
  return title ? (title.length > 80 ? `${title.slice(0, 80)}…` : title) : null;
}

/** Reads an answer into the operation's typed result, or throws the CallError that classifies it. */
export function readAnswer<N extends OperationName>(operation: N, answer: HttpAnswer, options: AnswerOptions): ResultOf<N> {
  if (UNAVAILABLE_STATUSES.has(answer.status)) {
    throw new UnavailableError(operation, answer.status, parseRetryAfter(answer.retryAfter));
  }
  if (isWebPage(answer)) {
    const title = pageTitle(answer.body);
    throw new MalformedResponseError(
      operation,
      `The service address answered HTTP ${answer.status} with a web page${title ? ` ("${title}")` : ''} instead of the result of ${operation}.`,
      answer.status,
    );
  }
  try {
    return parseResponse(operation, answer, {
      binding: options.binding,
      timeZone: options.timeZone,
      limits: { maxChars: options.maxChars, maxDepth: 64 },
      ...(options.namespace === undefined ? {} : { namespace: options.namespace }),
    });
  } catch (e) {
    if (e instanceof ServiceFault) {
      throw isCredentialFault(e) ? new InvalidCredentialsError(operation, e) : new FaultError(operation, e);
    }
    if (e instanceof WireError) {
      const what = answer.body.trim() === '' ? 'The answer was empty' : e.message;
      throw new MalformedResponseError(operation, `The answer to ${operation} could not be read: ${what}`, answer.status, e);
    }
    throw e;
  }
}
