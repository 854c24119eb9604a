/**
 * Helpers for the client core's tests: temp data files, an app core connected to a test service, a
 * SOAP client reading the service's truth directly, and dumps that compare a local copy exactly.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createAppCore, type AppCore, type AppCoreOptions } from '../../src-main/core/app/app-core';
import { LocalView, LocalWrites, type Outbox } from '../../src-main/core/outbox';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { SoapClient, type SoapClientOptions } from '../../src-main/core/soap-client';
import { Store } from '../../src-main/core/store';
import { TEST_TIME_ZONE, seedTestUser, type TestService } from './service';

export const DEMO = { clientKey: 'demo', login: 'demo', password: 'demo' } as const;

/** A temp folder removed by the returned function. */
export function tempDir(prefix = 'bookkeeping-client-'): { dir: string; file(name: string): string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, file: (name) => join(dir, name), remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Runs `fn` on a new local copy in a folder of its own, closed and removed afterwards whatever happens. */
export async function withStore<T>(fn: (store: Store) => T | Promise<T>): Promise<T> {
  const tmp = tempDir();
  const store = new Store(tmp.file('local.sqlite'));
  try {
    return await fn(store);
  } finally {
    store.close();
    tmp.remove();
  }
}

/** A SOAP client on the service (or a proxy in front of it) with the demo credentials. */
export function soapClient(baseUrl: string, namespace: string, options: Partial<SoapClientOptions> = {}): SoapClient {
  return new SoapClient({ baseUrl, namespace, credentials: { ...DEMO }, timeZone: TEST_TIME_ZONE, ...options });
}

export interface CoreHandle {
  core: AppCore;
  dataFile: string;
  close(): Promise<void>;
}

/** Quick tries and a small budget: a service that stays away is given up on within half a second. */
/** The input of an active, visible CZK bank account, as a test adds one (addAccount). */
export const newAccount = (name: string, ord = 1) => ({
  name,
  description: '',
  currency: 203,
  type: 1,
  isActive: true,
  isHidden: false,
  locked: false,
  ord,
});

export const TEST_SYNC_TUNING = { retry: { attempts: 3, backoffMs: 5, maxBackoffMs: 40 }, unavailableMs: 400 };

/**
 * The call time limit of a core whose calls must be answered: far beyond what the test service takes on a
 * busy machine. A limit such a machine can reach turns an answer into a timeout, and the test flakes.
 */
export const ANSWER_MS = 2000;

/**
 * The call time limit where a test makes the client give up on answers held back (the fault proxy's 'slow'
 * and 'slow-drip', which hold them far longer): short, so that each costs the test a second, yet four times
 * the limit that a loaded machine was seen to reach ("did not answer WSDL within 250 ms"). Only for the
 * faulted part of a test: a passing answer late beyond it is one more transient failure, tried again.
 */
export const GIVE_UP_MS = 1000;

/** An app core on a fresh (or given) data file, with fast failure settings for tests. */
export function openCore(dataFile: string, options: Partial<AppCoreOptions> = {}): AppCore {
  return createAppCore({
    dataFile,
    secrets: new MemorySecretStore(),
    timeZone: TEST_TIME_ZONE,
    timeoutMs: ANSWER_MS,
    sync: TEST_SYNC_TUNING,
    log: () => undefined,
    ...options,
  });
}

/** Connects a core to a service as a demo user. */
export async function connectDemo(core: AppCore, baseUrl: string, login: 'demo' | 'demo2' = 'demo'): Promise<void> {
  await core.connect({ baseUrl, clientKey: 'demo', login, password: login });
}

// ---- the local copy, exactly ----------------------------------------------------------------------

/** Every row of every table of a local data file, in primary-key order, for exact before/after comparisons. */
export function dumpLocal(file: string): Record<string, unknown[]> {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    // Tables of records; the full-text index's shadow tables are derived from them (their pages differ by how they were written).
    const tables = (db.pragma('table_list') as { name: string; type: string; schema: string }[])
      .filter((t) => t.schema === 'main' && t.type === 'table' && !t.name.startsWith('sqlite_'))
      .map((t) => t.name)
      .sort();
    const out: Record<string, unknown[]> = {};
    for (const t of tables) out[t] = db.prepare(`SELECT * FROM "${t}" ORDER BY 1, 2`).all();
    out.__schema = [db.pragma('user_version', { simple: true })];
    return out;
  } finally {
    db.close();
  }
}

/** The dump without the bookkeeping of syncs themselves (last summary, lock, last exchange with the service). */
export function dataOnly(dump: Record<string, unknown[]>): Record<string, unknown[]> {
  const volatile = new Set(['lastSync', 'lastSyncAt', 'syncLock', 'lastExchange']);
  return { ...dump, settings: (dump.settings as { key: string }[]).filter((r) => !volatile.has(r.key)) };
}

export async function withService<T>(service: TestService, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } finally {
    await service.close();
  }
}

// ---- a fresh user per test ------------------------------------------------------------------------

let users = 0;
const CLIENT_KEY = 'client-tests';

export interface UserSession {
  core: AppCore;
  /** The service read directly, as this user. */
  truth: SoapClient;
  login: string;
  credentials: { clientKey: string; login: string; password: string };
  file: string;
  secrets: MemorySecretStore;
  /** Opens another core on the same local copy (an app restart). */
  reopen(options?: Partial<AppCoreOptions>): Promise<AppCore>;
  done(): Promise<void>;
}

/** A new user on the service (and the test client key), and a core connected as that user. */
export async function newUser(
  service: TestService,
  options: Partial<AppCoreOptions> & { baseUrl?: string; trustedCertificate?: string } = {},
): Promise<UserSession> {
  const login = `user${process.pid}x${++users}`;
  const credentials = { clientKey: CLIENT_KEY, login, password: 'password' };
  seedTestUser(service.dataFile, credentials);
  const tmp = tempDir();
  const file = tmp.file('local.sqlite');
  const secrets = new MemorySecretStore();
  const { baseUrl, trustedCertificate, ...coreOptions } = options;
  let core = openCore(file, { secrets, ...coreOptions });
  await core.connect({ baseUrl: baseUrl ?? service.url, ...credentials, ...(trustedCertificate ? { trustedCertificate } : {}) });
  const truth = soapClient(service.url, service.namespace, { credentials, ...(trustedCertificate ? { trustedCertificate } : {}) });
  return {
    get core() {
      return core;
    },
    truth,
    login,
    credentials,
    file,
    secrets,
    async reopen(more = {}) {
      await core.close();
      core = openCore(file, { secrets, ...coreOptions, ...more });
      return core;
    },
    async done() {
      truth.close();
      await core.close();
      tmp.remove();
    },
  };
}

/** A local copy's store with its outbox, view and writes, without a core, car 1 named; close the store when done. */
export function localWrites(file: string): { store: Store; outbox: Outbox; view: LocalView; writes: LocalWrites } {
  const store = new Store(file);
  const outbox = store.outbox;
  const view = new LocalView(store, outbox);
  const writes = new LocalWrites(store, outbox, view, () => '2026-01-01T00:00:00');
  store.cars.save({ carId: 1, name: 'Car' }, '2026-01-01T00:00:00');
  return { store, outbox, view, writes };
}
