/**
 * How the command line reads the values of its options and arguments (the table's `read`): each refuses
 * a malformed value with a sentence naming it, so that a typo never silently becomes a default.
 */
import { UsageError } from '../../src-node/cli';
import { maxInputBytes } from '../../src-shared/app-api';
import { localTimeZone, nowWall, type Binding } from '../../src-shared/wire';
import { readCurrency, ValueProblem } from '../core/files/import-values';

/** A whole number (ids, codes, kilometres), refusing anything else. */
export function integerArg(text: string, what: string): number {
  if (!/^-?\d{1,16}$/.test(text.trim())) throw new UsageError(`${what} must be a whole number, not ${JSON.stringify(text)}.`);
  const n = Number(text.trim());
  if (!Number.isSafeInteger(n)) throw new UsageError(`${what} is too large.`);
  return n;
}

export function booleanArg(text: string, what: string): boolean {
  switch (text.trim().toLowerCase()) {
    case 'true':
    case 'yes':
    case '1':
      return true;
    case 'false':
    case 'no':
    case '0':
      return false;
    default:
      throw new UsageError(`${what} must be true or false, not ${JSON.stringify(text)}.`);
  }
}

const BINDINGS: readonly Binding[] = ['soap12', 'soap11', 'httpGet', 'httpPost'];

export function bindingArg(text: string, what: string): Binding {
  if (!BINDINGS.includes(text as Binding)) throw new UsageError(`${what} must be one of ${BINDINGS.join(', ')}.`);
  return text as Binding;
}

/** A currency as a code (CZK) or its number (203), as the import reads it. */
export function currencyArg(text: string, what: string): number {
  try {
    return readCurrency(text);
  } catch (e) {
    if (e instanceof ValueProblem) throw new UsageError(`${what}: ${e.message}`);
    throw e;
  }
}

/** `now` as the wall-clock minute, the default date of a new write. */
export function nowMinute(): string {
  return nowWall(localTimeZone()).slice(0, 16);
}

/** The largest files the core takes: a backup travels as its bytes, a CSV as JSON text. */
export const MAX_BACKUP_FILE_BYTES = maxInputBytes('restoreBackup');
export const MAX_IMPORT_FILE_BYTES = Math.floor(maxInputBytes('importRefuelings') / 2);
