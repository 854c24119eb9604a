/** Limits that protect the service from large, deep or slow requests. */
export interface HttpLimits {
  /** Largest request body; more gets 413. */
  maxBodyBytes: number;
  /**
   * Most bytes of request bodies held at once, over all connections, beyond the first
   * `freeBodyBytes` of each; past it a request gets 503 with Retry-After.
   */
  maxBufferedBodyBytes: number;
  /** Bytes of every body that do not count against maxBufferedBodyBytes (an ordinary request fits). */
  freeBodyBytes: number;
  /** Deepest XML nesting of a SOAP request (an envelope needs 4). */
  maxXmlDepth: number;
  /** Largest request line plus headers; more gets 431 from Node. */
  maxHeaderBytes: number;
  /** Time a client has to send the request headers; then 408 and the connection is closed. */
  headersTimeoutMs: number;
  /** Time a client has to send the whole request. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
  /** Most connections at once; more are refused. */
  maxConnections: number;
  /**
   * Most connections at once from one address (an IPv4 address, an IPv6 /64); more are reset
   * (connection-slots.ts). Trusted proxies' connections are not counted. Default: a quarter of maxConnections.
   */
  maxConnectionsPerAddress: number;
  /**
   * Open connections past which the idle ones are closed, the longest idle first, so that new clients
   * find a slot. Below maxConnections; default seven eighths of it.
   */
  closeIdleAbove: number;
  /**
   * How long the answer to a call told to try again (503, the verifications crowded) is held back, so
   * that a client ignoring Retry-After is not back at once (endpoint.ts). Default one second, Retry-After's.
   */
  crowdedAnswerDelayMs: number;
}

export const DEFAULT_LIMITS: HttpLimits = {
  maxBodyBytes: 1024 * 1024,
  maxBufferedBodyBytes: 64 * 1024 * 1024,
  freeBodyBytes: 64 * 1024,
  maxXmlDepth: 16,
  maxHeaderBytes: 16 * 1024,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 30_000,
  maxConnections: 1024,
  maxConnectionsPerAddress: 256,
  closeIdleAbove: 896,
  crowdedAnswerDelayMs: 1000,
};

/** The limits given (an undefined one counts as not given), the rest default; the connection shares follow a given maxConnections. */
export function limitsOf(given: Partial<HttpLimits> = {}): HttpLimits {
  const set = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) as Partial<HttpLimits>;
  const maxConnections = set.maxConnections ?? DEFAULT_LIMITS.maxConnections;
  return {
    ...DEFAULT_LIMITS,
    maxConnectionsPerAddress: Math.max(1, Math.floor(maxConnections / 4)),
    closeIdleAbove: Math.floor((maxConnections * 7) / 8),
    ...set,
  };
}
