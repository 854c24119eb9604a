/**
 * The local SQLite copy: what the service last said (accounts with balances, transaction history,
 * templates, the category forest, refuelings), the user's cars and settings, and the outbox tables.
 * WAL journal, foreign keys on, synchronous FULL: a write the user made, and the mark that a request may
 * have been sent, survive a crash of the app or the machine.
 *
 * Its SQL lives in this folder only: a repository per table or concern (accounts.ts, transactions.ts,
 * outbox.ts, report-queries.ts...) takes and gives values, each reached as a property of the Store, which
 * opens the file, runs transactions and caches prepared statements. The house rule no-sql-outside-store
 * (eslint-rules/) holds every other module to that.
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { AppError } from '../../../src-shared/app-api/errors';
import { Accounts } from './accounts';
import { registerAmountFunctions } from './amount-units';
import { BackupFiles } from './backup-file';
import { Budgets } from './budgets';
import { CarCosts, Reminders } from './car-costs';
import { Cars } from './cars';
import { Categories } from './categories';
import {
  APPLICATION_ID,
  asRollbackJournalImage,
  DamagedCopyError,
  inspectLocalFile,
  isDamageError,
  type LocalFileKind,
} from './local-file';
import { Marks } from './marks';
import { migrate, MIGRATIONS } from './migrations';
import type { StoreOptions } from './options';
import { Outbox } from './outbox';
import { createOwnerOnly, tightenDatabase } from './owner-only';
import type { Prepare } from './record-sql';
import { Refuelings } from './refuelings';
import { RegisterQueries } from './register-queries';
import { ReportQueries } from './report-queries';
import {
  backgroundCopiesWritten,
  dailyCopyDue,
  keepSafetyCopy,
  keepSafetyCopyInBackground,
  listSafetyCopies,
  type SafetyCopyOptions,
  type SafetyCopyReason,
} from './safety-copies';
import { SearchQueries } from './search-queries';
import { ServerCopy } from './server-copy';
import { Settings } from './settings';
import { Templates } from './templates';
import { matchedRows, registerTextFunctions, type TextQuery } from './text-search';
import { Transactions } from './transactions';

export type { StoreOptions } from './options';
export type { PulledData } from './server-copy';

const sqliteOptions = (options: StoreOptions): Database.Options => ({
  timeout: options.busyTimeoutMs ?? 5000,
  ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
});

/** Whether this process may write the copy: the file (when there is one) and its folder (its -wal and -shm live there). */
function writable(file: string, kind: LocalFileKind): boolean {
  const may = (path: string) => {
    try {
      accessSync(path, constants.W_OK);
      return true;
    } catch (e) {
      // A folder that is not there is no read-only one: opening says what it is.
      return (e as NodeJS.ErrnoException).code === 'ENOENT';
    }
  };
  if (!may(dirname(file))) {
    // No copy to read, and none can be made.
    if (kind === 'new') throw new AppError('localCopyReadOnly', { file });
    return false;
  }
  return kind === 'new' ? true : may(file);
}

/**
 * A read-only copy, opened read-only. In a folder that cannot be written SQLite cannot make the shared-memory
 * file a WAL database needs, so the copy is read from an image of the file in memory (no -wal is left beside a
 * cleanly closed copy; one that is there is read by the first way).
 */
export function openReadOnly(file: string, options: StoreOptions): Database.Database {
  try {
    const db = new Database(file, { ...sqliteOptions(options), readonly: true, fileMustExist: true });
    try {
      db.prepare('SELECT count(*) FROM sqlite_master').get();
      return db;
    } catch (e) {
      db.close();
      throw e;
    }
  } catch (e) {
    // No -shm can be made beside it: SQLITE_CANTOPEN (an immutable folder), SQLITE_READONLY_DIRECTORY (one without write permission).
    const code = (e as NodeJS.ErrnoException).code ?? '';
    if (code !== 'SQLITE_CANTOPEN' && !code.startsWith('SQLITE_READONLY')) throw e;
  }
  const image = readFileSync(file);
  asRollbackJournalImage(image);
  return new Database(image, { ...sqliteOptions(options), readonly: true });
}

