/**
 * Client keys on a command line: never the key itself in the arguments (it ends up in the shell's history
 * and in every user's process list), but BOOKKEEPING_CLIENT_KEY or a file whose first line is the key.
 * The app's command line and the service's read them here.
 */
import { readFileSync } from 'node:fs';
import { UsageError } from './parse';
import type { OptionSpec } from './table';

export const CLIENT_KEY_ENV = 'BOOKKEEPING_CLIENT_KEY';

/** `--key`, accepted only to be refused with the reason and the ways that work (`ways`, for the help). */
export function refusedKeyOption(ways: string): OptionSpec {
  return { type: 'string', value: '<key>', description: `refused: give the key in ${ways}`, hidden: true };
}

/** Refuses a key given as `--key`, naming the ways that work. */
export function refuseKeyInArguments(given: boolean, ways: string): void {
  if (given) {
    throw new UsageError(`A client key on the command line ends up in the shell history and the process list: give it in ${ways}.`);
  }
}

/** The first line of a key file, trimmed; a missing, unreadable or empty file is refused with the reason. */
export function readKeyFile(file: string): string {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`--key-file ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'cannot be read'}.`);
  }
  const key = text.split(/\r?\n/, 1)[0]!.trim();
  if (!key) throw new UsageError(`--key-file ${file} is empty: its first line must be the client key.`);
  return key;
}
