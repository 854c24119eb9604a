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
};
