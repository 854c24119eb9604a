/**
 * A real service on loopback for tests: a temp data file (unless one is given), port 0 the first time,
 * and the same port again after stop() and start(), so that a client under test can see the service go
 * away and come back. Password hashes use a cheap scrypt cost to keep suites fast.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  TEST_HASH_PARAMS,
  addClient,
  addUser,
  createDemoData,
  isClientRegistered,
  silentLogger,
  startService,
  type DemoSummary,
  type RunningService,
  type ServiceOptions,
} from '../../src-service';

export interface TestServiceOptions {
  /** Fill the data file with the demo data set first (client key `demo`, users demo/demo and demo2/demo2). */
  demo?: boolean;
  namespace?: string;
  /** Default Europe/Prague, so that tests do not depend on the machine's zone. */
  timeZone?: string;
  /** Use this data file instead of a fresh temp one (it is then not deleted by close()). */
  dataFile?: string;
  /** Anything else startService takes (limits, auth throttle, logger, clock). */
  service?: Partial<Omit<ServiceOptions, 'dataFile' | 'port' | 'host' | 'namespace' | 'timeZone'>>;
}

export interface TestService {
  /** Base URL, e.g. http://127.0.0.1:40123 (the operations are under /API/APIservice.asmx). */
  url: string;
  namespace: string;
  dataFile: string;
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
  const tempDir = opts.dataFile === undefined ? mkdtempSync(join(tmpdir(), 'bookkeeping-service-')) : undefined;
  const dataFile = opts.dataFile ?? join(tempDir!, 'service.sqlite');
  const timeZone = opts.timeZone ?? TEST_TIME_ZONE;
  const demo = opts.demo ? createDemoData(dataFile, { hashParams: TEST_HASH_PARAMS, timeZone }) : undefined;

  let running: RunningService | undefined;
  const launch = async (port: number, overrides: Partial<ServiceOptions> = {}) => {
    running = await startService({
      logger: silentLogger,
      ...opts.service,
      ...overrides,
      auth: { hashParams: TEST_HASH_PARAMS, ...opts.service?.auth },
      dataFile,
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
    dataFile,
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
