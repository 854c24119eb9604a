/**
 * Opening a data file: WAL (readers never wait for the writer), foreign keys on, a busy timeout so that
 * the admin command line can write while the service runs, and the migrations brought up to date.
 */
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations';

export type Db = Database.Database;

export class DataFileError extends Error {
  override name = 'DataFileError';
}

/** The schema version this build writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

export function openDatabase(file: string): Db {
  let db: Db;
  try {
    db = new Database(file);
  } catch (e) {
    throw new DataFileError(`Cannot open the data file: ${(e as Error).message}`);
  }
  try {
    db.pragma('busy_timeout = 5000');
    db.pragma('journal_mode = WAL');
    db.pragma('foreign_keys = ON');
    // WAL with NORMAL stays consistent after a crash; only the last commits before a power loss may go.
    db.pragma('synchronous = NORMAL');
    migrate(db);
    return db;
  } catch (e) {
    db.close();
    if (e instanceof DataFileError) throw e;
    throw new DataFileError(`The data file is not a usable bookkeeping database: ${(e as Error).message}`);
  }
}

function migrate(db: Db): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  if (current > SCHEMA_VERSION) {
    throw new DataFileError(
      `The data file has schema version ${current}, newer than this program's ${SCHEMA_VERSION}; use a newer version.`,
    );
  }
  for (const m of MIGRATIONS) {
    if (m.version <= current) continue;
    // IMMEDIATE takes the write lock first, so two processes opening a new file never both migrate it.
    db.transaction(() => {
      const now = db.pragma('user_version', { simple: true }) as number;
      if (now >= m.version) return;
      db.exec(m.sql);
      db.pragma(`user_version = ${m.version}`);
    }).immediate();
  }
}
