/**
 * Connections to the PostgreSQL database: node-postgres (pg) with its pool, configured once here.
 *
 * - 64-bit integers (ids, money in minor units) come back as numbers, checked to be exact: every amount
 *   the service keeps has at most 15 digits, so a bigint beyond 2^53 can only be damage, and is refused
 *   rather than rounded.
 * - The password comes from the connection string (best from BOOKKEEPING_DATABASE_URL, never argv),
 *   PGPASSWORD, or a password file (~/.pgpass or PGPASSFILE, read by the pgpass module), never a log.
 *   The string is read here, by pg's own reader (pg-connection-string), and pg is given what it holds:
 *   given the string itself, pg reads it again and lets its password, '' when it has none, replace the
 *   password function beside it, and then falls back on its own deprecated reading of the password file,
 *   which warns on stderr at every command.
 * - The service's own connections say so (`bookkeeping.service`): the tables' notification triggers
 *   leave its writes unannounced: other instances see them through the stamps of kept answers (serving.ts).
 */
import pg from 'pg';
import { parseIntoClientConfig } from 'pg-connection-string';
import pgpass, { type ConnectionInfo } from 'pgpass';
import { describeLocation } from '../location';
import { DataFileError } from '../sqlite/database';

const INT8_OID = 20;

function exactInteger(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n)) throw new RangeError(`A stored integer (${text}) is beyond what the service keeps exactly.`);
  return n;
}

/** pg's parsers with int8 read as exact numbers. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary' ? exactInteger : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * The password file's entry for a connection, looked up when the server asks for a password, with the
 * host, port, database and user pg resolved (the string's, else PGHOST and the others, else pg's defaults).
 * Without one the connection fails saying where a password is looked for, not in pg's SASL words.
 */
function fromPasswordFile(connection: ConnectionInfo): Promise<string> {
  return new Promise((resolve, reject) =>
    pgpass(connection, (password) =>
      password !== undefined
        ? resolve(password)
        : reject(
            new Error(
              'the server asks for a password, and neither the connection string, PGPASSWORD nor the password file (~/.pgpass, or PGPASSFILE) holds one for it',
            ),
          ),
    ),
  );
}

/**
 * The settings of the service's own connections, given when each opens (never a SET per request):
 * - `bookkeeping.service`: its writes go unannounced by the tables' notification triggers (see above).
 * - `plan_cache_mode`: every statement is prepared once per connection under its name (connection.ts), and
 *   its one generic plan is used for every call. Left to choose, PostgreSQL planned most of them anew for
 *   each call's values (a custom plan, as cheap to run as the generic one for these index lookups): planning
 *   was a third of the backends' CPU on the benchmark's mix (perf record of PostgreSQL under it).
 */
const SERVICE_SETTINGS = '-c bookkeeping.service=on -c plan_cache_mode=force_generic_plan';

export interface ConnectOptions {
  /** Marks the connections as the running service's (see above). */
  service?: boolean;
  /** Names the connections in pg_stat_activity. */
  applicationName?: string;
  /**
   * node-postgres's pipeline mode: a query is written at once, not after the answer of the one before
   * (a write's BEGIN with its first statement, its last with the COMMIT: pipelined.ts).
   */
  pipeline?: boolean;
}

export function clientConfig(url: string, options: ConnectOptions = {}): pg.ClientConfig {
  const config: pg.ClientConfig = {
    types,
    application_name: options.applicationName ?? 'bookkeeping',
    connectionTimeoutMillis: 10_000,
    // Probes after 10 s of silence (the OS default waits two hours) find a peer that is gone.
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(options.service ? { options: SERVICE_SETTINGS } : {}),
    ...(options.pipeline ? { pipeline: true } : {}),
    // What the string says wins over the defaults above, as it does when pg reads the string itself.
    ...parseIntoClientConfig(url),
  };
  // A password of the string's own, or PGPASSWORD (read by pg), is used as it is; else the password file's.
  if (config.password || process.env.PGPASSWORD !== undefined) return config;
  // pg calls it with the connection's parameters (the types declare no argument).
  return { ...config, password: fromPasswordFile as () => Promise<string> };
}

export function createPool(url: string, max: number, options: ConnectOptions = {}): pg.Pool {
  const pool = new pg.Pool({ ...clientConfig(url, options), max, idleTimeoutMillis: 60_000 });
  pool.on('connect', (client) => oneWritePerQuery(client));
  return pool;
}

/**
 * Hands each query's messages to the socket in one write. node-postgres writes every message of a
 * statement (Parse the first time, Bind, Describe, Execute, Sync) with a write of its own, each a system
 * call (on loopback the kernel's delivery to PostgreSQL too): in a CPU profile of an instance booking
 * transfers, 28% of its CPU was in the socket's writes (its answers' included). The socket holds them back
 * (cork) while the query is handed over and sends them together at once after (uncork): a transfer's two
 * round trips are two writes, not four. Where a query waits for the one before it (a connection not in
 * pipeline mode, busy), its messages are written later, as before.
 */
export function oneWritePerQuery(client: pg.Client): void {
  const stream = client.connection.stream;
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  (client as unknown as { query: typeof query }).query = (...args) => {
    stream.cork();
    try {
      return query(...args);
    } finally {
      stream.uncork();
    }
  };
}

/** One connection, opened; a failure to connect is a DataFileError naming the database (never its password). */
export async function connect(url: string, options: ConnectOptions = {}): Promise<pg.Client> {
  const client = new pg.Client(clientConfig(url, options));
  try {
    await client.connect();
  } catch (e) {
    await client.end().catch(() => undefined);
    throw unreachable(url, e);
  }
  return client;
}

/** The error for a database that cannot be used: which one (without its password) and why. */
export function unreachable(url: string, e: unknown): DataFileError {
  const reason = e instanceof Error ? e.message : String(e);
  return new DataFileError(`Cannot use the PostgreSQL database ${describeLocation({ kind: 'postgres', url })}: ${reason}`);
}

/** The SQLSTATE of a PostgreSQL error, if it is one. */
export function sqlState(e: unknown): string | undefined {
  return e instanceof pg.DatabaseError ? e.code : undefined;
}

export type Queryable = Pick<pg.ClientBase, 'query'>;

/**
 * Runs `fn` in a transaction on `client`: committed when it resolves, rolled back when it throws (and the
 * error passed on). A failed ROLLBACK goes to `rollbackFailed` (by default ignored): the error of `fn`
 * is the one that says what went wrong.
 */
export async function transaction<T>(
  client: pg.ClientBase,
  fn: () => Promise<T>,
  rollbackFailed: (e: Error) => void = () => undefined,
): Promise<T> {
  await client.query('BEGIN');
  try {
    const result = await fn();
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(rollbackFailed);
    throw e;
  }
}

/**
 * Runs `fn` in a transaction on a connection of the pool (see `transaction`). The connection goes back
 * to the pool either way, or is discarded when it broke.
 */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    return await transaction(
      client,
      () => fn(client),
      (rollbackError) => (broken = rollbackError),
    );
  } finally {
    client.release(broken);
  }
}
