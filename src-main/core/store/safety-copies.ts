/**
 * Safety copies of the local copy, kept beside it in `<data file>.backups/` (the same disk and the same
 * permissions as the data): one is made before every schema migration and every restore, the newest
 * five kept. A local copy that will not open any more (damaged on disk) is recovered from the newest
 * one: the damaged file is moved aside, never deleted.
 */
import { copyFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';

export const KEEP_SAFETY_COPIES = 5;

export interface SafetyCopy {
  file: string;
  /** When it was made, ISO 8601 (UTC). */
  at: string;
  /** Why: 'before-schema-<n>' or 'before-restore'. */
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

/**
 * Writes a consistent copy of the open database (VACUUM INTO: one file, no -wal needed) and keeps only
 * the newest KEEP_SAFETY_COPIES. Returns the copy's path.
 */
export function keepSafetyCopy(db: Database.Database, dataFile: string, reason: string, now = new Date()): string {
  const dir = safetyCopyDir(dataFile);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const nameAt = (t: number) => join(dir, `${new Date(t).toISOString().replace(/:/g, '-').replace('.', '-')}_${reason}.sqlite`);
  // Two copies within one millisecond (restores in a row) get distinct times: the names stay in order.
  let t = now.getTime();
  while (existsSync(nameAt(t))) t++;
  const file = nameAt(t);
  // Written under a name no listing takes, then renamed: a copy cut short (the app killed) is never
  // mistaken for a safety copy.
  const partial = join(dir, `.partial-${process.pid}-${t}.sqlite`);
  rmSync(partial, { force: true });
  db.prepare('VACUUM INTO ?').run(partial);
  renameSync(partial, file);
  for (const old of listSafetyCopies(dataFile).slice(KEEP_SAFETY_COPIES)) rmSync(old.file, { force: true });
  return file;
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

/**
 * Puts the newest safety copy that `sound` accepts (by default: that passes SQLite's quick check) in place of a damaged
 * local copy, which is moved aside. Returns both paths, or null when no safety copy will do.
 */
export function recoverFromSafetyCopy(
  dataFile: string,
  now = new Date(),
  sound: (file: string) => boolean = (file) => isSoundCopy(file),
): { restored: SafetyCopy; movedAside: string } | null {
  const chosen = listSafetyCopies(dataFile).find((copy) => sound(copy.file));
  if (!chosen) return null;
  const aside = moveAside(dataFile, now);
  // Written beside and renamed into place: a recovery cut short leaves no half-copied file as the data.
  const partial = `${dataFile}.recovering`;
  copyFileSync(chosen.file, partial);
  renameSync(partial, dataFile);
  return { restored: chosen, movedAside: aside };
}
