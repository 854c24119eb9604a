/**
 * The operator functions on either store, for the command line and the tests of both backends: an
 * admin session holds one connection (a SQLite file, or one PostgreSQL connection) and runs each
 * function in a write transaction of its own.
 */
import type { StoreLocation } from '../store';
import { openAdminStore, type AdminStore } from '../store/open';
import { wrapOperators, type FlowResult, type Operators } from './operators';

export type AdminSession = { [N in keyof Operators]: (...args: Parameters<Operators[N]>) => Promise<FlowResult<Operators[N]>> } & {
  readonly location: StoreLocation;
  close(): Promise<void>;
};

export async function openAdmin(location: StoreLocation): Promise<AdminSession> {
  const store: AdminStore = await openAdminStore(location);
  const functions = wrapOperators((make) => (...args: unknown[]) => {
    // The arguments are checked (and a password hashed) before the transaction begins.
    let flow;
    try {
      flow = make(...args);
    } catch (e) {
      return Promise.reject(e);
    }
    return store.write(flow);
  });
  return { ...(functions as Omit<AdminSession, 'location' | 'close'>), location, close: () => store.close() };
}

/** Runs `fn` with an admin session on `location`, closed afterwards. */
export async function withAdmin<T>(location: StoreLocation, fn: (admin: AdminSession) => Promise<T>): Promise<T> {
  const admin = await openAdmin(location);
  try {
    return await fn(admin);
  } finally {
    await admin.close();
  }
}
