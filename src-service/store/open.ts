/**
 * Opening the store a location names: the running service's (ServiceStore) or the admin commands'
 * (AdminStore). Either creates and migrates what it opens when needed.
 */
import { runNow } from './flow';
import type { StoreLocation } from './location';
import { PostgresAdminStore } from './postgres/admin';
import { PostgresServiceStore } from './postgres/serving';
import type { ServiceStore, StoreFlow } from './seam';
import { SqliteServiceStore } from './sqlite/serving';
import { Store } from './sqlite/store';

/** A store for operator functions: each flow in one write transaction of its own. */
export interface AdminStore {
  write<T>(flow: StoreFlow<T>): Promise<T>;
  close(): Promise<void>;
}

export async function openAdminStore(location: StoreLocation): Promise<AdminStore> {
  if (location.kind === 'postgres') return PostgresAdminStore.open(location.url);
  // The file is opened for each write and closed again, as the admin commands always did: nothing is
  // held open between them (a test may replace the file meanwhile).
  Store.open(location.file).close();
  return {
    write: async (flow) => writeOnFile(location.file, flow),
    close: async () => {},
  };
}

/** Runs `flow` in one write on the SQLite data file, opened for it (created and migrated when needed) and closed again. */
export function writeOnFile<T>(file: string, flow: StoreFlow<T>): T {
  const store = Store.open(file);
  try {
    return store.write(() => runNow(flow(store)));
  } finally {
    store.close();
  }
}

export interface ServiceStoreOptions {
  /** Told (for the log) about trouble that does not fail a request: checkpoints falling back, a lost listener. */
  onTrouble?: (message: string, error?: unknown) => void;
  /** PostgreSQL: most connections of the instance's pool. */
  poolSize?: number;
}

export async function openServiceStore(location: StoreLocation, options: ServiceStoreOptions = {}): Promise<ServiceStore> {
  const onTrouble = options.onTrouble ?? (() => {});
  if (location.kind === 'postgres') {
    return PostgresServiceStore.open(location.url, { onTrouble, ...(options.poolSize ? { poolSize: options.poolSize } : {}) });
  }
  return SqliteServiceStore.open(location.file, (reason) =>
    onTrouble(`WAL checkpoints fell back to the writer (slower under load): ${reason}`),
  );
}