/** Whether a copy passes SQLite's quick check, read as a read-only copy is (from an image where its folder cannot be written). */
export function passesQuickCheck(file: string, options: StoreOptions): boolean {
  const db = openReadOnly(file, options);
  try {
    return db.pragma('quick_check', { simple: true }) === 'ok';
  } finally {
    db.close();
  }
}

/** What to do about a local copy SQLite finds damaged: recover its newest safety copy, or restore a backup. */
export function damaged(file: string): DamagedCopyError {
  return new DamagedCopyError(file, listSafetyCopies(file)[0]?.at ?? '');
}

export class Store {
  readonly db: Database.Database;
  /** The file or its folder cannot be written: the copy is read, never changed (no WAL switch, migration or safety copy). */
  readonly readOnly: boolean;
  /** Why the daily safety copy could not be made at opening, if it could not (for the core's log). */
  safetyCopyFailure: unknown = null;
  /**
   * The daily safety copy made at opening, in the background: resolves (never rejects) once it is made, was
   * not needed, or failed (safetyCopyFailure says why).
   */
  readonly dailyCopy: Promise<void> = Promise.resolve();

  /** `options` are kept so that a copy of the file (a backup being checked) can be opened the same way. */
  constructor(
    readonly file: string,
    readonly options: StoreOptions = {},
  ) {
    // Refused before SQLite opens it for writing: another program's file is never touched.
    const kind = inspectLocalFile(file, options);
    this.readOnly = !writable(file, kind);
    if (!this.readOnly) {
      // Its owner's alone: a new copy is made 0600 (SQLite gives its -wal and -shm the same mode), a wider one tightened.
      if (kind === 'new') createOwnerOnly(file);
      tightenDatabase(file);
    }
    this.db = this.readOnly ? openReadOnly(file, options) : new Database(file, sqliteOptions(options));
    try {
      if (!this.readOnly) {
        if (kind !== 'ours') this.db.pragma(`application_id = ${APPLICATION_ID}`);
        this.db.pragma('journal_mode = WAL');
      }
      this.db.pragma('synchronous = FULL');
      this.db.pragma('foreign_keys = ON');
      registerTextFunctions(this.db);
      registerAmountFunctions(this.db);
      // Reading the schema finds a damaged first page now rather than at the first query.
      this.db.prepare('SELECT count(*) FROM sqlite_master').get();
      const migrations = options.migrations ?? MIGRATIONS;
      const found = this.db.pragma('user_version', { simple: true }) as number;
      const newest = migrations.reduce((max, m) => Math.max(max, m.version), 0);
      if (this.readOnly) {
        // An older schema would have to be brought up to date, which is a write.
        if (found < newest) throw new AppError('localCopyReadOnly', { file });
        // A newer schema is refused by migrate, as for any copy.
        if (found > newest) migrate(this.db, migrations);
        return;
      }
      const keep = !options.noSafetyCopies;
      // A copy of the data as it was, before a migration changes it (never for a new, empty file).
      if (found > 0 && found < newest && keep) keepSafetyCopy(this.db, file, `before-schema-${newest}`, this.safetyCopyOptions());
      migrate(this.db, migrations);
      // At most a day between safety copies, whatever else makes them (syncs that changed something). One that
      // cannot be made (a full disk, a folder not ours) never keeps the copy from opening: the core logs it.
      // Made in the background: a decade of transactions takes seconds to copy and check, and the accounts are
      // shown meanwhile.
      if (kind === 'ours' && keep && dailyCopyDue(file, this.safetyCopyOptions())) {
        this.dailyCopy = this.inBackground('daily').then(
          () => undefined,
          (e: unknown) => {
            this.safetyCopyFailure = e;
          },
        );
      }
    } catch (e) {
      this.db.close();
      if (isDamageError(e)) throw damaged(file);
      throw e;
    }
  }

