/**
 * The files the app makes are its owner's alone: the local copy holds every transaction and the sealed
 * client key, which another local user could try to open offline. Files are made 0600 and folders 0700;
 * a file or folder the app finds wider (made by an older version, or copied in) is tightened when the app
 * opens it.
 *
 * These are POSIX modes (Linux, macOS). On Windows, chmod sets only the read-only flag: there the files
 * sit in the user's profile (%APPDATA%), whose ACLs already keep other users out.
 */
import { chmodSync, closeSync, copyFileSync, mkdirSync, openSync, statSync } from 'node:fs';

export const OWNER_FILE_MODE = 0o600;
export const OWNER_DIR_MODE = 0o700;

/** The mode bits that let the group or others in. */
const OPEN_TO_OTHERS = 0o077;

/**
 * Takes the group's and others' bits off an existing file or folder; a missing one is left missing. A file
 * this process may not change (another user's, a read-only file system) is left as it is: opening it says
 * the rest.
 */
export function tighten(path: string, mode: number): void {
  let current: number;
  try {
    current = statSync(path).mode;
  } catch {
    return;
  }
  if ((current & OPEN_TO_OTHERS) === 0) return;
  try {
    chmodSync(path, mode);
  } catch {
    // EPERM / EROFS: not ours to change.
  }
}

/** A folder another user owns: the app keeps nothing in it (they could read, replace or redirect what it writes). */
export class NotOwnFolder extends Error {
  override name = 'NotOwnFolder';
}

/**
 * A folder the app makes or keeps its files in (the user-data folder, the log folder, the safety copies'):
 * made 0700, tightened when wider, and refused when another user owns it (planted beside a copy in a shared
 * folder, say).
 */
export function ownerOnlyDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: OWNER_DIR_MODE });
  const uid = process.getuid?.();
  if (uid !== undefined && statSync(dir).uid !== uid) {
    throw new NotOwnFolder(`${dir} belongs to another user; the app keeps no file in it.`);
  }
  tighten(dir, OWNER_DIR_MODE);
}

/** Makes an empty owner-only file where none is (SQLite then gives its -wal and -shm the same mode); true when it did. */
export function createOwnerOnly(file: string): boolean {
  try {
    closeSync(openSync(file, 'wx', OWNER_FILE_MODE));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw e;
  }
}

/** A new owner-only file of this process's own making: one already there (another's, or a link planted in its place) is refused. */
export function createOwnFile(file: string): void {
  closeSync(openSync(file, 'wx', OWNER_FILE_MODE));
}

/** Tightens a SQLite file and the -wal and -shm beside it. */
export function tightenDatabase(file: string): void {
  for (const suffix of ['', '-wal', '-shm']) tighten(file + suffix, OWNER_FILE_MODE);
}

/** Copies a file to a new owner-only one (refused when something is already at `to`). */
export function copyOwnerOnly(from: string, to: string): void {
  createOwnFile(to);
  copyFileSync(from, to);
  chmodSync(to, OWNER_FILE_MODE);
}
