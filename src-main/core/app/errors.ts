/**
 * Everything that leaves the core is an AppError: a code with its parameters (src-shared/app-api/errors.ts).
 * Anything else is a bug: it is logged (for the developer) and answered with the code 'bug', never a
 * stack trace.
 */
import { AppError } from '../../../src-shared/app-api';
import { ValidationError } from '../../../src-shared/validate';
import { CallError, callToAppError } from '../soap-client';
import { isDamageError } from '../store/local-file';
import { damaged } from '../store/store';

/** `input.name` → `name`; `input.input.amount` (an outbox entry's write) → `amount`. */
export function fieldOf(path: string): string | undefined {
  const parts = path
    .replace(/\[\d+\]/g, '')
    .split('.')
    .filter((p) => p !== 'input');
  return parts.length ? parts.join('.') : undefined;
}

export function validationToAppError(e: ValidationError): AppError {
  return AppError.fromData({ code: e.code, params: e.params, ...(fieldOf(e.path) ? { field: fieldOf(e.path)! } : {}) });
}

/** Where the core's files are, to name them in messages: the local copy (damaged) and the log (a bug). */
export interface ErrorContext {
  dataFile?: string;
  logFile?: string | null;
}

export function toAppError(e: unknown, log: (message: string, error?: unknown) => void, context: ErrorContext = {}): AppError {
  const { dataFile } = context;
  if (e instanceof AppError) return e;
  if (e instanceof ValidationError) return validationToAppError(e);
  if (e instanceof CallError) return callToAppError(e);
  if (isDamageError(e) && dataFile) {
    log('The local copy is damaged', e);
    return damaged(dataFile);
  }
  if (e instanceof Error && (e as NodeJS.ErrnoException).code === 'SQLITE_BUSY') return new AppError('fileBusy');
  // SQLITE_READONLY and its extended codes (_DIRECTORY, _DBMOVED...): the copy cannot be written.
  if (e instanceof Error && /^SQLITE_READONLY/.test((e as NodeJS.ErrnoException).code ?? '') && dataFile) {
    return new AppError('localCopyReadOnly', { file: dataFile });
  }
  log('Unexpected error in the app core', e);
  return new AppError('bug', { log: context.logFile ?? '' });
}
