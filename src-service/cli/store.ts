/**
 * Which store a command works on: `--data <file.sqlite>` (SQLite, the default kind), or a PostgreSQL
 * database from `--store postgres://...` or BOOKKEEPING_DATABASE_URL. A password never comes from the
 * command line (the shell's history and the process list would hold it): a connection string in
 * --store that carries one is refused, as `--key` is; it goes in BOOKKEEPING_DATABASE_URL, PGPASSWORD or
 * a password file (~/.pgpass, or the file PGPASSFILE names).
 */
import { UsageError } from '../../src-node/cli';
import { isPostgresUrl, urlPassword, type StoreLocation } from '../store';

export const DATABASE_URL_ENV = 'BOOKKEEPING_DATABASE_URL';

const PASSWORD_WAYS = `${DATABASE_URL_ENV}, PGPASSWORD or a password file (~/.pgpass, or PGPASSFILE)`;

export const storeOptions = {
  data: { type: 'string', value: '<file.sqlite>', description: 'the SQLite data file (created when missing)' },
  store: {
    type: 'string',
    value: '<postgres://user@host/db>',
    description: `a PostgreSQL database instead (else ${DATABASE_URL_ENV}); its password in ${PASSWORD_WAYS}, never here`,
  },
} as const;

/** A PostgreSQL connection string given on the command line: refused when it carries a password. */
export function commandLineUrl(url: string, option: string): string {
  if (!isPostgresUrl(url)) throw new UsageError(`${option} must be a PostgreSQL connection string (postgres://user@host:5432/database).`);
  if (urlPassword(url) !== undefined) {
    throw new UsageError(`A password in ${option} ends up in the shell history and the process list: give it in ${PASSWORD_WAYS}.`);
  }
  return url;
}

/** The database of BOOKKEEPING_DATABASE_URL, if set. */
export function environmentUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env[DATABASE_URL_ENV];
  if (url === undefined || url === '') return undefined;
  if (!isPostgresUrl(url)) {
    throw new UsageError(`${DATABASE_URL_ENV} must be a PostgreSQL connection string (postgres://user:password@host:5432/database).`);
  }
  return url;
}

/** The store the options name. */
export function storeOf(o: { data?: string | undefined; store?: string | undefined }, env: NodeJS.ProcessEnv = process.env): StoreLocation {
  if (o.data !== undefined && o.store !== undefined) throw new UsageError('Give --data or --store, not both.');
  if (o.data !== undefined) return { kind: 'sqlite', file: o.data };
  if (o.store !== undefined) return { kind: 'postgres', url: commandLineUrl(o.store, '--store') };
  const url = environmentUrl(env);
  if (url !== undefined) return { kind: 'postgres', url };
  throw new UsageError(`Option --data is required (or --store, or ${DATABASE_URL_ENV}).`);
}
