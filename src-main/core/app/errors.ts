/**
 * Everything that leaves the core is an AppError with a message fit for the user. Anything else is a
 * bug: it is logged (for the developer) and answered with a generic message, never a stack trace.
 */
import { AppError } from '../../../src-shared/app-api';
import { ValidationError } from '../../../src-shared/validate';
import { DamagedCopyError, LocalFileError } from '../store/local-file';
import { StoreVersionError } from '../store/migrations';
import { CallError, InvalidCredentialsError } from '../soap-client';
import { SealedKeyRefusedError, SecretUnavailableError } from '../secrets';
import { RecordError } from '../store/rows';
import { damaged } from '../store/store';

/** `input.name` → `name`; `input.input.amount` (an outbox entry's write) → `amount`. */
export function fieldOf(path: string): string | undefined {
  const parts = path.replace(/\[\d+\]/g, '').split('.').filter((p) => p !== 'input');
  return parts.length ? parts.join('.') : undefined;
}

export function validationToAppError(e: ValidationError): AppError {
  const field = fieldOf(e.path);
  const text = e.message.slice(e.path.length + 2);
  return new AppError('invalid-input', field ? `${field} ${text}` : `The input ${text}`, field);
}

export function callToAppError(e: CallError): AppError {
  if (e instanceof InvalidCredentialsError) return new AppError('auth', 'The service refused the client key, login or password.');
  switch (e.kind) {
    case 'fault':
      return new AppError('service', `The service answered: ${e.message}`);
    case 'malformed':
    case 'too-large':
      return new AppError('service', e.message);
    case 'certificate':
      return new AppError('certificate', e.message);
    default:
      return new AppError('network', e.message);
  }
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
  if (e instanceof SealedKeyRefusedError) return new AppError('auth', e.message);
  if (e instanceof SecretUnavailableError) return new AppError('not-connected', e.message);
  if (e instanceof DamagedCopyError) return new AppError('damaged', e.message);
  if (e instanceof StoreVersionError || e instanceof LocalFileError) return new AppError('rule', e.message);
  if (e instanceof RecordError) return new AppError('service', `The service sent data that cannot be kept: ${e.message}`);
  if (e instanceof Error && ['SQLITE_CORRUPT', 'SQLITE_NOTADB'].includes((e as NodeJS.ErrnoException).code ?? '') && dataFile) {
    log('The local copy is damaged', e);
    return new AppError('damaged', damaged(dataFile).message);
  }
  if (e instanceof Error && (e as NodeJS.ErrnoException).code === 'SQLITE_BUSY') {
    return new AppError('busy', 'The local data file is in use by another program; try again.');
  }
  log('Unexpected error in the app core', e);
  return new AppError('internal', `Something went wrong inside the app. The details are in the log${context.logFile ? `: ${context.logFile}` : ''}.`);
}
