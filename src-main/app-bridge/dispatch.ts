/**
 * One call of the app API arriving from an edge (Electron IPC or the browser shell's HTTP): the method
 * name is checked against the table, the input is validated by the method's schema before it reaches the
 * core, and every outcome becomes plain data. A bug never leaks its stack trace to the renderer: it is
 * logged here and answered with a generic 'internal' error.
 */
import { APP_METHODS, AppError, isAppMethod, type AppApi, type AppErrorData, type CallOutcome } from '../../src-shared/app-api';
import { parse, ValidationError } from '../../src-shared/validate';
import { validationToAppError } from '../core/app/errors';

export type ErrorLogger = (message: string, error: unknown) => void;

const defaultLogger: ErrorLogger = (message, error) => console.error(message, error);

function failure(error: AppErrorData): CallOutcome<never> {
  return { ok: false, error };
}

export async function dispatch(
  core: AppApi,
  method: string,
  rawInput: unknown,
  log: ErrorLogger = defaultLogger,
): Promise<CallOutcome<unknown>> {
  if (!isAppMethod(method)) return failure(new AppError('noSuchMethod', { method: JSON.stringify(method.slice(0, 60)) }).toData());
  let input: unknown;
  try {
    // JSON has no undefined: a call without input arrives as null over HTTP.
    input = parse(APP_METHODS[method].input, rawInput === null ? undefined : rawInput, 'input');
  } catch (e) {
    if (e instanceof ValidationError) return failure(validationToAppError(e).toData());
    throw e;
  }
  try {
    const call = core[method] as (input: unknown) => Promise<unknown>;
    return { ok: true, value: await call.call(core, input) };
  } catch (e) {
    if (e instanceof AppError) return failure(e.toData());
    if (e instanceof ValidationError) return failure(validationToAppError(e).toData());
    log(`app method ${method} failed`, e);
    return failure(new AppError('bug', { log: '' }).toData());
  }
}
