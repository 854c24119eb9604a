/**
 * Safety copies of the local copy, kept beside it in `<data file>.backups/` (the same disk, owner-only: the
 * folder 0700, each copy 0600): one after every sync that changed something, one a day otherwise (when the
 * copy is opened and the newest is older), one before every schema migration and every restore. Each is
 * SQLite's VACUUM INTO of the open database (never a file copy of a live WAL database), checked with SQLite's
 * quick check before it counts, and only the newest few of each reason are kept. A local copy that will not
 * open any more (damaged on disk) is recovered from the newest sound one (core/app/recovery.ts).
 */
import { existsSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
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

/** Where a copy is written (a name no listing takes) and the name it gets once checked. */
interface CopyPlan {
  partial: string;
  file: string;
}

/**
 * Names a new copy by its time and readies the file it is written to: written under a name no listing takes,
 * then renamed, so that a copy cut short (the app killed) is never mistaken for a safety copy; made empty and
 * owner-only first, because VACUUM INTO writes into it as it is.
 */
function planCopy(dataFile: string, reason: SafetyCopyReason, now: Date): CopyPlan {
  const dir = safetyCopyDir(dataFile);
  ownerOnlyDir(dir);
  removeAbandonedPartials(dir);
  const nameAt = (t: number) => join(dir, `${new Date(t).toISOString().replace(/:/g, '-').replace('.', '-')}_${reason}.sqlite`);
  // Two copies within one millisecond (restores in a row) get distinct times: the names stay in order.
  let t = now.getTime();
  while (existsSync(nameAt(t)) || inProgress.has(nameAt(t))) t++;
  const file = nameAt(t);
  const partial = join(dir, `.partial-${process.pid}-${t}.sqlite`);
  rmSync(partial, { force: true });
  createOwnFile(partial);
  return { partial, file };
}

/** Gives a checked copy its name and keeps only the newest of its reason (KEEP_SAFETY_COPIES). */
function settleCopy(dataFile: string, reason: SafetyCopyReason, plan: CopyPlan): string {
  renameSync(plan.partial, plan.file);
  for (const old of listSafetyCopies(dataFile)
    .filter((c) => c.reason === reason)
    .slice(keptFor(reason))) {
    rmSync(old.file, { force: true });
  }
  return plan.file;
}

/**
 * The copies this process is writing in the background, by their final name: whichever Store of the data file
 * started one (a command's second, short-lived Store too), closing the core waits for it.
 */
const inProgress = new Map<string, { dataFile: string; done: Promise<string> }>();

/** The background copies of `dataFile` under way in this process. */
const underWay = (dataFile: string) => [...inProgress.values()].filter((c) => c.dataFile === resolve(dataFile)).map((c) => c.done);

/** Resolves once this process writes no safety copy of `dataFile` in the background. */
export async function backgroundCopiesWritten(dataFile: string): Promise<void> {
  for (;;) {
    const pending = underWay(dataFile);
    if (pending.length === 0) return;
    await Promise.allSettled(pending);
  }
}

/** Removes what a copy killed half-way left (its process is gone); another running app's partials stay. */
function removeAbandonedPartials(dir: string): void {
  for (const name of readdirSync(dir)) {
    const pid = /^\.partial-(\d+)-\d+\.sqlite$/.exec(name)?.[1];
    if (pid !== undefined && Number(pid) !== process.pid && !processRuns(Number(pid))) rmSync(join(dir, name), { force: true });
  }
}

function processRuns(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it runs, as another user.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

const unsound = (partial: string) => new SafetyCopyUnsound(`The safety copy written to ${partial} failed SQLite's quick check.`);

/**
 * Writes a consistent copy of the open database (VACUUM INTO: one file, no -wal needed), owner-only, checks
 * it, and keeps only the newest of its reason (KEEP_SAFETY_COPIES). Returns the copy's path. It holds the
 * process for as long as that takes (about a second at 100,000 transactions): for the copies that must exist
 * before what follows (before a migration, before a restore); the others are made in the background.
 */
export function keepSafetyCopy(db: Database.Database, dataFile: string, reason: SafetyCopyReason, options: SafetyCopyOptions = {}): string {
  const plan = planCopy(dataFile, reason, options.now ?? new Date());
  try {
    db.prepare('VACUUM INTO ?').run(plan.partial);
    tighten(plan.partial, OWNER_FILE_MODE);
    if (!isSoundCopy(plan.partial, options.nativeBinding)) throw unsound(plan.partial);
    return settleCopy(dataFile, reason, plan);
  } finally {
    rmSync(plan.partial, { force: true });
  }
}

/**
 * Plain JavaScript run in a worker thread (as the service's checkpointer): VACUUM INTO from a read-only
 * connection of its own, which in WAL mode reads the last committed state while the app's connection goes on
 * writing, then the copy's quick check. The driver's path and native module come in workerData.
 */
const COPY_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const options = { readonly: true, fileMustExist: true, ...(workerData.nativeBinding ? { nativeBinding: workerData.nativeBinding } : {}) };
let db = null;
try {
  db = new Database(workerData.file, options);
  db.pragma('busy_timeout = 5000');
  db.prepare('VACUUM INTO ?').run(workerData.partial);
  db.close();
  db = new Database(workerData.partial, options);
  parentPort.postMessage({ sound: db.pragma('quick_check', { simple: true }) === 'ok' });
} catch (e) {
  parentPort.postMessage({ failed: String((e && e.message) || e) });
} finally {
  if (db && db.open) db.close();
}
`;

/**
 * The same safety copy made off the event loop, from the committed state of the data file: the app goes on
 * answering while it is written and checked (seconds at a million transactions). Resolves to the copy's
 * path; rejects (nothing kept) when it could not be made or failed its check.
 */
export function keepSafetyCopyInBackground(dataFile: string, reason: SafetyCopyReason, options: SafetyCopyOptions = {}): Promise<string> {
  let plan: CopyPlan;
  try {
    plan = planCopy(dataFile, reason, options.now ?? new Date());
  } catch (e) {
    return Promise.reject(e);
  }
  const done = writeInWorker(dataFile, reason, plan, options).finally(() => {
    inProgress.delete(plan.file);
    rmSync(plan.partial, { force: true });
  });
  inProgress.set(plan.file, { dataFile: resolve(dataFile), done });
  return done;
}

/** The copy written and checked by a worker thread, then named and the older ones of its reason dropped. */
async function writeInWorker(dataFile: string, reason: SafetyCopyReason, plan: CopyPlan, options: SafetyCopyOptions): Promise<string> {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(COPY_WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file: dataFile, partial: plan.partial, nativeBinding: options.nativeBinding },
  });
  const answer = await new Promise<{ sound?: boolean; failed?: string }>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The safety copy's worker ended (${code}) before it answered.`)));
  });
  if (answer.failed !== undefined) throw new Error(`The safety copy could not be written: ${answer.failed}`);
  if (!answer.sound) throw unsound(plan.partial);
  tighten(plan.partial, OWNER_FILE_MODE);
  return settleCopy(dataFile, reason, plan);
}

/**
 * Whether a daily safety copy is due: none is being written by this process, and the newest safety copy (of
 * any reason) is a day old or older, or there is none.
 */
export function dailyCopyDue(dataFile: string, options: SafetyCopyOptions = {}): boolean {
  if (underWay(dataFile).length > 0) return false;
  const newest = listSafetyCopies(dataFile)[0];
  return !newest || (options.now ?? new Date()).getTime() - Date.parse(newest.at) >= DAY_MS;
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
