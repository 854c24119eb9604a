/**
 * Safety copies of the local copy, kept beside it in `<data file>.backups/` (the same disk, owner-only: the
 * folder 0700, each copy 0600): one after every sync that changed something, one a day otherwise (when the
 * copy is opened and the newest is older), one before every schema migration and every restore. Each is
 * SQLite's VACUUM INTO of the open database (never a file copy of a live WAL database), checked with SQLite's
 * quick check before it counts, and only the newest few of each reason are kept. A local copy that will not
 * open any more (damaged on disk) is recovered from the newest sound one (core/app/recovery.ts).
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { createOwnFile, ownerOnlyDir, tighten, OWNER_FILE_MODE } from './owner-only';

/** Why a safety copy was made; 'before-schema-<n>' names the schema the migration went to. */
export type SafetyCopyReason = 'after-sync' | 'daily' | 'before-restore' | `before-schema-${number}`;

/** How many of each reason are kept (a migration's under one name whatever its number). */
export const KEEP_SAFETY_COPIES = { 'after-sync': 3, daily: 3, 'before-restore': 3, 'before-schema': 2 } as const;
const keptFor = (reason: string): number =>
  reason.startsWith('before-schema-')
    ? KEEP_SAFETY_COPIES['before-schema']
    : (KEEP_SAFETY_COPIES[reason as keyof typeof KEEP_SAFETY_COPIES] ?? 2);

const DAY_MS = 24 * 3_600_000;

export interface SafetyCopy {
  file: string;
  /** When it was made, ISO 8601 (UTC). */
  at: string;
  /** Why: 'after-sync', 'daily', 'before-restore' or 'before-schema-<n>'. */
  reason: string;
}

export function safetyCopyDir(dataFile: string): string {
  return join(dirname(dataFile), `${basename(dataFile)}.backups`);
}

/** File names sort by time: 2026-11-25T03-52-10-123Z_before-restore.sqlite */
const NAME = /^(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-\d{3}Z)_([a-z0-9-]+)\.sqlite$/;

/** The safety copies of a data file, newest first. */
export function listSafetyCopies(dataFile: string): SafetyCopy[] {
  let names: string[];
  try {
    names = readdirSync(safetyCopyDir(dataFile));
  } catch {
    return [];
  }
  return names
    .map((name) => ({ name, m: NAME.exec(name) }))
    .filter((x): x is { name: string; m: RegExpExecArray } => x.m !== null)
    .map(({ name, m }) => ({
      file: join(safetyCopyDir(dataFile), name),
      at: m[1]!.replace(/T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z/, 'T$1:$2:$3.$4Z'),
      reason: m[2]!,
    }))
    .sort((a, b) => (a.at < b.at ? 1 : -1));
}

export interface SafetyCopyOptions {
  /** When it is made (its name); default now. */
  now?: Date;
  /** better-sqlite3's native module for the check (Electron's ABI differs from Node's). */
  nativeBinding?: string | undefined;
}

/** A safety copy that fails SQLite's quick check just after it was written (the disk, or the database, is failing). */
export class SafetyCopyUnsound extends Error {
  override name = 'SafetyCopyUnsound';
}

/**
 * Writes a consistent copy of the open database (VACUUM INTO: one file, no -wal needed), owner-only, checks
 * it, and keeps only the newest of its reason (KEEP_SAFETY_COPIES). Returns the copy's path.
 */
export function keepSafetyCopy(db: Database.Database, dataFile: string, reason: SafetyCopyReason, options: SafetyCopyOptions = {}): string {
  const now = options.now ?? new Date();
  const dir = safetyCopyDir(dataFile);
  ownerOnlyDir(dir);
  const nameAt = (t: number) => join(dir, `${new Date(t).toISOString().replace(/:/g, '-').replace('.', '-')}_${reason}.sqlite`);
  // Two copies within one millisecond (restores in a row) get distinct times: the names stay in order.
  let t = now.getTime();
  while (existsSync(nameAt(t))) t++;
  const file = nameAt(t);
  // Written under a name no listing takes, then renamed: a copy cut short (the app killed) is never
  // mistaken for a safety copy. Made empty and owner-only first: VACUUM INTO writes into it as it is.
  const partial = join(dir, `.partial-${process.pid}-${t}.sqlite`);
  rmSync(partial, { force: true });
  createOwnFile(partial);
  try {
    db.prepare('VACUUM INTO ?').run(partial);
    tighten(partial, OWNER_FILE_MODE);
    if (!isSoundCopy(partial, options.nativeBinding)) {
      throw new SafetyCopyUnsound(`The safety copy written to ${partial} failed SQLite's quick check.`);
    }
    renameSync(partial, file);
  } finally {
    rmSync(partial, { force: true });
  }
  for (const old of listSafetyCopies(dataFile)
    .filter((c) => c.reason === reason)
    .slice(keptFor(reason))) {
    rmSync(old.file, { force: true });
  }
  return file;
}

/** A daily safety copy, unless the newest safety copy (of any reason) is less than a day old; the path, or null. */
export function keepDailySafetyCopy(db: Database.Database, dataFile: string, options: SafetyCopyOptions = {}): string | null {
  const newest = listSafetyCopies(dataFile)[0];
  if (newest && (options.now ?? new Date()).getTime() - Date.parse(newest.at) < DAY_MS) return null;
  return keepSafetyCopy(db, dataFile, 'daily', options);
}

/**
 * Moves a damaged local copy (and its -wal and -shm) aside as `<data file>.damaged-<time>`, never
 * deleting it: what it still holds may be rescued by hand. Returns the new name.
 */
export function moveAside(dataFile: string, now = new Date()): string {
  const aside = `${dataFile}.damaged-${now.toISOString().replace(/[:.]/g, '-')}`;
  for (const suffix of ['', '-wal', '-shm']) {
    try {
      statSync(dataFile + suffix);
      renameSync(dataFile + suffix, aside + suffix);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
    }
  }
  return aside;
}

/** Whether a safety copy opens and passes SQLite's quick check (a copy damaged in turn is passed over). */
export function isSoundCopy(file: string, nativeBinding?: string): boolean {
  let db: Database.Database | null = null;
  try {
    db = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
    return db.pragma('quick_check', { simple: true }) === 'ok';
  } catch {
    return false;
  } finally {
    db?.close();
  }
}
