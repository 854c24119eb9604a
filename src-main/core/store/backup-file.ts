/**
 * Backup files of the local copy, as SQLite sees them (files/backup.ts holds the flow): a backup written from
 * the open copy without what belongs to this machine, a backup checked fully before anything is restored
 * from it, and its rows taken in place of the copy's, table by table.
 */
import Database from 'better-sqlite3';
import { AppError, type RecordCounts } from '../../../src-shared/app-api';
import type { RecordKind } from '../outbox/entries';
import { migrate, MIGRATIONS } from './migrations';
import { TOTALS_TABLES } from './month-totals';
import type { StoreOptions } from './options';
import type { Prepare } from './record-sql';
import { LOCAL_ONLY_CONDITION, type SettingKey, type Settings } from './settings';
import type { Transactions } from './transactions';

/** The backup's own record of when it was made; it lives only in backups, never in the local copy. */
export const BACKED_UP_AT_KEY = 'backup.createdAt' satisfies SettingKey;
/**
 * A random name of this local copy, made with its first backup: a restore tells a backup of this very
 * copy, whose outbox it can settle against what happened since, from one of another copy.
 */
export const COPY_ID_KEY = 'copyId' satisfies SettingKey;

/** Tables the store keeps from others (month-totals.ts); a restore rebuilds them rather than copying them. */
const DERIVED_TABLES = new Set(TOTALS_TABLES);

/** A schema name this module itself chose ('main' or an attached copy): never user input. */
type SchemaName = 'main' | 'restored';

const quoteName = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** Opens another SQLite file with the native module the local copy uses (Electron's ABI differs from Node's). */
function openSqlite(file: string, options: StoreOptions, readonly = false): Database.Database {
  return new Database(file, {
    fileMustExist: true,
    readonly,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  });
}

export const newestSchema = (options: StoreOptions): number =>
  (options.migrations ?? MIGRATIONS).reduce((max, m) => Math.max(max, m.version), 0);

/** What the local copy holds, in a schema of a connection. */
function countRecords(db: Database.Database, schema: SchemaName = 'main'): RecordCounts {
  const count = (table: string) => db.prepare(`SELECT COUNT(*) FROM ${schema}.${table}`).pluck().get() as number;
  return {
    accounts: count('accounts'),
    transactions: count('transactions'),
    templates: count('templates'),
    categories: count('categories'),
    cars: count('cars'),
    refuelings: count('refuelings'),
    budgets: count('budgets'),
    carCosts: count('car_costs'),
    reminders: count('reminders'),
    pendingWrites: count('outbox'),
  };
}

