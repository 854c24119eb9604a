/**
 * The transport over a `fetch` function: in the desktop app, Electron's `session.fetch`, which is
 * Chromium's network stack (the system's proxy settings and PAC scripts, proxy authentication, the OS
 * certificate store, gzip and brotli). In tests, Node's own fetch stands in for it.
 *
 * The network stack inflates compressed answers itself; this transport caps the inflated bytes as it
 * reads them. Certificates are the stack's business too: a `CertificatePolicy` (the Electron edge's,
 * which sees every certificate in the session's verify procedure) is told which fingerprint the user
 * trusted and tells which certificate it refused, so that the refusal can show it.
 *
 * "Was it sent?": a fetch says little. A failure naming a connection that was never made (refused,
 * no such host, no route, proxy or TLS failures) is NetworkError: nothing left this machine. Any other
 * failure before the whole answer was read may have reached the service: OutcomeUnknownError.
 */
import { FAULT_SUBCODE_HEADER } from '../../../../src-shared/wire';
import { certificateReason, certificateRefusal, pinnedFingerprint } from '../certificates';
import {
  CallError,
  CancelledError,
  NetworkError,
  OutcomeUnknownError,
  ProxyError,
  ResponseTooLargeError,
  TimeoutError,
  formatBytes,
  type CertificateInfo,
} from '../errors';
import {
  ACCEPT,
  decodeText,
  describeFailure,
  type ExchangeOptions,
  type HttpAnswer,
  type HttpRequest,
  type Transport,
  type TransportFactory,
  type TransportOptions,
} from '../transport';

/** The part of the Fetch API this transport uses (Electron's session.fetch and Node's fetch both have it). */
export type FetchFunction = (
  url: string,
  init: { method: string; headers: Record<string, string>; body?: string; signal: AbortSignal; redirect: 'manual' },
) => Promise<Response>;

/** What the network stack decided about a host's certificate, as the edge saw it. */
export interface CertificateRefusalSeen {
  certificate: CertificateInfo | null;
  /** Chromium's name (net::ERR_CERT_AUTHORITY_INVALID) or OpenSSL's code; 'changed' for a pin that did not match. */
  code: string;
}

/** The edge's hook into certificate checks; absent, the stack's own verification is all there is. */
export interface CertificatePolicy {
  /** From now on, exactly this certificate is accepted for `host` (null: what the authorities vouch for). */
  pin(host: string, fingerprint: string | null): void;
  /** The last certificate refused for `host`, if any (read after a fetch failed). */
  refusal(host: string): CertificateRefusalSeen | null;
}

export interface FetchTransportConfig {
  fetch: FetchFunction;
  certificates?: CertificatePolicy;
}

/** Failures of a connection that was never made, by Node's (cause.code) or Chromium's (net::ERR_...) name. */
const NOT_CONNECTED = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
  'ERR_CONNECTION_REFUSED',
  'ERR_NAME_NOT_RESOLVED',
  'ERR_NAME_RESOLUTION_FAILED',
  'ERR_INTERNET_DISCONNECTED',
  'ERR_ADDRESS_UNREACHABLE',
  'ERR_CONNECTION_TIMED_OUT',
  'ERR_NETWORK_CHANGED',
  'ERR_PROXY_CONNECTION_FAILED',
  'ERR_TUNNEL_CONNECTION_FAILED',
  'ERR_NETWORK_ACCESS_DENIED',
]);

/** Chromium's names in Node's words, so that one describeFailure serves both. */
const CHROMIUM_AS_NODE: Record<string, string> = {
  ERR_CONNECTION_REFUSED: 'ECONNREFUSED',
  ERR_NAME_NOT_RESOLVED: 'ENOTFOUND',
  ERR_NAME_RESOLUTION_FAILED: 'ENOTFOUND',
  ERR_ADDRESS_UNREACHABLE: 'EHOSTUNREACH',
  ERR_INTERNET_DISCONNECTED: 'ENETDOWN',
  ERR_CONNECTION_RESET: 'ECONNRESET',
  ERR_CONNECTION_CLOSED: 'ECONNRESET',
  ERR_EMPTY_RESPONSE: 'ECONNRESET',
};

/** The error's code: Node's fetch puts it on `cause`, Electron's message is `net::ERR_...`. */
function failureCode(error: unknown): string | undefined {
  const e = error as { cause?: { code?: string }; code?: string; message?: string } | null;
  const code = e?.cause?.code ?? e?.code;
  if (code) return code;
  return /net::(ERR_[A-Z_]+)/.exec(e?.message ?? '')?.[1];
}

