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
import { AppError, type BackupFile, type RestoreResult } from '../../../src-shared/app-api';
import type { CoreParts, Handlers } from '../app/core-parts';
import type { AnyEntry } from '../outbox/entries';
import { reviveOutbox } from '../outbox/revive';
import { inspectBackup, newestSchema, type ReplacedCopy } from '../store/backup-file';
import { asRollbackJournalImage, isSqliteImage } from '../store/local-file';
import { createOwnFile } from '../store/owner-only';
import { listSafetyCopies } from '../store/safety-copies';
import { Store } from '../store/store';
import { outboxPort } from '../write-kinds/outbox-port';
import { removeSqliteFile, tempFileBeside } from './sqlite-file';

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
    const now = parts.now();
    const counts = await store.backups.write(file, now);
    const bytes = readFileSync(file);
    return { fileName: backupFileName(now), data: bytes.toString('base64'), bytes: bytes.length, counts };
  } finally {
    removeSqliteFile(file);
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

/**
 * Settles the backup's writes against what this local copy knew happened since the backup was made, then
 * revives the rest (outbox/revive.ts), so that a restore never makes a sync book a write twice:
 * - an entry this copy still holds unsent stays as the backup has it;
 * - an entry whose create this copy saw succeed (its temporary id is mapped) is done: the mapping is
 *   carried over, as the sync would have stored it, and the next pull brings the record;
 * - any other (sent since, or discarded, or the backup is of another local copy) may have reached the
 *   service: it becomes unknown, and the next sync looks for it there before it sends anything.
 * Returns how many entries became unknown.
 */
function settleOutbox(store: Store, before: ReplacedCopy, backedUpAt: string | null): number {
  const sameCopy = before.copyId !== null && before.copyId === before.backupCopyId;
  const port = outboxPort(store);
  const settle = (e: AnyEntry): boolean => {
    if (!sameCopy) return false;
    const current = before.unsent.get(e.id);
    if (current && current.kind === e.kind && current.createdAt === e.createdAt) return true;
    const done = e.createdIds.map((id) => before.mapped.get(id)).filter((m) => m !== undefined);
    if (done.length === 0) return false;
    for (const m of done) {
      port.replaceTempId(m.kind, m.tempId, m.realId);
      port.markOwn(m.kind, m.realId);
    }
    store.outbox.remove(e.id);
    return true;
  };
  const cause = `Restored from a backup${backedUpAt ? ` made ${backedUpAt.replace('T', ' ')}` : ''}`;
  return reviveOutbox(store, { cause, settle });
}

/** Takes the checked backup's rows in place of the copy's, in one transaction, its writes settled. */
function replaceFrom(parts: CoreParts, file: string, backedUpAt: string | null): RestoreResult {
  const { store } = parts;
  try {
    return store.backups.withAttached(file, () => {
      const uncertainWrites = store.transaction(() => {
        // Again inside the write transaction: a sync another process began since the first check holds
        // the lock row by now, and one that begins later waits for this transaction and sees the restore.
        parts.assertIdle();
        return settleOutbox(store, store.backups.replaceFromAttached(), backedUpAt);
      });
      return { counts: store.backups.counts(), backedUpAt, uncertainWrites };
    });
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
  }
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
    const { version, backedUpAt } = inspectBackup(file, store.options);
    if (version < newestSchema(store.options)) upgrade(file, store);
    // The local copy as it was, kept beside it: a restore of the wrong backup can be undone.
    store.keepSafetyCopy('before-restore');
    result = replaceFrom(parts, file, backedUpAt);
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
