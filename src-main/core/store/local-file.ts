/**
 * Is this file the app's own local copy? Answered before SQLite opens the file for writing, so that a
 * `--data` pointing at another program's database (a browser's history, say), or at something that is
 * no database at all, is refused without a byte written: no tables added, no WAL or journal files left
 * beside it.
 *
 * The app's copies carry `PRAGMA application_id` APPLICATION_ID in their header. Copies made before it
 * was stamped (application id 0) are recognised by their tables, read from an in-memory image of the
 * file, never through a connection to the file itself (which would create -wal and -shm files for a
 * database in WAL mode).
 */
import { closeSync, openSync, readSync, readFileSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import { AppError } from '../../../src-shared/app-api/errors';

/** 'BKKP': the header field SQLite keeps for the program that owns a file. */
export const APPLICATION_ID = 0x424b4b50;

/** Tables only this app's local copy has together (since its first schema). */
const OWN_TABLES = ['settings', 'outbox', 'id_map', 'own_records'];
/** Larger unstamped files are not read into memory to look for the tables: they are refused. */
const MAX_UNSTAMPED_BYTES = 512 * 1024 * 1024;
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1');

export const isSqliteImage = (bytes: Buffer): boolean => bytes.length >= 100 && bytes.subarray(0, 16).equals(SQLITE_MAGIC);

/**
 * Marks an image as a rollback-journal file. A file in WAL mode (the local copy itself, copied off the
 * disk) comes here without its -wal file, so it is complete as it is; read as a WAL file it would need
 * a shared-memory file that a read-only or in-memory connection cannot create. Bytes 18 and 19 are the
 * format's read and write versions: 1 for rollback journal, 2 for WAL.
 */
export function asRollbackJournalImage(bytes: Buffer): void {
  if (bytes[18] === 2 && bytes[19] === 2) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
}

type LocalFileProblem =
  | 'localFileIsFolder'
  | 'localFileUnreadable'
  | 'localFileNotSqlite'
  | 'localFileForeign'
  | 'localFileUnmarked'
  | 'localFileUnopenable'
  | 'localCopyDamaged';
/** The file given is not a local copy this app can open, said by its error code (nothing in it was changed). */
export class LocalFileError<C extends LocalFileProblem = LocalFileProblem> extends AppError<C> {
  override name = 'LocalFileError';
}

/** The app's own local copy, which SQLite finds damaged on disk: recoverable from a safety copy. */
export class DamagedCopyError extends LocalFileError<'localCopyDamaged'> {
  override name = 'DamagedCopyError';
  constructor(
    readonly file: string,
    /** When the newest safety copy was kept; '' when there is none. */
    readonly safetyCopy: string,
  ) {
    super('localCopyDamaged', { file, safetyCopy });
  }
}

/** SQLite found a database damaged on disk (what it says of a page it cannot read). */
export const isDamageError = (e: unknown): boolean =>
  ['SQLITE_CORRUPT', 'SQLITE_NOTADB'].includes((e as NodeJS.ErrnoException | null)?.code ?? '');

export type LocalFileKind =
  /** Nothing there (or an empty file): a new local copy may be made. */
  | 'new'
  /** Stamped as this app's. */
  | 'ours'
  /** This app's, from before the stamp: it gets the stamp when opened. */
  | 'unstamped';

function header(file: string): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.alloc(100);
    const n = readSync(fd, buf, 0, 100, 0);
    return buf.subarray(0, n);
  } finally {
    closeSync(fd);
  }
}

/** What `file` is, or a LocalFileError saying why it is not the app's local copy (nothing written either way). */
export function inspectLocalFile(file: string, options: { nativeBinding?: string } = {}): LocalFileKind {
  let size: number;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) throw new LocalFileError('localFileIsFolder', { file });
    size = stat.size;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 'new';
    if (e instanceof LocalFileError) throw e;
    throw new LocalFileError('localFileUnreadable', { file, code: (e as NodeJS.ErrnoException).code ?? 'error' });
  }
  if (size === 0) return 'new';
  let head: Buffer;
  try {
    head = header(file);
  } catch (e) {
    // Another user's copy (0600): this user may see it but not read it.
    throw new LocalFileError('localFileUnreadable', { file, code: (e as NodeJS.ErrnoException).code ?? 'error' });
  }
  if (!isSqliteImage(head)) {
    throw new LocalFileError('localFileNotSqlite', { file });
  }
  const applicationId = head.readUInt32BE(68);
  if (applicationId === APPLICATION_ID) return 'ours';
  if (applicationId !== 0) {
    throw new LocalFileError('localFileForeign', { file, applicationId: applicationId.toString(16) });
  }
  if (size > MAX_UNSTAMPED_BYTES) {
    throw new LocalFileError('localFileUnmarked', { file });
  }
  let tables: string[];
  try {
    const bytes = readFileSync(file);
    asRollbackJournalImage(bytes);
    const image = new Database(bytes, { readonly: true, ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}) });
    try {
      tables = image.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
    } finally {
      image.close();
    }
  } catch {
    throw new LocalFileError('localFileUnopenable', { file });
  }
  if (!OWN_TABLES.every((t) => tables.includes(t))) {
    throw new LocalFileError('localFileForeign', { file, applicationId: '' });
  }
  return 'unstamped';
}
