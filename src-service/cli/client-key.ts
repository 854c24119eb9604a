/**
 * The client key an operator command works on: from BOOKKEEPING_CLIENT_KEY or the first line of
 * --key-file, never from the command line itself (the shell's history, the process list).
 */
import { CLIENT_KEY_ENV, readKeyFile, refuseKeyInArguments, refusedKeyOption, UsageError } from '../../src-node/cli';

const WAYS = `${CLIENT_KEY_ENV} or in a file with --key-file <file>`;

export const clientKeyOptions = {
  'key-file': { type: 'string', value: '<file>', description: `a file whose first line is the client key (else ${CLIENT_KEY_ENV})` },
  key: refusedKeyOption(WAYS),
} as const;

/** The key the operator gave, or null when none was given. */
export function givenClientKey(o: { 'key-file'?: string | undefined; key?: string | undefined }): string | null {
  refuseKeyInArguments(o.key !== undefined, WAYS);
  if (o['key-file'] !== undefined) return readKeyFile(o['key-file']);
  return process.env[CLIENT_KEY_ENV] || null;
}

/** The key the operator must give. */
export function requiredClientKey(o: { 'key-file'?: string | undefined; key?: string | undefined }): string {
  const key = givenClientKey(o);
  if (key === null) throw new UsageError(`Give the client key in ${WAYS}.`);
  return key;
}
