/**
 * The bookkeeping service's in-process API: start it on a data file, and the operator's functions that
 * set up that file (users, client keys, sharing, templates, demo data, and records for test set-up).
 */
export {
  startService,
  DEFAULT_HOST,
  DEFAULT_PORT,
  ServiceOptionError,
  type RunningService,
  type ServiceOptions,
} from './service';
export * from './admin';
export { RuleError, INVALID_CREDENTIALS } from './errors';
export { DataFileError } from './store';
export type { Permission } from './store';
export { DEFAULT_LIMITS, type HttpLimits } from './server/limits';
export type { AuthOptions } from './auth/authenticator';
export type { ThrottleOptions } from './auth/login-throttle';
export { silentLogger, stderrLogger, type Logger } from './log';
export { DEFAULT_NAMESPACE } from '../src-shared/catalog';