  /** How this copy's safety copies are made: at the store's clock (tests move it), checked with its native module. */
  safetyCopyOptions(): SafetyCopyOptions {
    return { now: this.options.now?.() ?? new Date(), nativeBinding: this.options.nativeBinding };
  }

  /** A safety copy of the data as it is now, before what follows goes on (before a restore). */
  keepSafetyCopy(reason: SafetyCopyReason): string {
    return keepSafetyCopy(this.db, this.file, reason, this.safetyCopyOptions());
  }

  /** A safety copy of the committed data, written and checked off the event loop (after a sync, daily). */
  inBackground(reason: SafetyCopyReason): Promise<string> {
    return keepSafetyCopyInBackground(this.file, reason, this.safetyCopyOptions());
  }

  /** Resolves once this process writes no safety copy of this file in the background (whichever Store began it). */
  copiesWritten(): Promise<void> {
    return backgroundCopiesWritten(this.file);
  }

  /** Refuses a change of a read-only copy before anything is written (a restore's temporary file, an import). */
  assertWritable(): void {
    if (this.readOnly) throw new AppError('localCopyReadOnly', { file: this.file });
  }

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  /** Whether the connection is open (a copy closed by a restore in another shell, or at the app's end, is not). */
  get isOpen(): boolean {
    return this.db.open;
  }

  /** Turns the copy into one file, no -wal beside it (before it is renamed into place, or handed on as a backup). */
  asSingleFile(): void {
    this.db.pragma('journal_mode = DELETE');
  }

  private readonly statements = new Map<string, Database.Statement>();

  /** A prepared statement, prepared once per SQL text and connection: what the repositories are given. */
  private sql(text: string): Database.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /**
   * Counts this connection's write transactions, committed or rolled back, so that caches know when to
   * recompute: a cache extended inside a nested transaction must not outlive the outer one's rollback.
   */
  revision = 0;

  /** Runs `fn` in one write transaction (BEGIN IMMEDIATE): all of it is kept, or none. Nested, a savepoint. */
  transaction<T>(fn: () => T): T {
    try {
      return this.db.transaction(fn).immediate();
    } finally {
      this.revision++;
    }
  }

  /** Changes when another connection (another process) committed to the file. */
  dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  // ---- the repositories: each table's or concern's SQL, taking and giving values ---------------------

  private readonly prepare: Prepare = (text) => this.sql(text);
  private readonly write = <T>(fn: () => T): T => this.transaction(fn);

  /** The settings this copy keeps, typed from their table (settings.ts). */
  readonly settings = new Settings({ sql: this.prepare });
  readonly accounts = new Accounts(this.prepare);
  readonly transactions = new Transactions(this.prepare, this.accounts);
  readonly templates = new Templates(this.prepare);
  readonly categories = new Categories(this.prepare);
  readonly cars = new Cars(this.prepare);
  /** Budgets: kept here only, never sent. */
  readonly budgets = new Budgets(this.prepare);
  /** A car's other costs and its reminders, kept on this computer only. */
  readonly carCosts = new CarCosts(this.prepare);
  readonly reminders = new Reminders(this.prepare);
  readonly marks = new Marks(this.prepare);
  readonly refuelings = new Refuelings(this.prepare, this.marks);
  readonly outbox = new Outbox(this.prepare, this.settings);
  readonly serverCopy = new ServerCopy(this.prepare, this.write, this);
  readonly reports = new ReportQueries(this.prepare);
  readonly register = new RegisterQueries(this.prepare, (ids) => this.accounts.hasOthersThan(ids));
  readonly search = new SearchQueries(this.prepare);
  /** A text search's rows asked of the trigram index once, for the several reads of one answer (text-search.ts). */
  matchedText(text: TextQuery | null): TextQuery | null {
    return matchedRows(this.prepare, text);
  }
  readonly backups = new BackupFiles(this, this.prepare, this.settings, this.transactions);
}
