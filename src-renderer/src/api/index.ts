/**
 * The API the stores call. main.ts installs the bridge's API once; tests install a stand-in of their
 * own. Stores reach it through `api()` so that no store knows which bridge is behind it.
 */
import { AppError, isAppErrorData, type AppApi, type AppEventSource } from '../../../src-shared/app-api';

export type StoreApi = AppApi & AppEventSource;

let current: StoreApi | null = null;

export function installApi(next: StoreApi | null): void {
  current = next;
}

export function api(): StoreApi {
  if (!current) throw new AppError('apiUnavailable');
  return current;
}

/** Any thrown value as an AppError (the bridge throws AppError; anything else is a bug or a broken bridge). */
export function toAppError(error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isAppErrorData(error)) return AppError.fromData(error);
  // A bug or a broken bridge: its words are for the developer's console, never the screen.
  console.error(error);
  return new AppError('unexpectedAnswer');
}

/** The input field an error names (the first part of a path such as `input.amount`). */
export function errorField(error: AppError): string | null {
  if (!error.field) return null;
  return error.field.replace(/^input\./, '').split(/[.[]/, 1)[0] || null;
}
