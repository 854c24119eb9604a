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
 *
 * Two carry it: transports/node.ts (undici: the command line, the browser shell and the tests) and
 * transports/fetch.ts (a fetch function: Electron's network stack in the desktop app).
 */
import type { NetworkCause } from '../../../src-shared/app-api/errors';
import { failureCause, MalformedResponseError } from './errors';

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
  /** The Fault-Subcode header as sent (a GET or POST fault's subcode), if any. */
  faultSubcode?: string | null;
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

/** What the transports send in Accept-Encoding: the codings they inflate (with a cap on the inflated size). */
export const ACCEPT_ENCODING = 'gzip, br';

/** The English of what a system or library error code says happened (failureCause), for the command line and the log. */
const FAILURE_WORDS: Partial<Record<NetworkCause, string>> = {
  refused: 'The service refused the connection (is it running?).',
  notFound: 'The service address could not be resolved.',
  noRoute: 'The network cannot reach the service.',
  lost: 'The connection to the service was lost.',
};

/** A system or library error code in words fit for the user. */
export function describeFailure(code: string | undefined): string {
  const cause = failureCause(code);
  if (cause === 'tls') return `The secure connection to the service could not be set up (${code}).`;
  return FAILURE_WORDS[cause] ?? 'The connection to the service failed.';
}

/** An answer's bytes as text: strictly UTF-8, as every binding's answer is; anything else is malformed. */
export function decodeText(operation: string, status: number, bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new MalformedResponseError(operation, 'The answer is not valid UTF-8 text.', status);
  }
}