export class FetchTransport implements Transport {
  private readonly pinned: string | null;

  constructor(
    options: TransportOptions,
    private readonly config: FetchTransportConfig,
  ) {
    this.pinned = pinnedFingerprint(options.trustedCertificate);
  }

  close(): void {
    // The network stack keeps and closes its own connections.
  }

  async exchange(operation: string, req: HttpRequest, limits: ExchangeOptions): Promise<HttpAnswer> {
    if (limits.signal?.aborted) throw new CancelledError(operation, false);
    const host = req.url.hostname.replace(/^\[|\]$/g, '');
    if (req.url.protocol === 'https:') this.config.certificates?.pin(host, this.pinned);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, limits.timeoutMs);
    const onAbort = () => controller.abort();
    limits.signal?.addEventListener('abort', onAbort, { once: true });
    let answered = false;
    try {
      const response = await this.config.fetch(req.url.href, {
        method: req.method,
        headers: { ...req.headers, accept: ACCEPT },
        ...(req.method === 'POST' ? { body: req.body } : {}),
        signal: controller.signal,
        redirect: 'manual',
      });
      answered = true;
      if (response.status === 407) {
        await response.body?.cancel();
        throw new ProxyError(operation, 'The proxy asks for credentials (HTTP 407): set them in the system proxy settings.', 407);
      }
      const bytes = await this.read(operation, response, limits.maxResponseBytes);
      return {
        status: response.status,
        contentType: response.headers.get('content-type') ?? '',
        body: decodeText(operation, response.status, bytes),
        retryAfter: response.headers.get('retry-after'),
        faultSubcode: response.headers.get(FAULT_SUBCODE_HEADER),
      };
    } catch (e) {
      if (e instanceof CallError) throw e;
      if (timedOut) throw new TimeoutError(operation, limits.timeoutMs);
      if (limits.signal?.aborted) throw new CancelledError(operation, true);
      throw this.failure(operation, e, host, answered);
    } finally {
      clearTimeout(timer);
      limits.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** The body, as inflated by the stack, up to the cap. */
  private async read(operation: string, response: Response, maxBytes: number): Promise<Uint8Array> {
    const declared = Number(response.headers.get('content-length'));
    if (!response.headers.get('content-encoding') && Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel();
      throw new ResponseTooLargeError(operation, maxBytes, response.status);
    }
    if (!response.body) return new Uint8Array(0);
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel();
        const compressed = response.headers.get('content-encoding');
        throw new ResponseTooLargeError(
          operation,
          maxBytes,
          response.status,
          compressed ? `The answer to ${operation} inflates to more than the limit of ${formatBytes(maxBytes)}.` : undefined,
        );
      }
      chunks.push(value);
    }
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }

  private failure(operation: string, error: unknown, host: string, answered: boolean): CallError {
    const code = failureCode(error);
    const seen = this.config.certificates?.refusal(host) ?? null;
    const reason = seen?.code === 'changed' ? 'changed' : certificateReason(seen?.code ?? code);
    if (!answered && reason) {
      return certificateRefusal(operation, {
        reason,
        certificate: seen?.certificate ?? null,
        pinned: this.pinned,
        code: seen?.code ?? code,
        host,
      });
    }
    if (code === 'ERR_PROXY_AUTH_REQUESTED' || code === 'ERR_PROXY_AUTH_UNSUPPORTED') {
      return new ProxyError(operation, 'The proxy asks for credentials (HTTP 407): set them in the system proxy settings.', 407);
    }
    const nodeCode = code ? (CHROMIUM_AS_NODE[code] ?? code) : undefined;
    if (!answered && code && NOT_CONNECTED.has(code)) return new NetworkError(operation, describeFailure(nodeCode), nodeCode);
    if (answered) {
      return new OutcomeUnknownError(
        operation,
        'The answer ended before it was complete: the connection was lost while it was being received.',
        nodeCode ?? 'ECONNRESET',
      );
    }
    return new OutcomeUnknownError(operation, describeFailure(nodeCode), nodeCode);
  }
}

/** A transport factory over `config.fetch`. */
export function fetchTransportFactory(config: FetchTransportConfig): TransportFactory {
  return (options) => new FetchTransport(options, config);
}
