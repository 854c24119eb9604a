/**
 * A real service on loopback for tests: a temp data file (unless one is given) or, with backend
 * 'postgres', a fresh database of the test file's cluster (test/support/backends.ts); port 0 the first
 * time, and the same port again after stop() and start(), so that a client under test can see the
 * service go away and come back. `admin` works on its data whichever the store. Password hashes use a
 * cheap scrypt cost to keep suites fast.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import {
  TEST_HASH_PARAMS,
  addClient,
  addUser,
  isClientRegistered,
  openAdmin,
  silentLogger,
  startService,
  type AdminSession,
  type DemoSummary,
  type RunningService,
  type ServiceOptions,
  type StoreLocation,
} from '../../src-service';
import { freshDatabase, type Backend } from './backends';

export interface TestServiceOptions {
  /** Default 'sqlite'. */
  backend?: Backend;
  /** PostgreSQL: use this database instead of a fresh one. */
  databaseUrl?: string;
  /** Fill the data file with the demo data set first (client key `demo`, users demo/demo and demo2/demo2). */
  demo?: boolean;
  namespace?: string;
  /** Default Europe/Prague, so that tests do not depend on the machine's zone. */
  timeZone?: string;
  /** Use this data file instead of a fresh temp one (it is then not deleted by close()). */
  dataFile?: string;
  /** Anything else startService takes (limits, auth throttle, logger, clock). */
  service?: Partial<Omit<ServiceOptions, 'dataFile' | 'databaseUrl' | 'port' | 'host' | 'namespace' | 'timeZone'>>;
}

export interface TestService {
  /** Base URL, e.g. http://127.0.0.1:40123 (the operations are under /API/APIservice.asmx). */
  url: string;
  namespace: string;
  backend: Backend;
  /** Where its data is. */
  location: StoreLocation;
  /** The same, as startService takes it. */
  where: { dataFile: string } | { databaseUrl: string };
  /** The SQLite data file (a PostgreSQL service has none: reading this throws). */
  dataFile: string;
  /** The operator functions on its data, whichever the store. */
  admin: AdminSession;
  /** Rows of a query of its data from outside the service (`?` for each parameter). */
  sql<R = Record<string, unknown>>(query: string, params?: unknown[]): Promise<R[]>;
  /**
   * From now on every insert into `table` (or, with `when`, those whose column has that value) fails
   * inside the store with `message`, as a broken disk or a bug would; null removes that again.
   */
  failInserts(table: string, message: string | null, when?: { column: string; value: number }): Promise<void>;
  port: number;
  /** What createDemoData made, when `demo` was asked for. */
  demo: DemoSummary | undefined;
  /** Stops listening and drops open connections; the data stays. */
  stop(): Promise<void>;
  /** Starts again on the same port with the same data (and, when given, other options: another TLS certificate). */
  start(overrides?: Partial<ServiceOptions>): Promise<void>;
  /** Stops and deletes the temp data (a given data file is kept). */
  close(): Promise<void>;
}

export const TEST_TIME_ZONE = 'Europe/Prague';

export async function startTestService(opts: TestServiceOptions = {}): Promise<TestService> {
  const backend = opts.backend ?? 'sqlite';
  const tempDir = backend === 'sqlite' && opts.dataFile === undefined ? mkdtempSync(join(tmpdir(), 'bookkeeping-service-')) : undefined;
  const location: StoreLocation =
    backend === 'sqlite'
      ? { kind: 'sqlite', file: opts.dataFile ?? join(tempDir!, 'service.sqlite') }
      : { kind: 'postgres', url: opts.databaseUrl ?? (await freshDatabase()) };
  const where = location.kind === 'sqlite' ? { dataFile: location.file } : { databaseUrl: location.url };
  const timeZone = opts.timeZone ?? TEST_TIME_ZONE;
  const admin = await openAdmin(location);
  const demo = opts.demo ? await admin.createDemoData({ hashParams: TEST_HASH_PARAMS, timeZone }) : undefined;

  let running: RunningService | undefined;
  const launch = async (port: number, overrides: Partial<ServiceOptions> = {}) => {
    running = await startService({
      logger: silentLogger,
      ...opts.service,
      ...overrides,
      auth: { hashParams: TEST_HASH_PARAMS, ...opts.service?.auth },
      ...where,
      port,
      host: '127.0.0.1',
      timeZone,
      ...(opts.namespace !== undefined ? { namespace: opts.namespace } : {}),
    });
  };
  await launch(0);
  const first = running!;

  const service: TestService = {
    url: first.url,
    namespace: first.namespace,
    backend,
    location,
    where,
    get dataFile(): string {
      if (location.kind !== 'sqlite') throw new Error('A PostgreSQL test service has no data file: use admin or sql.');
      return location.file;
    },
    admin,
    sql: storeSql(location),
    failInserts: (table, message, when) => failInserts(location, table, message, when),
    port: first.port,
    demo,
    async stop() {
      const r = running;
      running = undefined;
      await r?.close();
      // Let clients in this process see their connections close before a test goes on.
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    },
    async start(overrides) {
      if (running) return;
      await launch(first.port, overrides);
    },
    async close() {
      await service.stop();
      await admin.close();
      if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    },
  };
  return service;
}

