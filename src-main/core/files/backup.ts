/**
 * Backup and restore of the local copy, outbox included. A backup is SQLite's online backup of the
 * open file, without the sealed credentials (a backup is a file users carry around). A restore checks
 * the file fully before it touches anything, then replaces every table's rows in one transaction, so
 * that a failed restore changes nothing.
 */
import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { AppError, type BackupFile, type RecordCounts, type RestoreResult } from '../../../src-shared/app-api';
import type { CoreParts, Handlers } from '../app/core-parts';
import type { AnyEntry, RecordKind } from '../outbox/entries';
import { reviveOutbox } from '../outbox/revive';
import { createOwnFile } from '../store/owner-only';
import { listSafetyCopies } from '../store/safety-copies';
import { LOCAL_ONLY_CONDITION, type SettingKey } from '../store/settings';
import { Store } from '../store/store';
import {
  asRollbackJournalImage,
  countRecords,
  expectedTables,
  isSqliteImage,
  missingFrom,
  newestSchema,
  openSqlite,
  quoteName,
  removeSqliteFile,
  tableColumns,
  tempFileBeside,
} from './sqlite-file';

/** The backup's own record of when it was made; it lives only in backups, never in the local copy. */
export const BACKED_UP_AT_KEY = 'backup.createdAt' satisfies SettingKey;
/**
 * A random name of this local copy, made with its first backup: a restore tells a backup of this very
 * copy, whose outbox it can settle against what happened since, from one of another copy.
 */
export const COPY_ID_KEY = 'copyId' satisfies SettingKey;

/** Tables the store keeps from others (store/month-totals.ts); a restore rebuilds them rather than copying them. */
const DERIVED_TABLES = new Set(['month_totals']);

/**
 * Writes a backup's bytes to a new file of the owner's, as a rollback-journal image: its header is changed
 * in a copy of its first 100 bytes, so the caller's bytes are neither changed nor copied (up to 150 MiB).
 */
function writeImage(file: string, bytes: Buffer): void {
  const header = Buffer.from(bytes.subarray(0, 100));
  asRollbackJournalImage(header);
  const fd = openSync(file, 'wx', 0o600);
  try {
    writeSync(fd, header);
    writeSync(fd, bytes, 100);
  } finally {
    closeSync(fd);
  }
}

const backupFileName = (now: string) => `bookkeeping-${now.slice(0, 10)}-${now.slice(11, 13)}${now.slice(14, 16)}.sqlite`;

export async function createBackup(parts: CoreParts): Promise<BackupFile> {
  const { store } = parts;
  // A read-only copy is backed up all the same (a backup is a read), without a name of its own and through
  // the system's temporary folder, as its own folder may not take a file.
  if (store.settings.get('copyId') === null && !store.readOnly) store.transaction(() => store.settings.set('copyId', randomUUID()));
  const file = store.readOnly ? join(tmpdir(), `bookkeeping-backup-${randomUUID()}.sqlite`) : tempFileBeside(store.file, 'backup');
  try {
    // Owner-only before SQLite writes a byte into it.
    createOwnFile(file);
    await store.db.backup(file);
    const now = parts.now();
    const copy = openSqlite(file, store.options);
    let counts: RecordCounts;
    try {
      // A single file that needs no -wal beside it, readable by a read-only connection.
      copy.pragma('journal_mode = DELETE');
      copy.transaction(() => {
        // The copy's name travels with it (the restore compares it); the rest of the local-only settings do not.
        copy.prepare(`DELETE FROM settings WHERE ${LOCAL_ONLY_CONDITION} AND key <> ?`).run(COPY_ID_KEY);
        copy.prepare('INSERT INTO settings (key, value) VALUES (?, ?)').run(BACKED_UP_AT_KEY, JSON.stringify(now));
      })();
      // The deleted rows' bytes stay in free pages until the file is rebuilt.
      copy.exec('VACUUM');
      counts = countRecords(copy);
    } finally {
      copy.close();
    }
    const bytes = readFileSync(file);
    return { fileName: backupFileName(now), data: bytes.toString('base64'), bytes: bytes.length, counts };
  } finally {
    removeSqliteFile(file);
  }
}

