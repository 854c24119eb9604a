/**
 * Starting and stopping the service in-process: what the command line's `serve`, the tests and the
 * benchmark use.
 */
import { DEFAULT_NAMESPACE, isNamespaceUri } from '../src-shared/catalog';
import { isValidTimeZone, localTimeZone } from '../src-shared/wire';
import { Authenticator, type AuthOptions } from './auth/authenticator';
import { DEFAULT_CACHE_OPTIONS } from './auth/verification-cache';
import { stderrLogger, type Logger } from './log';
import { TrustedProxies } from './server/client-address';
import { ServiceEndpoint, type KnownRequest } from './server/endpoint';
import {
  activeConnections,
  createHttpServer,
  listen,
  originOf,
  requestsInFlight,
  shutdown,
  type Server,
  type TlsCredentials,
} from './server/http-server';
import { limitsOf, type HttpLimits } from './server/limits';
import { DEFAULT_RESPONSE_CACHE, ResponseCache, type ResponseCacheOptions } from './server/response-cache';
import { warmUp } from './server/warm-up';
import { DEFAULT_WRITE_GATE, type WriteGateOptions } from './server/write-gate';
import { describeLocation, openServiceStore, type StoreLocation } from './store';

export interface ServiceOptions {
  /** The SQLite data file; created (and migrated) when missing. Give this or `databaseUrl`. */
  dataFile?: string;
  /**
   * A PostgreSQL database (postgres://...), migrated when needed; several instances may serve one. Its
   * password is best left to PGPASSWORD or a password file (~/.pgpass, PGPASSFILE).
   */
  databaseUrl?: string;
  /** PostgreSQL: most connections of this instance's pool (default 10). */
  poolSize?: number;
  /** 0 picks a free port. Default 8080. */
  port?: number;
  /** Default 127.0.0.1: reachable from this machine only unless asked otherwise. */
  host?: string;
  /** The XML namespace of the operations. Default http://tempuri.org/. */
  namespace?: string;
  /** The IANA zone whose wall clock dateTimes are in. Default: the machine's. */
  timeZone?: string;
  limits?: Partial<HttpLimits>;
  /**
   * Proxies in front of the service (addresses or CIDR blocks, e.g. 127.0.0.1 or 10.0.0.0/8): their
   * connections are not capped per address, and their X-Forwarded-For names the client whose turn a
   * password verification takes (server/client-address.ts). Default: none.
   */
  trustedProxies?: readonly string[];
  auth?: AuthOptions;
  /**
   * Answers to repeated identical reads (on by default); false turns it off. A ResponseCache of the
   * caller's own is used as it is (tests read its counts).
   */
  responseCache?: false | Partial<ResponseCacheOptions> | ResponseCache<KnownRequest>;
  logger?: Logger;
  /** The service's clock (ms since the epoch); tests may fix it. */
  now?: () => number;
  /** How a crowded call's answer is held back (HttpLimits.crowdedAnswerDelayMs); tests hold it themselves. */
  pause?: (ms: number) => Promise<void>;
  /** Serve HTTPS with this certificate (chain) and its private key, PEM text; plain HTTP without. */
  tls?: TlsCredentials;
  /** How long a write waits for the writes of other requests in flight, to share their commit (server/write-gate.ts). */
  writeGate?: Partial<WriteGateOptions>;
}

export interface RunningService {
  /** The base URL, e.g. `http://127.0.0.1:8080` (https:// with TLS); the operations are at `${url}/API/APIservice.asmx`. */
  url: string;
  port: number;
  namespace: string;
  timeZone: string;
  /**
   * Stops the service and closes the store. Requests in progress get `graceMs` to finish (default 0:
   * every connection is dropped at once).
   */
  close(options?: { graceMs?: number }): Promise<void>;
}

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '127.0.0.1';

export class ServiceOptionError extends Error {
  override name = 'ServiceOptionError';
}

/** A namespace is an absolute URI (http:, https:, urn: ...) without white space or quotes. */
export function checkNamespace(namespace: string): string {
  if (!isNamespaceUri(namespace)) {
    throw new ServiceOptionError(`The namespace must be an absolute URI such as ${DEFAULT_NAMESPACE}.`);
  }
  return namespace;
}

export function checkTimeZone(timeZone: string): string {
  if (!isValidTimeZone(timeZone)) {
    throw new ServiceOptionError(`Unknown time zone ${JSON.stringify(timeZone)}; use an IANA name such as Europe/Prague.`);
  }
  return timeZone;
}

/** Where the data is: exactly one of a data file and a database. */
export function storeLocation(opts: Pick<ServiceOptions, 'dataFile' | 'databaseUrl'>): StoreLocation {
  if ((opts.dataFile === undefined) === (opts.databaseUrl === undefined)) {
    throw new ServiceOptionError('Give the service either a data file or a PostgreSQL database, not both.');
  }
  return opts.dataFile !== undefined ? { kind: 'sqlite', file: opts.dataFile } : { kind: 'postgres', url: opts.databaseUrl! };
}