/**
 * Registers a client key (unless it is already) and a user with a cheap password hash, for tests that
 * want their own credentials rather than the demo ones. Returns the user's id.
 */
export function seedTestUser(dataFile: string, credentials: { clientKey: string; login: string; password: string }): number {
  if (!isClientRegistered(dataFile, credentials.clientKey)) addClient(dataFile, credentials.clientKey);
  return addUser(dataFile, credentials.login, credentials.password, { hashParams: TEST_HASH_PARAMS });
}

/**
 * Queries of the store at `location` from outside the service (`?` for each parameter): each on a
 * read-only SQLite connection, or on a connection of its own to the database.
 */
export function storeSql(location: StoreLocation): TestService['sql'] {
  return (query, params = []) => querySql(location, query, params);
}

/** How many listening connections (one an instance, while it hears announcements) the PostgreSQL database at `url` has now. */
export async function listenerConnections(url: string): Promise<number> {
  const [row] = await querySql<{ n: number }>(
    { kind: 'postgres', url },
    "SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'bookkeeping-listener' AND datname = current_database()",
    [],
  );
  return row!.n;
}

async function querySql<R>(location: StoreLocation, query: string, params: unknown[]): Promise<R[]> {
  if (location.kind === 'sqlite') {
    const db = new Database(location.file, { readonly: true });
    try {
      return db.prepare(query).all(...params) as R[];
    } finally {
      db.close();
    }
  }
  let n = 0;
  const client = new pg.Client({ connectionString: location.url });
  await client.connect();
  try {
    // int8 (sums, counts, money) as numbers: every value the service keeps is within 2^53.
    return (
      await client.query({
        text: query.replace(/\?/g, () => `$${++n}`),
        values: params,
        types: { getTypeParser: (oid: number) => (oid === 20 || oid === 1700 ? Number : pg.types.getTypeParser(oid)) },
      })
    ).rows as R[];
  } finally {
    await client.end();
  }
}

async function failInserts(
  location: StoreLocation,
  table: string,
  message: string | null,
  when?: { column: string; value: number },
): Promise<void> {
  const name = `test_failure_${table}`;
  if (location.kind === 'sqlite') {
    const db = new Database(location.file);
    try {
      if (message === null) db.exec(`DROP TRIGGER ${name}`);
      else {
        const condition = when ? `WHEN NEW.${when.column} = ${when.value} ` : '';
        db.exec(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} ${condition}BEGIN SELECT RAISE(ABORT, '${message}'); END`);
      }
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: location.url });
  await client.connect();
  try {
    if (message === null) await client.query(`DROP TRIGGER ${name} ON ${table}; DROP FUNCTION ${name}()`);
    else {
      await client.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION '${message}'; END $$`);
      const condition = when ? `WHEN (NEW.${when.column} = ${when.value}) ` : '';
      await client.query(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW ${condition}EXECUTE FUNCTION ${name}()`);
    }
  } finally {
    await client.end();
  }
}

/** seedTestUser on any test service (through its admin session). */
export async function seedUser(service: TestService, credentials: { clientKey: string; login: string; password: string }): Promise<number> {
  if (!(await service.admin.isClientRegistered(credentials.clientKey))) await service.admin.addClient(credentials.clientKey);
  return service.admin.addUser(credentials.login, credentials.password, { hashParams: TEST_HASH_PARAMS });
}
