/**
 * An error that crosses the app API as data ({ code, params }) in the English words the command line and
 * the logs give it: what the tests of sync summaries, connection reports and exchanges read.
 */
import { englishText, type AppErrorData } from '../../src-shared/app-api';

export function englishOf(error: AppErrorData | null | undefined): string | null {
  return error ? englishText(error.code, error.params, error.field) : null;
}