export function checkPort(port: number): number {
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ServiceOptionError('The port must be a whole number from 0 to 65535.');
  return port;
}

/** The limits given, checked: the connection shares must leave room for other clients. */
export function checkLimits(given: Partial<HttpLimits> | undefined): HttpLimits {
  const limits = limitsOf(given);
  const { maxConnections, maxConnectionsPerAddress, closeIdleAbove } = limits;
  if (!Number.isInteger(maxConnectionsPerAddress) || maxConnectionsPerAddress < 1 || maxConnectionsPerAddress > maxConnections) {
    throw new ServiceOptionError(
      `The connections per address must be a whole number from 1 to the connections in all (${maxConnections}).`,
    );
  }
  if (!Number.isInteger(closeIdleAbove) || closeIdleAbove < 0 || closeIdleAbove >= maxConnections) {
    throw new ServiceOptionError(
      `Idle connections must be closed below the connections in all (${maxConnections}), so that new clients find a slot.`,
    );
  }
  return limits;
}

export function checkTrustedProxies(entries: readonly string[] = []): TrustedProxies {
  try {
    return new TrustedProxies(entries);
  } catch (e) {
    throw new ServiceOptionError(`A trusted proxy: ${(e as Error).message}`);
  }
}

/** A cached answer lives no longer than the password verification it rests on. */
function responseCache(opts: ServiceOptions): ResponseCache<KnownRequest> {
  if (opts.responseCache instanceof ResponseCache) return opts.responseCache;
  const given = opts.responseCache === false ? {} : opts.responseCache;
  const options = { ...DEFAULT_RESPONSE_CACHE, ...given };
  options.ttlMs = Math.min(options.ttlMs, opts.auth?.cache?.ttlMs ?? DEFAULT_CACHE_OPTIONS.ttlMs);
  return new ResponseCache<KnownRequest>(options);
}

export async function startService(opts: ServiceOptions): Promise<RunningService> {
  const namespace = checkNamespace(opts.namespace ?? DEFAULT_NAMESPACE);
  const timeZone = checkTimeZone(opts.timeZone ?? localTimeZone());
  const port = checkPort(opts.port ?? DEFAULT_PORT);
  const host = opts.host ?? DEFAULT_HOST;
  const limits = checkLimits(opts.limits);
  const trustedProxies = checkTrustedProxies(opts.trustedProxies);

  const location = storeLocation(opts);
  const logger = opts.logger ?? stderrLogger;
  const store = await openServiceStore(location, {
    onTrouble: (message, error) => logger.error(`${message} (${describeLocation(location)})`, error),
    ...(opts.poolSize !== undefined ? { poolSize: opts.poolSize } : {}),
  });
  const auth = new Authenticator(store, {
    ...opts.auth,
    onLock:
      opts.auth?.onLock ??
      ((login, failures, ms) =>
        logger.info(`Login ${JSON.stringify(login)} refused for ${Math.round(ms / 1000)} s after ${failures} failed attempts.`)),
  });
  let origin = '';
  let server: Server | undefined;
  const endpoint = new ServiceEndpoint(store, auth, {
    // The gate gathers writes into shared commits; where each write commits alone, a write held back would wait for nothing.
    writeGate: { ...DEFAULT_WRITE_GATE, ...(store.groupsCommits ? {} : { windowMs: 0 }), ...opts.writeGate },
    load: {
      requestsInFlight: () => (server === undefined ? 0 : requestsInFlight(server)),
      connections: () => (server === undefined ? 0 : activeConnections(server)),
    },
    namespace,
    timeZone,
    limits,
    trustedProxies,
    logger,
    fallbackOrigin: () => origin,
    // Answers are kept where every commit is known before the next request is read (ServiceStore.knowsEveryCommit),
    // or with a stamp that the database changes with every commit of what they show (ServiceStore.answerStamp).
    ...(opts.responseCache === false || !(store.knowsEveryCommit || store.answerStamp) ? {} : { cache: responseCache(opts) }),
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.pause ? { pause: opts.pause } : {}),
  });
  try {
    await warmUp({ namespace, timeZone, store, auth });
  } catch (e) {
    await store.close();
    throw e;
  }
  server = createHttpServer(endpoint, limits, opts.tls, trustedProxies);
  let address;
  try {
    address = await listen(server, port, host);
  } catch (e) {
    await store.close();
    throw e;
  }
  origin = originOf(address, opts.tls !== undefined);

  let closing: Promise<void> | undefined;
  return {
    url: origin,
    port: address.port,
    namespace,
    timeZone,
    close(options = {}) {
      closing ??= shutdown(server, options.graceMs).finally(() => store.close());
      return closing;
    },
  };
}
