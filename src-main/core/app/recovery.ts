/**
 * Recovering a local copy that SQLite finds damaged, one way for the command line's `recover` and the
 * windowed shells' recoverLocalCopy:
 * - only a copy that is damaged is replaced: a healthy one, or one that is not a local copy of this app
 *   at all (a folder, another program's file, random bytes), is refused by its code and left as it is;
 * - the newest safety copy that passes SQLite's quick check is prepared beside the data file and its
 *   waiting writes revived (outbox/revive.ts: unknown until the service's state decides them, so that
 *   nothing the damaged copy had sent since is sent twice), all before it takes the data file's place;
 * - the damaged file is kept aside (a hard link), its -wal and -shm moved beside it, and the prepared copy
 *   renamed into place: a recovery cut short at any point leaves either the damaged copy (recover again)
 *   or the recovered one, never a half-written file or a safety copy whose writes are still pending.
 */
import { accessSync, constants, existsSync, linkSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { AppError } from '../../../src-shared/app-api';
import { removeSqliteFile } from '../files/sqlite-file';
import { reviveOutbox } from '../outbox/revive';
import { type DamagedCopyError, inspectLocalFile, isDamageError } from '../store/local-file';
import { copyOwnerOnly } from '../store/owner-only';
import { isSoundCopy, listSafetyCopies, moveAside, safetyCopyDir, type SafetyCopy } from '../store/safety-copies';
import { keptSettingsOf, type SettingRow } from '../store/settings';
import { damaged, passesQuickCheck, Store, type StoreOptions } from '../store/store';

export interface Recovered {
  restored: SafetyCopy;
  /** Where the damaged file is kept. */
  movedAside: string;
  /** Writes of the safety copy that became unknown until the next sync decides them. */
  uncertainWrites: number;
}

/**
 * Whether the local copy cannot be used: it does not open, or fails SQLite's quick check (damage past the
 * pages read at opening). A file that is not this app's local copy throws its LocalFileError; a missing
 * one is not damaged.
 */
export function isDamaged(dataFile: string, options: StoreOptions = {}): boolean {
  if (inspectLocalFile(dataFile, options) === 'new') return false;
  // A read-only look still makes the -wal and -shm a WAL database needs; those it made (empty) go again after.
  const made = ['-wal', '-shm'].filter((suffix) => !existsSync(dataFile + suffix));
  try {
    // As a read-only copy is read (from an image in memory where the folder cannot be written).
    return !passesQuickCheck(dataFile, options);
  } catch (e) {
    if (isDamageError(e)) return true;
    throw e;
  } finally {
    if (made.includes('-wal') && sizeOf(dataFile + '-wal') === 0) for (const suffix of made) rmSync(dataFile + suffix, { force: true });
  }
}

const sizeOf = (file: string): number => {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
};

/** Refuses to recover a copy that is not damaged, by the reason: not a local copy (LocalFileError), or nothing to recover. */
export function assertDamaged(dataFile: string, options: StoreOptions = {}): DamagedCopyError {
  if (!isDamaged(dataFile, options)) throw new AppError('nothingToRecover');
  return damaged(dataFile);
}

/** A recovery writes beside the data file: in a folder that cannot be written it says so before anything is touched. */
function assertFolderWritable(dataFile: string): void {
  try {
    accessSync(dirname(dataFile), constants.W_OK);
  } catch {
    throw new AppError('localCopyReadOnly', { file: dataFile });
  }
}

/** The safety copy made ready at `file`: opened (brought up to this version), its waiting writes revived, closed. */
function prepare(file: string, copy: SafetyCopy, options: StoreOptions): number {
  const store = new Store(file, { ...options, noSafetyCopies: true });
  try {
    const cause = `Recovered from the safety copy of ${copy.at.replace('T', ' ').slice(0, 19)} UTC`;
    const revived = store.transaction(() => reviveOutbox(store, { cause }));
    // One file, no -wal beside it, before it is renamed into place.
    store.asSingleFile();
    return revived;
  } finally {
    store.close();
  }
}

/** Puts the newest sound safety copy in place of a damaged local copy; AppError('noSafetyCopy') when none will do. */
export function recoverFromSafetyCopy(dataFile: string, options: StoreOptions = {}, now = new Date()): Recovered {
  assertDamaged(dataFile, options);
  assertFolderWritable(dataFile);
  const ready = `${dataFile}.recovering`;
  for (const copy of listSafetyCopies(dataFile)) {
    if (!isSoundCopy(copy.file, options.nativeBinding)) continue;
    removeSqliteFile(ready);
    copyOwnerOnly(copy.file, ready);
    let uncertainWrites: number;
    try {
      uncertainWrites = prepare(ready, copy, options);
    } catch {
      // A copy that passed the quick check but will not open as a local copy (a schema it cannot reach): the next.
      removeSqliteFile(ready);
      continue;
    }
    const movedAside = keepAside(dataFile, now);
    renameSync(ready, dataFile);
    return { restored: copy, movedAside, uncertainWrites };
  }
  throw new AppError('noSafetyCopy', { file: dataFile, folder: safetyCopyDir(dataFile) });
}

/** Keeps the damaged file under another name (a hard link, so the data file's name is never empty) and moves its -wal and -shm beside it. */
function keepAside(dataFile: string, now: Date): string {
  const aside = `${dataFile}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  try {
    linkSync(dataFile, aside);
  } catch {
    // A file system without hard links: moved instead (the recovered copy follows at once).
    return moveAside(dataFile, now);
  }
  for (const suffix of ['-wal', '-shm']) {
    try {
      renameSync(dataFile + suffix, aside + suffix);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  return aside;
}

/** Starts a new empty local copy in place of a damaged one, which is moved aside. */
export function startFreshCopy(dataFile: string, options: StoreOptions = {}, now = new Date()): string {
  assertDamaged(dataFile, options);
  assertFolderWritable(dataFile);
  return moveAside(dataFile, now);
}

/**
 * The settings a new copy keeps (the connection, the preferences, the sealed secrets), read from the damaged
 * copy where they still read, else from the newest safety copy that has them; null when none does. The secrets
 * travel sealed as they are: the secret store opens them again as it can (the system's keychain, or the
 * password they were sealed under).
 */
export function keptConnection(dataFile: string, options: StoreOptions = {}): SettingRow[] | null {
  for (const file of [dataFile, ...listSafetyCopies(dataFile).map((c) => c.file)]) {
    try {
      const rows = keptSettingsOf(file, options.nativeBinding);
      if (rows.some((r) => r.key === 'connection' && r.value !== 'null')) return rows;
    } catch {
      // Damaged where the settings are: the next source.
    }
  }
  return null;
}

/** Writes the kept settings into the new copy at `dataFile`, each checked against its schema as it is read later. */
export function carryConnection(dataFile: string, options: StoreOptions, rows: readonly SettingRow[]): void {
  const store = new Store(dataFile, options);
  try {
    store.transaction(() => store.settings.putRows(rows));
  } finally {
    store.close();
  }
}
