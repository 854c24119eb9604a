/**
 * The bookkeeping service's in-process API: start it on a data file or a PostgreSQL database, and the
 * operator's functions that set up its data (users, client keys, sharing, templates, demo data, and
 * records for test set-up): synchronous on a SQLite file, or in an admin session on either store.
 */
export {
  startService,
  storeLocation,
  DEFAULT_HOST,
  DEFAULT_PORT,
  ServiceOptionError,
  type RunningService,
  type ServiceOptions,
} from './service';
export * from './admin';
export { contextOf, accountFor, refuelingFor } from './admin/operator';
export { RuleError, INVALID_CREDENTIALS } from './errors';
export { DataFileError, describeLocation, type Permission, type StoreLocation } from './store';
export { DEFAULT_LIMITS, type HttpLimits } from './server/limits';
export type { AuthOptions } from './auth/authenticator';
export type { ThrottleOptions } from './auth/login-throttle';
export { silentLogger, stderrLogger, type Logger } from './log';
export { DEFAULT_NAMESPACE } from '../src-shared/catalog';
