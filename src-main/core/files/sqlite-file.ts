/**
 * SQLite files beside the local copy: temporary copies made for a backup or a restore, how their
 * records are counted, and what a file must hold to be a local copy of this app.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { RecordCounts } from '../../../src-shared/app-api';
import { migrate, MIGRATIONS } from '../store/migrations';
import type { StoreOptions } from '../store/store';

/**
 * A fresh path in the local copy's own folder: the same disk (no copy across file systems) and the
 * same permissions as the data itself, rather than a shared temp folder.
 */
export function tempFileBeside(dataFile: string, purpose: string): string {
  return join(dirname(dataFile), `.${basename(dataFile)}.${purpose}-${randomUUID()}`);
}

/** Removes a SQLite file with the journal files SQLite may have left beside it. */
export function removeSqliteFile(file: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(file + suffix, { force: true });
}

/** Opens another SQLite file with the native module the local copy uses (Electron's ABI differs from Node's). */
export function openSqlite(file: string, options: StoreOptions, readonly = false): Database.Database {
  return new Database(file, {
    fileMustExist: true,
    readonly,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
}

export const newestSchema = (options: StoreOptions): number =>
  (options.migrations ?? MIGRATIONS).reduce((max, m) => Math.max(max, m.version), 0);

export { asRollbackJournalImage, isSqliteImage } from '../store/local-file';

/** A schema name this module itself chose ('main' or an attached copy): never user input. */
export type SchemaName = 'main' | 'restored';

export const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** What the local copy holds, in a schema of a connection. */
export function countRecords(db: Database.Database, schema: SchemaName = 'main'): RecordCounts {
  const count = (table: string) => db.prepare(`SELECT COUNT(*) FROM ${schema}.${table}`).pluck().get() as number;
  return {
    accounts: count('accounts'),
    transactions: count('transactions'),
    templates: count('templates'),
    categories: count('categories'),
    cars: count('cars'),
    refuelings: count('refuelings'),
    pendingWrites: count('outbox'),
  };
}

/** The ordinary tables of a schema with their columns; SQLite's own tables and virtual tables' shadows are left out. */
export function tableColumns(db: Database.Database, schema: SchemaName): Map<string, string[]> {
  const tables = (db.prepare(`PRAGMA ${schema}.table_list`).all() as { name: string; type: string }[])
    .filter((t) => t.type === 'table' && !t.name.startsWith('sqlite_'))
    .map((t) => t.name)
    .sort();
  const out = new Map<string, string[]>();
  for (const t of tables) {
    out.set(
      t,
      (db.prepare(`PRAGMA ${schema}.table_info(${quoteName(t)})`).all() as { name: string }[]).map((c) => c.name),
    );
  }
  return out;
}

/** Tables of the app's schema at `version`, with their columns, built from the migrations in memory. */
export function expectedTables(version: number, options: StoreOptions): Map<string, string[]> {
  const reference = new Database(':memory:', options.nativeBinding ? { nativeBinding: options.nativeBinding } : {});
  try {
    migrate(
      reference,
      (options.migrations ?? MIGRATIONS).filter((m) => m.version <= version),
    );
    return tableColumns(reference, 'main');
  } finally {
    reference.close();
  }
}

/** Tables or columns of `expected` that `actual` lacks, as "table" or "table.column". */
export function missingFrom(actual: Map<string, string[]>, expected: Map<string, string[]>): string[] {
  const missing: string[] = [];
  for (const [table, columns] of expected) {
    const have = actual.get(table);
    if (!have) missing.push(table);
    else for (const c of columns) if (!have.includes(c)) missing.push(`${table}.${c}`);
  }
  return missing;
}