interface Inspected {
  version: number;
  backedUpAt: string | null;
}

/** Checks a copy before anything is restored from it: intact, this app's tables, a schema this app knows. */
function inspect(file: string, store: Store): Inspected {
  let db: Database.Database;
  try {
    db = openSqlite(file, store.options, true);
  } catch {
    throw new AppError('backupUnopenable', {}, 'data');
  }
  try {
    const check = db.pragma('integrity_check') as { integrity_check: string }[];
    if (check.length !== 1 || check[0]!.integrity_check !== 'ok') {
      throw new AppError('backupDamaged', {}, 'data');
    }
    const version = db.pragma('user_version', { simple: true }) as number;
    const newest = newestSchema(store.options);
    if (version > newest) {
      throw new AppError('backupNewer', { version, newest }, 'data');
    }
    const missing = version < 1 ? ['every table'] : missingFrom(tableColumns(db, 'main'), expectedTables(version, store.options));
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

/** Brings an older backup's schema up to this version's, on the copy only. */
function upgrade(file: string, store: Store): void {
  try {
    new Store(file, { ...store.options, noSafetyCopies: true }).close();
  } catch {
    throw new AppError('backupNotUpgradable', {}, 'data');
  }
}

interface OutboxKey {
  id: number;
  kind: string;
  created_at: string;
  status: string;
  created_ids: string;
}

interface Mapped {
  temp_id: number;
  kind: RecordKind;
  real_id: number;
}

/** What the local copy knew about its writes just before the restore replaced it. */
interface Before {
  copyId: string | null;
  /** Entries not sent yet, or sent and refused, by id. */
  unsent: Map<number, OutboxKey>;
  /** Temporary ids whose create reached the service. */
  mapped: Map<number, Mapped>;
}

/**
 * Settles the backup's writes against what this local copy knows happened since the backup was made, then
 * revives the rest (outbox/revive.ts), so that a restore never makes a sync book a write twice:
 * - an entry this copy still holds unsent stays as the backup has it;
 * - an entry whose create this copy saw succeed (its temporary id is mapped) is done: the mapping is
 *   carried over, as the sync would have stored it, and the next pull brings the record;
 * - any other (sent since, or discarded, or the backup is of another local copy) may have reached the
 *   service: it becomes unknown, and the next sync looks for it there before it sends anything.
 * Returns how many entries became unknown.
 */
function settleOutbox(parts: CoreParts, before: Before, backupCopyId: string | null, backedUpAt: string | null): number {
  const sameCopy = before.copyId !== null && before.copyId === backupCopyId;
  const settle = (e: AnyEntry): boolean => {
    if (!sameCopy) return false;
    const current = before.unsent.get(e.id);
    if (current && current.kind === e.kind && current.created_at === e.createdAt) return true;
    const done = e.createdIds.map((id) => before.mapped.get(id)).filter((m) => m !== undefined);
    if (done.length === 0) return false;
    for (const m of done) {
      parts.outbox.replaceTempId(m.kind, m.temp_id, m.real_id);
      parts.outbox.markOwn(m.kind, m.real_id);
    }
    parts.outbox.remove(e.id);
    return true;
  };
  const cause = `Restored from a backup${backedUpAt ? ` made ${backedUpAt.replace('T', ' ')}` : ''}`;
  return reviveOutbox(parts.store, parts.outbox, { cause, settle });
}

/** Replaces every table's rows of the local copy with the attached copy's, in the caller's transaction. */
function replaceRows(parts: CoreParts, backedUpAt: string | null): number {
  const { store } = parts;
  const db = store.db;
  // Rows go in table by table; references are checked when the whole copy is in.
  db.pragma('defer_foreign_keys = ON');
  const before: Before = {
    copyId: store.settings.get('copyId'),
    unsent: new Map(
      (db.prepare("SELECT id, kind, created_at, status, created_ids FROM main.outbox WHERE status <> 'unknown'").all() as OutboxKey[]).map(
        (e) => [e.id, e],
      ),
    ),
    mapped: new Map((db.prepare('SELECT temp_id, kind, real_id FROM main.id_map').all() as Mapped[]).map((m) => [m.temp_id, m])),
  };
  const sequences = db.prepare('SELECT name, seq FROM main.sqlite_sequence').all() as { name: string; seq: number }[];
  const nextTempId = store.settings.get('nextTempId');
  const backupCopyId = db.prepare('SELECT value FROM restored.settings WHERE key = ?').pluck().get(COPY_ID_KEY) as string | undefined;

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

  // Outbox ids and temporary ids are never handed out twice in this local copy, restore or not.
  db.prepare('DELETE FROM main.sqlite_sequence').run();
  db.prepare('INSERT INTO main.sqlite_sequence (name, seq) SELECT name, seq FROM restored.sqlite_sequence').run();
  for (const s of sequences) {
    const raised = db.prepare('UPDATE main.sqlite_sequence SET seq = max(seq, ?) WHERE name = ?').run(s.seq, s.name);
    if (raised.changes === 0) db.prepare('INSERT INTO main.sqlite_sequence (name, seq) VALUES (?, ?)').run(s.name, s.seq);
  }
  // Temporary ids count down: the lower of the two is the one never handed out by either.
  if (nextTempId < store.settings.get('nextTempId')) store.settings.set('nextTempId', nextTempId);

  store.recomputeAmountUnits();
  return settleOutbox(parts, before, backupCopyId === undefined ? null : (JSON.parse(backupCopyId) as string), backedUpAt);
}

export async function restoreBackup(parts: CoreParts, data: Uint8Array): Promise<RestoreResult> {
  parts.assertIdle();
  const { store } = parts;
  // Before the backup's bytes are written beside a copy whose folder may not take them.
  store.assertWritable();
  const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  if (!isSqliteImage(bytes)) throw new AppError('backupNotSqlite', {}, 'data');
  const file = tempFileBeside(store.file, 'restore');
  let result: RestoreResult;
  try {
    writeImage(file, bytes);
    const { version, backedUpAt } = inspect(file, store);
    if (version < newestSchema(store.options)) upgrade(file, store);
    // The local copy as it was, kept beside it: a restore of the wrong backup can be undone.
    store.keepSafetyCopy('before-restore');
    store.db.prepare('ATTACH DATABASE ? AS restored').run(file);
    try {
      const uncertainWrites = store.transaction(() => {
        // Again inside the write transaction: a sync another process began since the first check holds
        // the lock row by now, and one that begins later waits for this transaction and sees the restore.
        parts.assertIdle();
        return replaceRows(parts, backedUpAt);
      });
      result = { counts: countRecords(store.db), backedUpAt, uncertainWrites };
    } catch (e) {
      if (e instanceof AppError) throw e;
      // A reference to a missing record, or a value at odds with its own record (a month not the date's).
      if (
        e instanceof Error &&
        ['SQLITE_CONSTRAINT_FOREIGNKEY', 'SQLITE_CONSTRAINT_CHECK'].includes((e as NodeJS.ErrnoException).code ?? '')
      ) {
        throw new AppError('backupInconsistent', {}, 'data');
      }
      throw e;
    } finally {
      store.db.exec('DETACH DATABASE restored');
    }
  } finally {
    removeSqliteFile(file);
  }
  parts.forgetClient();
  await parts.changed();
  return result;
}

export function backupHandlers(parts: CoreParts): Handlers<'createBackup' | 'restoreBackup' | 'listSafetyCopies'> {
  return {
    createBackup: () => createBackup(parts),
    listSafetyCopies: async () => listSafetyCopies(parts.store.file).map(({ at, reason }) => ({ at, reason })),
    restoreBackup: (input) => restoreBackup(parts, input.data),
  };
}
