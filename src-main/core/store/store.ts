/**
 * The local SQLite copy: what the service last said (accounts with balances, transaction history,
 * templates, the category forest, refuelings), the user's cars and settings, and the outbox tables
 * (used through the outbox module). WAL journal, foreign keys on, synchronous FULL: a write the user
 * made, and the mark that a request may have been sent, survive a crash of the app or the machine.
 */
import { accessSync, constants, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { PulledCounts } from '../../../src-shared/app-api';
import { AppError } from '../../../src-shared/app-api/errors';
import { add, formatDecimal, parseDecimal } from '../../../src-shared/money';
import { MARKED_RECORDS } from '../../../src-shared/records';
import { ACCOUNT } from '../../../src-shared/records/account';
import { CAR } from '../../../src-shared/records/car';
import { CATEGORY } from '../../../src-shared/records/category';
import { marksKey, marksTable, type MarkedRecord } from '../../../src-shared/records/fields';
import { REFUELING } from '../../../src-shared/records/refueling';
import { TEMPLATE } from '../../../src-shared/records/template';
import { TRANSACTION } from '../../../src-shared/records/transaction';
import { AMOUNT_UNITS, amountUnits, registerAmountFunctions } from './amount-units';
import {
  APPLICATION_ID,
  asRollbackJournalImage,
  DamagedCopyError,
  inspectLocalFile,
  isDamageError,
  type LocalFileKind,
} from './local-file';
import { migrate, type Migration, MIGRATIONS } from './migrations';
import { createOwnerOnly, tightenDatabase } from './owner-only';
import { bool, changedCondition, columnList, columnsOf, int, paramList, rowParams, rowReader, updateList } from './record-sql';
import type { AccountRow, CarRow, CategoryForest, CategoryRow, FavoriteRow, RefuelingRow, TemplateRow, TransactionRow } from './rows';
import {
  dailyCopyDue,
  keepSafetyCopy,
  keepSafetyCopyInBackground,
  listSafetyCopies,
  type SafetyCopyOptions,
  type SafetyCopyReason,
} from './safety-copies';
import { Settings } from './settings';
import { registerTextFunctions, type TextQuery } from './text-search';

export interface StoreOptions {
  /** Migrations to apply (tests add later versions). */
  migrations?: readonly Migration[];
  /** How long to wait for another connection's write lock, in ms. */
  busyTimeoutMs?: number;
  /** better-sqlite3's native module to load instead of the default (Electron's ABI differs from Node's). */
  nativeBinding?: string;
  /** No automatic safety copy, before a migration, daily or after a sync (a temporary copy being upgraded or recovered, a benchmark's). */
  noSafetyCopies?: boolean;
  /** The clock of the safety copies' dates (tests move it); default the system's. */
  now?: () => Date;
}

export interface PulledData {
  accounts: AccountRow[];
  /** The listed transactions per account (each account's last 50). */
  transactions: Map<number, TransactionRow[]>;
  templates: TemplateRow[];
  categories: CategoryForest;
  /** The listed refuelings per car (each car's last 50). */
  refuelings: Map<number, RefuelingRow[]>;
}

type Row = Record<string, unknown>;

// The statements of each record's table, from its field table (src-shared/records), with the columns the
// store keeps beside a record for its own sake.

/** Accounts: `listed` 0 once the service no longer lists one; `position` its place in the service's list. */
const ACCOUNT_COLUMNS = columnsOf(ACCOUNT, ACCOUNT.stored);
const UPSERT_ACCOUNT = `INSERT INTO accounts (${columnList(ACCOUNT_COLUMNS)}, listed, position)
  VALUES (${paramList(ACCOUNT_COLUMNS)}, 1, @position)
  ON CONFLICT (id) DO UPDATE SET ${updateList(ACCOUNT_COLUMNS.filter((c) => c.param !== 'id'))}, listed = 1,
    position = CASE WHEN @keepPosition THEN accounts.position ELSE excluded.position END`;
const accountOf = rowReader<AccountRow>(ACCOUNT, ACCOUNT.stored);

/**
 * Transactions, by their key; beside each for SQL's sake: exact sums (amount_units), grouping (month) and
 * the detail's "changed" (changed_at). A row changes only when a field does.
 */
const TRANSACTION_COLUMNS = columnsOf(TRANSACTION, TRANSACTION.stored);
const UPSERT_TRANSACTION = `INSERT INTO transactions (key, ${columnList(TRANSACTION_COLUMNS)}, amount_units, month, changed_at)
  VALUES (@key, ${paramList(TRANSACTION_COLUMNS)}, @amountUnits, substr(@paymentDate, 1, 7), @changedAt)
  ON CONFLICT (key) DO UPDATE SET ${updateList(TRANSACTION_COLUMNS)}, month = excluded.month, amount_units = excluded.amount_units, changed_at = excluded.changed_at
  WHERE ${changedCondition('transactions', TRANSACTION_COLUMNS)}`;
const readTransaction = rowReader<Omit<TransactionRow, 'key'>>(TRANSACTION, TRANSACTION.stored);
const transactionOf = (r: Row): TransactionRow => ({ key: r.key as string, ...readTransaction(r) });

/** Templates in the service's order (`position`). */
const TEMPLATE_COLUMNS = columnsOf(TEMPLATE, TEMPLATE.stored);
const INSERT_TEMPLATE = `INSERT INTO templates (${columnList(TEMPLATE_COLUMNS)}, position) VALUES (${paramList(TEMPLATE_COLUMNS)}, @position)`;
const templateOf = rowReader<TemplateRow>(TEMPLATE, TEMPLATE.stored);

const CATEGORY_COLUMNS = columnsOf(CATEGORY, CATEGORY.stored);
const INSERT_CATEGORY = `INSERT INTO categories (${columnList(CATEGORY_COLUMNS)}) VALUES (${paramList(CATEGORY_COLUMNS)})`;
const categoryOf = rowReader<CategoryRow>(CATEGORY, CATEGORY.stored);

/** Cars, named here (`created_at`: when first named). */
const CAR_COLUMNS = columnsOf(CAR, CAR.stored);
const SAVE_CAR = `INSERT INTO cars (${columnList(CAR_COLUMNS)}, created_at) VALUES (${paramList(CAR_COLUMNS)}, @createdAt)
  ON CONFLICT (car_id) DO UPDATE SET ${updateList(CAR_COLUMNS.filter((c) => c.param !== 'carId'))}`;
const carOf = rowReader<CarRow>(CAR, CAR.stored);

/** Refuelings the service listed: a row changes only when a field does. */
const REFUELING_COLUMNS = columnsOf(REFUELING, REFUELING.stored);
const REFUELING_KEPT = REFUELING_COLUMNS.filter((c) => c.param !== 'id');
const UPSERT_REFUELING = `INSERT INTO refuelings (${columnList(REFUELING_COLUMNS)})
  VALUES (${paramList(REFUELING_COLUMNS)})
  ON CONFLICT (id) DO UPDATE SET ${updateList(REFUELING_KEPT)}
  WHERE ${changedCondition('refuelings', REFUELING_KEPT)}`;
const refuelingOf = rowReader<RefuelingRow>(REFUELING, REFUELING.stored);

/** The entries whose value is set (a column added later holds NULL in rows written before). */
function withoutNulls<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

/** Whether `after` has a field (other than those ignored) whose value differs in `before`. */
function differs<T extends object>(before: T, after: T, ignore: readonly (keyof T)[]): boolean {
  return (Object.keys(after) as (keyof T)[]).some((k) => !ignore.includes(k) && before[k] !== after[k]);
}

/** Records new or changed from `before` to `after` (by id), and those no longer there. */
function changedRecords<T extends { id: number }>(before: readonly T[], after: readonly T[], ignore: readonly (keyof T)[]): number {
  const old = new Map(before.map((r) => [r.id, r]));
  let n = 0;
  for (const r of after) {
    const was = old.get(r.id);
    if (!was || differs(was, r, ignore)) n++;
    old.delete(r.id);
  }
  return n + old.size;
}

/** An account's transactions, those a text matches. */
const accountWhere = (text: TextQuery | null | undefined): string =>
  text ? `account_id = @accountId AND ${text.sql}` : 'account_id = @accountId';

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
  /** The safety copies being written in the background: closing the core waits for them. */
  private readonly copying = new Set<Promise<unknown>>();

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
    const copy = keepSafetyCopyInBackground(this.file, reason, this.safetyCopyOptions());
    const tracked: Promise<unknown> = copy.then(
      () => this.copying.delete(tracked),
      () => this.copying.delete(tracked),
    );
    this.copying.add(tracked);
    return copy;
  }

  /** Resolves once no safety copy is being written in the background. */
  async copiesWritten(): Promise<void> {
    while (this.copying.size > 0) await Promise.all(this.copying);
  }

  /** Refuses a change of a read-only copy before anything is written (a restore's temporary file, an import). */
  assertWritable(): void {
    if (this.readOnly) throw new AppError('localCopyReadOnly', { file: this.file });
  }

  get schemaVersion(): number {
    return this.db.pragma('user_version', { simple: true }) as number;
  }

  private readonly statements = new Map<string, Database.Statement>();

  /** A prepared statement, prepared once per SQL text and connection. */
  sql(text: string): Database.Statement {
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

  /** The settings this copy keeps, typed from their table (settings.ts). */
  readonly settings = new Settings(this);

  // ---- accounts -------------------------------------------------------------------------------

  /** Accounts the service lists, by Ord and then the service's order. */
  accounts(): AccountRow[] {
    return (this.sql('SELECT * FROM accounts WHERE listed = 1 ORDER BY ord, position, id').all() as Row[]).map(accountOf);
  }

  account(id: number): AccountRow | null {
    const r = this.sql('SELECT * FROM accounts WHERE id = ? AND listed = 1').get(id) as Row | undefined;
    return r ? accountOf(r) : null;
  }

  /** Writes an account the service returned (after a pull, AddAccount or EditAccount). */
  upsertAccount(a: AccountRow, position?: number): void {
    const pos = position ?? (this.sql('SELECT COALESCE(MAX(position), -1) + 1 AS p FROM accounts').get() as { p: number }).p;
    this.sql(UPSERT_ACCOUNT).run({ ...rowParams(ACCOUNT, ACCOUNT.stored, a), position: pos, keepPosition: int(position === undefined) });
  }

  /** Whether the copy holds an account (listed or not, so with stored transactions or not) other than these. */
  hasAccountsBeyond(ids: readonly number[]): boolean {
    return (
      this.sql('SELECT EXISTS (SELECT 1 FROM accounts WHERE id NOT IN (SELECT value FROM json_each(?)))')
        .pluck()
        .get(JSON.stringify(ids)) === 1
    );
  }

  /** Adds an exact decimal to the balance the service last reported (a transfer it confirmed). */
  addToBalance(accountId: number, delta: string): void {
    const row = this.sql('SELECT balance FROM accounts WHERE id = ?').get(accountId) as { balance: string } | undefined;
    if (!row) return;
    const next = add(parseDecimal(row.balance)!, parseDecimal(delta)!);
    this.sql('UPDATE accounts SET balance = ? WHERE id = ?').run(formatDecimal(next), accountId);
  }

  /** Sets balances from a fresh account list, leaving everything else as it is. */
  setBalances(accounts: readonly AccountRow[]): void {
    const stmt = this.sql('UPDATE accounts SET balance = ? WHERE id = ?');
    for (const a of accounts) stmt.run(a.balance, a.id);
  }

  // ---- transactions ---------------------------------------------------------------------------

  /**
   * Writes transactions the service listed or returned; returns how many were new or changed. A row that
   * is already stored as it is stays untouched (a pull lists the same last 50 every time): its changed_at
   * keeps the moment it last changed.
   */
  upsertTransactions(rows: readonly TransactionRow[]): number {
    const stmt = this.sql(UPSERT_TRANSACTION);
    const exists = this.sql('SELECT 1 FROM accounts WHERE id = ?').pluck();
    const changedAt = new Date().toISOString();
    let changed = 0;
    for (const r of rows) {
      if (!exists.get(r.accountId)) continue;
      changed += stmt.run({
        key: r.key,
        ...rowParams(TRANSACTION, TRANSACTION.stored, r),
        amountUnits: amountUnits(r.amount),
        changedAt,
      }).changes;
    }
    return changed;
  }

  /**
   * Sets every transaction's integer units from its amount again: after a restore, the copy's derived
   * column is not taken on trust from the file (a wrong one would make sums wrong without a trace).
   */
  recomputeAmountUnits(): void {
    this.sql(`UPDATE transactions SET amount_units = ${AMOUNT_UNITS}(amount) WHERE amount_units IS NOT ${AMOUNT_UNITS}(amount)`).run();
  }

  /** An account's stored transactions (those the text matches: store/text-search.ts). */
  countTransactions(accountId: number, text?: TextQuery | null): number {
    return this.countTransactionsWhere('', accountWhere(text), { accountId, ...text?.params });
  }

  /** An account's transactions newest first (by date, then id), a page at a time (those the text matches). */
  transactions(accountId: number, offset: number, limit: number, text?: TextQuery | null): TransactionRow[] {
    return this.transactionsWhere(
      '',
      accountWhere(text),
      'payment_date DESC, id DESC, key DESC',
      limit,
      { accountId, ...text?.params },
      offset,
    );
  }

  /** Every stored transaction of an account (for comparisons and checks). */
  allTransactions(accountId: number): TransactionRow[] {
    return this.transactions(accountId, 0, -1);
  }

  /**
   * Stored transactions matching a condition built by the register or the search (fixed SQL, every value a
   * named parameter), in the given order, through the given index (an INDEXED BY clause, or ''); limit -1: all.
   */
  transactionsWhere(
    indexedBy: string,
    where: string,
    orderBy: string,
    limit: number,
    params: Record<string, unknown>,
    offset = 0,
  ): TransactionRow[] {
    const rows = this.sql(`SELECT * FROM transactions ${indexedBy} WHERE ${where} ORDER BY ${orderBy} LIMIT @limit OFFSET @offset`).all({
      ...params,
      limit,
      offset,
    }) as Row[];
    return rows.map(transactionOf);
  }

  countTransactionsWhere(indexedBy: string, where: string, params: Record<string, unknown>): number {
    return this.sql(`SELECT COUNT(*) FROM transactions ${indexedBy} WHERE ${where}`).pluck().get(params) as number;
  }

  /** A stored transaction by its key, with when this copy last saw it change. */
  transactionByKey(key: string): (TransactionRow & { changedAt: string | null }) | null {
    const r = this.sql('SELECT * FROM transactions WHERE key = ?').get(key) as Row | undefined;
    return r ? { ...transactionOf(r), changedAt: (r.changed_at as string | null) ?? null } : null;
  }

  /**
   * The other side of a stored transfer: the transaction on another account at the same moment, of the
   * same type, description and category, with the opposite amount; the nearest by id when several are.
   */
  transferCounterpart(t: TransactionRow, opposite: string): { key: string; id: number | null; accountId: number } | null {
    const r = this.sql(
      `SELECT key, id, account_id FROM transactions WHERE payment_date = @date AND type = @type AND amount = @amount
         AND description = @description AND category_id = @category AND account_id <> @account AND key <> @key
       ORDER BY abs(IFNULL(id, 0) - IFNULL(@id, 0)), key LIMIT 1`,
    ).get({
      date: t.paymentDate,
      type: t.type,
      amount: opposite,
      description: t.description,
      category: t.categoryId,
      account: t.accountId,
      key: t.key,
      id: t.id,
    }) as { key: string; id: number | null; account_id: number } | undefined;
    return r ? { key: r.key, id: r.id, accountId: r.account_id } : null;
  }

  /** The name of an account in the copy, also one the service no longer lists. */
  accountName(id: number): string | null {
    return (this.sql('SELECT name FROM accounts WHERE id = ?').pluck().get(id) as string | undefined) ?? null;
  }

  // ---- templates ------------------------------------------------------------------------------

  templates(): TemplateRow[] {
    return (this.sql('SELECT * FROM templates ORDER BY position').all() as Row[]).map(templateOf);
  }

  // ---- categories -----------------------------------------------------------------------------

  categories(): CategoryRow[] {
    return (this.sql(`SELECT ${columnList(CATEGORY_COLUMNS)} FROM categories ORDER BY parent_id, position`).all() as Row[]).map(categoryOf);
  }

  favorites(): FavoriteRow[] {
    return (this.sql('SELECT category_id, name FROM category_favorites ORDER BY rank').all() as Row[]).map((r) => ({
      id: r.category_id as number,
      name: r.name as string,
    }));
  }

  /** Replaces the category forest with the one the service returned (CategoryTree, AddCategory, EditCategory). */
  replaceCategories(forest: CategoryForest): void {
    this.sql('DELETE FROM categories').run();
    this.sql('DELETE FROM category_favorites').run();
    const cat = this.sql(INSERT_CATEGORY);
    for (const c of forest.all) cat.run(rowParams(CATEGORY, CATEGORY.stored, c));
    const fav = this.sql('INSERT INTO category_favorites (rank, category_id, name) VALUES (?, ?, ?)');
    forest.favorites.forEach((f, rank) => fav.run(rank, f.id, f.name));
  }

  // ---- cars and refuelings --------------------------------------------------------------------

  cars(): CarRow[] {
    return (this.sql(`SELECT ${columnList(CAR_COLUMNS)} FROM cars ORDER BY name COLLATE NOCASE, car_id`).all() as Row[]).map(carOf);
  }

  /** Names a car (`now`: when, if it is new), or renames it. */
  saveCar(car: CarRow, now: string): void {
    this.sql(SAVE_CAR).run({ ...rowParams(CAR, CAR.stored, car), createdAt: now });
  }

  /**
   * Takes a car's name off the list. Its refuelings stay, as all history does: the number stays among
   * those seen, and naming it again brings its history back at once (they are no longer pulled meanwhile).
   */
  removeCar(carId: number): boolean {
    return this.sql('DELETE FROM cars WHERE car_id = ?').run(carId).changes > 0;
  }

  /** Car numbers with stored refuelings: how many, and the newest one's date and odometer. */
  refuelingCarSummaries(): { carId: number; refuelings: number; lastDate: string | null; lastTachometer: number | null }[] {
    return (
      this.sql(
        `SELECT car_id, COUNT(*) AS n, MAX(date_of_purchase) AS last,
           (SELECT tachometer FROM refuelings r2 WHERE r2.car_id = r.car_id ORDER BY date_of_purchase DESC, id DESC LIMIT 1) AS tachometer
         FROM refuelings r GROUP BY car_id ORDER BY car_id`,
      ).all() as { car_id: number; n: number; last: string | null; tachometer: number | null }[]
    ).map((r) => ({ carId: r.car_id, refuelings: r.n, lastDate: r.last, lastTachometer: r.tachometer }));
  }

  refuelings(carId: number): RefuelingRow[] {
    return (this.sql('SELECT * FROM refuelings WHERE car_id = ? ORDER BY date_of_purchase DESC, id DESC').all(carId) as Row[]).map(
      refuelingOf,
    );
  }

  refueling(id: number): RefuelingRow | null {
    const r = this.sql('SELECT * FROM refuelings WHERE id = ?').get(id) as Row | undefined;
    return r ? refuelingOf(r) : null;
  }

  /** Writes refuelings the service listed; returns how many were new or changed. */
  upsertRefuelings(rows: readonly RefuelingRow[]): number {
    const stmt = this.sql(UPSERT_REFUELING);
    let changed = 0;
    for (const r of rows) changed += stmt.run(rowParams(REFUELING, REFUELING.stored, r)).changes;
    return changed;
  }

  // ---- marks: the fields of records kept here only ------------------------------------------------

  /** The marks this app keeps of a record's records (the local fields of its table), by the records' ids. */
  locals<R extends MarkedRecord>(record: R): Map<number, R['localDefaults']> {
    if (record.local.length === 0) return new Map();
    const read = rowReader<Partial<R['localDefaults']>>(record, record.local);
    const key = marksKey(record);
    const rows = this.sql(`SELECT * FROM ${marksTable(record)}`).all() as Row[];
    return new Map(rows.map((r) => [r[key] as number, { ...record.localDefaults, ...withoutNulls(read(r)) }]));
  }

  /** Sets marks of a record (a temporary id until its create succeeds); the others keep their values. */
  setLocals<R extends MarkedRecord>(record: R, id: number, values: Partial<R['localDefaults']>): void {
    const given = record.local.filter((k) => (values as Record<string, unknown>)[k] !== undefined);
    if (given.length === 0) return;
    // A new row holds every mark (those not given at their defaults: SQLite checks NOT NULL before it
    // finds the conflict); an existing one changes only the marks given.
    const all = columnsOf(record, record.local);
    const changed = columnsOf(record, given);
    this.sql(
      `INSERT INTO ${marksTable(record)} (${marksKey(record)}, ${columnList(all)}) VALUES (@id, ${paramList(all)})
       ON CONFLICT (${marksKey(record)}) DO UPDATE SET ${updateList(changed)}`,
    ).run({ id, ...rowParams(record, record.local, { ...record.localDefaults, ...values }) });
  }

  // ---- a whole pull ---------------------------------------------------------------------------

  /**
   * Writes everything a pull fetched, in one transaction. History the service no longer lists stays.
   * Returns what was new or changed per kind, records the service no longer lists included: what the
   * pull brought, which a sync reports ("3 transactions received"). An account's balance counts as its
   * change only when none of its listed transactions changed (they say why it moved).
   */
  applyPull(data: PulledData): PulledCounts {
    return this.transaction(() => {
      const accountsBefore = new Map(
        (this.sql('SELECT * FROM accounts').all() as Row[]).map((r) => [r.id as number, { row: accountOf(r), listed: bool(r.listed) }]),
      );
      const templatesBefore = this.templates();
      const categoriesBefore = this.categories();

      const listed = new Set(data.accounts.map((a) => a.id));
      data.accounts.forEach((a, position) => this.upsertAccount(a, position));
      const unlist = this.sql('UPDATE accounts SET listed = 0 WHERE id = ?');
      let accounts = 0;
      for (const id of this.sql('SELECT id FROM accounts WHERE listed = 1').pluck().all() as number[]) {
        if (!listed.has(id)) accounts += unlist.run(id).changes;
      }
      let transactions = 0;
      const moved = new Set<number>();
      for (const [accountId, rows] of data.transactions) {
        const n = this.upsertTransactions(rows);
        transactions += n;
        if (n > 0) moved.add(accountId);
      }
      for (const a of data.accounts) {
        const before = accountsBefore.get(a.id);
        if (!before?.listed || differs(before.row, a, ['balance']) || (before.row.balance !== a.balance && !moved.has(a.id))) accounts++;
      }

      this.sql('DELETE FROM templates').run();
      const tpl = this.sql(INSERT_TEMPLATE);
      data.templates.forEach((t, position) => tpl.run({ ...rowParams(TEMPLATE, TEMPLATE.stored, t), position }));

      this.replaceCategories(data.categories);
      let refuelings = 0;
      for (const rows of data.refuelings.values()) refuelings += this.upsertRefuelings(rows);
      return {
        accounts,
        transactions,
        templates: changedRecords(templatesBefore, data.templates, []),
        // A category's place among its siblings is the service's ordering, not a change of the category.
        categories: changedRecords(categoriesBefore, data.categories.all, ['position']),
        refuelings,
      };
    });
  }

  /** Ids of refuelings marked as partial fills. */
  partialRefuelings(): Set<number> {
    return new Set(this.sql('SELECT refueling_id FROM refueling_marks WHERE partial = 1').pluck().all() as number[]);
  }

  setPartial(refuelingId: number, partial: boolean): void {
    this.setLocals(REFUELING, refuelingId, { partial });
  }

  /** Forgets everything the service said (a new connection to another service or user). */
  clearServerCopy(): void {
    this.transaction(() => {
      const marks = MARKED_RECORDS.map(marksTable);
      for (const table of [
        'transactions',
        'accounts',
        'templates',
        'categories',
        'category_favorites',
        'refuelings',
        ...marks,
        'id_map',
        'own_records',
      ]) {
        this.sql(`DELETE FROM ${table}`).run();
      }
    });
  }

  // ---- what the service held as this copy last saw it (the probe of a write an older copy brings back)

  /** Ids of every account this copy holds, listed or not. */
  accountIds(): number[] {
    return this.sql('SELECT id FROM accounts').pluck().all() as number[];
  }

  /** Ids of an account's stored transactions; null when some have none (a service that lists them without ids). */
  transactionIds(accountId: number): number[] | null {
    const ids = this.sql('SELECT id FROM transactions WHERE account_id = ?').pluck().all(accountId) as (number | null)[];
    return ids.includes(null) ? null : (ids as number[]);
  }

  /** Ids of a car's stored refuelings. */
  refuelingIds(carId: number): number[] {
    return this.sql('SELECT id FROM refuelings WHERE car_id = ?').pluck().all(carId) as number[];
  }

  // ---- the whole history, for search and reports ------------------------------------------------

  /** Car ids that have stored refuelings. */
  refuelingCarIds(): number[] {
    return this.sql('SELECT DISTINCT car_id FROM refuelings ORDER BY car_id').pluck().all() as number[];
  }
}
