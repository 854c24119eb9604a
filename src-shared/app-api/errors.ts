/**
 * Errors that cross the app API boundary. They travel as plain data (`{ code, message, field }`)
 * because IPC and HTTP keep no class identity; the renderer's adapter turns them back into AppError.
 */
export type AppErrorCode =
  /** An argument failed validation at the boundary or in the core; `field` names it. */
  | 'invalid-input'
  /** The record or outbox entry does not exist (any more). */
  | 'not-found'
  /** A rule of the data refused the write (transfer between currencies, duplicate category name...). */
  | 'rule'
  /** Sync or test needs connection settings first. */
  | 'not-connected'
  /** A sync is already running. */
  | 'busy'
  /** The service refused the credentials. */
  | 'auth'
  /** The password is not stored (the user chose to be asked at each sync, or the shell forgot it): ask and retry. */
  | 'password-needed'
  /** The local copy is damaged on disk: only recovering it (or starting a new one) is possible. */
  | 'damaged'
  /** The service could not be reached. */
  | 'network'
  /** TLS refused the service's certificate (not vouched for, changed since it was trusted, or invalid). */
  | 'certificate'
  /** The service answered a fault or something unreadable. */
  | 'service'
  /** The method does not exist, or the caller is not allowed (browser shell token, origin). */
  | 'forbidden'
  /** A bug: details are logged in the main process, never sent. */
  | 'internal';

export interface AppErrorData {
  code: AppErrorCode;
  message: string;
  field?: string;
}

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }

  toData(): AppErrorData {
    return this.field === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, field: this.field };
  }

  static fromData(data: AppErrorData): AppError {
    return new AppError(data.code, data.message, data.field);
  }
}

/** The envelope every bridge call answers with, so that errors keep their code across IPC and HTTP. */
export type CallOutcome<T> = { ok: true; value: T } | { ok: false; error: AppErrorData };

export function isAppErrorData(value: unknown): value is AppErrorData {
  return typeof value === 'object' && value !== null && typeof (value as AppErrorData).code === 'string' && typeof (value as AppErrorData).message === 'string';
}