/** The ordinary tables of a schema with their columns; SQLite's own tables and virtual tables' shadows are left out. */
function tableColumns(db: Database.Database, schema: SchemaName): Map<string, string[]> {
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
function expectedTables(version: number, options: StoreOptions): Map<string, string[]> {
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
function missingFrom(actual: Map<string, string[]>, expected: Map<string, string[]>): string[] {
  const missing: string[] = [];
  for (const [table, columns] of expected) {
    const have = actual.get(table);
    if (!have) missing.push(table);
    else for (const c of columns) if (!have.includes(c)) missing.push(`${table}.${c}`);
  }
  return missing;
}

/** A backup that may be restored: its schema version and when it was made (null when it does not say). */
export interface InspectedBackup {
  version: number;
  backedUpAt: string | null;
}

/** Checks a copy before anything is restored from it: intact, this app's tables, a schema this app knows. */
export function inspectBackup(file: string, options: StoreOptions): InspectedBackup {
  let db: Database.Database;
  try {
    db = openSqlite(file, options, true);
  } catch {
    throw new AppError('backupUnopenable', {}, 'data');
  }
  try {
    const check = db.pragma('integrity_check') as { integrity_check: string }[];
    if (check.length !== 1 || check[0]!.integrity_check !== 'ok') {
      throw new AppError('backupDamaged', {}, 'data');
    }
    const version = db.pragma('user_version', { simple: true }) as number;
    const newest = newestSchema(options);
    if (version > newest) {
      throw new AppError('backupNewer', { version, newest }, 'data');
    }
    const missing = version < 1 ? ['every table'] : missingFrom(tableColumns(db, 'main'), expectedTables(version, options));
    if (missing.length > 0) throw new AppError('backupLacks', { missing: missing.slice(0, 5).join(', ') }, 'data');
    const at = db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(BACKED_UP_AT_KEY) as string | undefined;
    const parsed: unknown = at === undefined ? null : JSON.parse(at);
    return { version, backedUpAt: typeof parsed === 'string' ? parsed : null };
  } catch (e) {
    if (e instanceof AppError) throw e;
    // SQLITE_NOTADB, SQLITE_CORRUPT, a settings value that is not JSON...
    throw new AppError('backupForeign', {}, 'data');
  } finally {
    db.close();
  }
}

/** An outbox entry of the copy a restore replaces, as far as settling the backup's entries needs it. */
export interface ReplacedEntry {
  id: number;
  kind: string;
  createdAt: string;
}

/** A temporary id whose create reached the service, as the replaced copy knew it. */
export interface SettledTempId {
  tempId: number;
  kind: RecordKind;
  realId: number;
}

/** What the local copy knew about its writes just before a restore replaced its rows, and the backup's own name. */
export interface ReplacedCopy {
  copyId: string | null;
  /** Entries not sent yet, or sent and refused, by id. */
  unsent: Map<number, ReplacedEntry>;
  /** Temporary ids whose create reached the service, by temporary id. */
  mapped: Map<number, SettledTempId>;
  /** The copy id the backup carries (null when it has none: a backup made before copies were named). */
  backupCopyId: string | null;
}

export class BackupFiles {
  constructor(
    /** The open copy: its connection and how it was opened (read when used: the store opens it after making its repositories). */
    private readonly copy: { readonly db: Database.Database; readonly options: StoreOptions },
    private readonly sql: Prepare,
    private readonly settings: Settings,
    private readonly transactions: Transactions,
  ) {}

  /**
   * Writes a backup of the open copy to `file` (made owner-only by the caller): SQLite's online backup, then
   * in the file only, the local-only settings out but the copy's name, the moment it was made in, and
   * rebuilt so that the deleted rows' bytes go and it needs no -wal beside it. Returns what it holds.
   */
  async write(file: string, backedUpAt: string): Promise<RecordCounts> {
    await this.copy.db.backup(file);
    const copy = openSqlite(file, this.copy.options);
    try {
      // A single file that needs no -wal beside it, readable by a read-only connection.
      copy.pragma('journal_mode = DELETE');
      copy.transaction(() => {
        // The copy's name travels with it (the restore compares it); the rest of the local-only settings do not.
        copy.prepare(`DELETE FROM settings WHERE ${LOCAL_ONLY_CONDITION} AND key <> ?`).run(COPY_ID_KEY);
        copy.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(BACKED_UP_AT_KEY, JSON.stringify(backedUpAt));
      })();
      // The deleted rows' bytes stay in free pages until the file is rebuilt.
      copy.exec('VACUUM');
      return countRecords(copy);
    } finally {
      copy.close();
    }
  }

  /** What the open copy holds. */
  counts(): RecordCounts {
    return countRecords(this.copy.db);
  }

  /** Runs `fn` with the checked backup at `file` attached as the schema `restored`. */
  withAttached<T>(file: string, fn: () => T): T {
    this.sql('ATTACH DATABASE ? AS restored').run(file);
    try {
      return fn();
    } finally {
      this.copy.db.exec('DETACH DATABASE restored');
    }
  }

  /**
   * Replaces every table's rows of the copy with the attached backup's, in the caller's transaction; the
   * local-only settings stay this machine's, the tables derived from others are rebuilt by their triggers,
   * outbox ids and temporary ids are never handed out twice in this copy, restore or not, and the amounts'
   * units are worked out again rather than taken from the file. Returns what
   * the copy knew of its writes before, for the caller to settle the backup's entries against.
   */
  replaceFromAttached(): ReplacedCopy {
    const db = this.copy.db;
    // Rows go in table by table; references are checked when the whole copy is in.
    db.pragma('defer_foreign_keys = ON');
    const before = this.writesBefore();
    const sequences = this.sql('SELECT name, seq FROM main.sqlite_sequence').all() as { name: string; seq: number }[];
    const nextTempId = this.settings.get('nextTempId');
    const restored = tableColumns(db, 'restored');
    for (const [table, columns] of tableColumns(db, 'main')) {
      // Derived from the transactions by triggers as their rows go in: never taken from the file.
      if (DERIVED_TABLES.has(table)) continue;
      const have = restored.get(table);
      if (!have || columns.some((c) => !have.includes(c))) {
        throw new AppError('backupTableDiffers', { table }, 'data');
      }
      const list = columns.map(quoteName).join(', ');
      const local = table === 'settings' ? ` WHERE NOT ${LOCAL_ONLY_CONDITION}` : '';
      db.prepare(`DELETE FROM main.${quoteName(table)}${local}`).run();
      db.prepare(`INSERT INTO main.${quoteName(table)} (${list}) SELECT ${list} FROM restored.${quoteName(table)}${local}`).run();
    }
    this.sql('DELETE FROM main.sqlite_sequence').run();
    this.sql('INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM restored.sqlite_sequence').run();
    for (const s of sequences) {
      const raised = this.sql('UPDATE main.sqlite_sequence SET seq = max(seq, ?) WHERE name = ?').run(s.seq, s.name);
      if (raised.changes === 0) this.sql('INSERT INTO main.sqlite_sequence (name, seq) VALUES (?, ?)').run(s.name, s.seq);
    }
    // Temporary ids count down: the lower of the two is the one never handed out by either.
    if (nextTempId < this.settings.get('nextTempId')) this.settings.set('nextTempId', nextTempId);
    this.transactions.recomputeAmountUnits();
    return before;
  }

  /** The copy's writes just before its rows are replaced, and the attached backup's name. */
  private writesBefore(): ReplacedCopy {
    const unsent = this.sql("SELECT id, kind, created_at FROM main.outbox WHERE status NOT IN ('unknown', 'undecidable')").all() as {
      id: number;
      kind: string;
      created_at: string;
    }[];
    const mapped = this.sql('SELECT temp_id, kind, real_id FROM main.id_map').all() as {
      temp_id: number;
      kind: RecordKind;
      real_id: number;
    }[];
    const backupCopyId = this.sql('SELECT value FROM restored.settings WHERE key = ?').pluck().get(COPY_ID_KEY) as string | undefined;
    return {
      copyId: this.settings.get('copyId'),
      unsent: new Map(unsent.map((e) => [e.id, { id: e.id, kind: e.kind, createdAt: e.created_at }])),
      mapped: new Map(mapped.map((m) => [m.temp_id, { tempId: m.temp_id, kind: m.kind, realId: m.real_id }])),
      backupCopyId: backupCopyId === undefined ? null : (JSON.parse(backupCopyId) as string),
    };
  }
}
