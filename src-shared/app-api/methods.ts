/**
 * The app API: every read and write the screens need, described once. The preload bridge, the IPC
 * handlers, the browser shell's HTTP routes and the renderer's adapter are all generated from this
 * table; each method's input is validated with its schema before it reaches the core.
 */
import type { InferInput } from 'valibot';
import { FINGERPRINT_INPUT_PATTERN } from '../certificate';
import { CSV_DIALECT_NAMES } from '../csv-dialect';
import { BUDGET, month } from '../records/budget';
import { CAR } from '../records/car';
import { CAR_COST } from '../records/car-cost';
import type { CarCostStored } from '../records/car-cost';
import { createEntries, inputEntries } from '../records/fields';
import { REFUELING } from '../records/refueling';
import { REMINDER } from '../records/reminder';
import { currency } from '../records/rules';
import { v, type Infer } from '../validate';
import type { BudgetCopy, BudgetView } from './budget-views';
import type { CarCheck, CarFetch, CarIdSeen, CarReminders, CarWholeCost, ReminderView } from './car-views';
import type { BackupFile, CsvFile, ImportField, ImportPreview, ImportResult, RestoreResult } from './data-views';
import type { CategoryReport, FuelStats, SearchResult } from './insight-views';
import type { RegisterPage, TransactionDetail } from './register-views';
import type {
  AccountsView,
  AppStatus,
  CarView,
  CategoryTreeView,
  ConnectionReport,
  OutboxEntryDetail,
  OutboxEntryView,
  Preferences,
  ReachabilityCheck,
  RefuelingView,
  SafetyCopyInfo,
  SyncSummary,
  TemplateView,
  TransactionPage,
  TransferCheck,
  WriteResult,
} from './views';
import { OUTBOX_KINDS, WRITES, type OutboxKind } from './write-kinds';

const password = () => v.text({ min: 1, max: 500 });
/** A certificate's SHA-256 fingerprint in any usual spelling (the core keeps the canonical one). */
const fingerprint = v.text({ max: 200, pattern: FINGERPRINT_INPUT_PATTERN, patternCode: 'notFingerprint' });

/** A method per kind of write (write-kinds.ts: its input from its record's field table): applied locally at once and queued in the outbox. */
const writeMethods = Object.fromEntries(OUTBOX_KINDS.map((k) => [k, { input: WRITES[k].input, output: {} as WriteResult }])) as {
  readonly [K in OutboxKind]: { readonly input: (typeof WRITES)[K]['input']; readonly output: WriteResult };
};

/** Largest call an edge accepts, unless a method names its own limit. */
export const DEFAULT_MAX_INPUT_BYTES = 1024 * 1024;
/** A CSV of refuelings: thousands of rows fit in a few megabytes (and JSON may double its escapes). */
const IMPORT_BYTES = 8 * 1024 * 1024;
/** A backup: a local copy of 150 MiB, far beyond a million transactions. */
const BACKUP_BYTES = 150 * 1024 * 1024;

const period = { from: v.optional(v.date()), to: v.optional(v.date()) };

/** Filters of a search across the whole local history; the export of transactions takes the same. */
const searchFilters = {
  text: v.optional(v.text({ max: 200, trim: true })),
  /** Bounds on the amount's size, whichever its sign. */
  minAmount: v.optional(v.decimal({ nonNegative: true })),
  maxAmount: v.optional(v.decimal({ nonNegative: true })),
  direction: v.optional(v.oneOf('in', 'out')),
  ...period,
  accountId: v.optional(v.id()),
  /** Only these accounts (a report's drill-down: the accounts the report covered). */
  accountIds: v.optional(v.list(v.id(), { max: 1000 })),
  /** Leaves transfers out, as a report does unless asked not to. */
  excludeTransfers: v.optional(v.flag()),
  /** A category with all its descendants; 0 for transactions without a category. */
  categoryId: v.optional(v.whole({ min: Number.MIN_SAFE_INTEGER })),
};

/** What a report covers; its CSV export takes the same. */
const reportInput = {
  from: v.date(),
  to: v.date(),
  /** The report's currency; default: that of most accounts. */
  currency: v.optional(currency()),
  /** Accounts of that currency to include; default: all of them. */
  accountIds: v.optional(v.list(v.id(), { max: 1000 })),
  includeTransfers: v.optional(v.flag()),
};

/** The CSV dialect of an export (src-shared/csv-dialect.ts; the writer's `dialectOf`): spread it into any export's input. Default: plain RFC 4180, for programs. */
export const csvDialect = { dialect: v.optional(v.oneOf(...CSV_DIALECT_NAMES)) };

const column = () => v.optional(v.whole({ min: 0, max: 200 }));
const importInput = v.object({
  carId: v.whole({ min: 1 }),
  /** The CSV text (UTF-8, a header row). */
  content: v.text({ min: 1, max: IMPORT_BYTES / 2 }),
  mapping: v.optional(
    v.object(Object.fromEntries(REFUELING.imported.map((f) => [f, column()])) as Record<ImportField, ReturnType<typeof column>>),
  ),
  /** Currency of rows without a currency column. */
  currency: currency(),
});

const labels = v.map(v.text({ min: 1, max: 16, pattern: /^\d+$/, patternCode: 'notNumericCode' }), v.text({ max: 60 }), {
  max: 100,
});

export const APP_METHODS = {
  // --- status, connection, preferences
  getStatus: { input: v.none(), output: {} as AppStatus },
  /**
   * Reads the service's WSDL, then checks the credentials with one authenticated read: those given, each
   * one missing taken from the stored connection when the address and login are its own.
   */
  testConnection: {
    input: v.object({
      baseUrl: v.text({ min: 1, max: 2000, trim: true }),
      namespace: v.optional(v.text({ max: 500, trim: true })),
      trustedCertificate: v.optional(v.nullable(fingerprint)),
      clientKey: v.optional(v.text({ max: 200 })),
      login: v.optional(v.text({ max: 200 })),
      password: v.optional(v.text({ max: 500 })),
      binding: v.optional(v.oneOf('soap12', 'soap11', 'httpGet', 'httpPost')),
    }),
    output: {} as ConnectionReport,
  },
  connect: {
    input: v.object({
      baseUrl: v.text({ min: 1, max: 2000, trim: true }),
      namespace: v.optional(v.text({ max: 500, trim: true })),
      clientKey: v.text({ min: 1, max: 200 }),
      login: v.text({ min: 1, max: 200 }),
      password: password(),
      binding: v.optional(v.oneOf('soap12', 'soap11', 'httpGet', 'httpPost')),
      /** The fingerprint of a certificate to accept although no authority vouches for it; null trusts authorities only. */
      trustedCertificate: v.optional(v.nullable(fingerprint)),
      /** false: the password is kept nowhere and asked at each sync (default true: kept as the secrets are). */
      rememberPassword: v.optional(v.flag()),
    }),
    output: {} as AppStatus,
  },
  workOffline: { input: v.none(), output: {} as AppStatus },
  /**
   * Whether the stored service answers at all (one GET of its WSDL, no credentials, never a sync), at most
   * once a minute: for the badge, when the window gains focus, the system goes on or off line, or it says unreachable.
   */
  checkReachability: { input: v.none(), output: {} as ReachabilityCheck },
  getPreferences: { input: v.none(), output: {} as Preferences },
  setPreferences: {
    input: v.object({
      language: v.optional(v.oneOf('cs', 'en')),
      theme: v.optional(v.oneOf('light', 'dark', 'system')),
      accountTypeLabels: v.optional(labels),
      transactionTypeLabels: v.optional(labels),
      lastCarId: v.optional(v.nullable(v.whole({ min: 1 }))),
      lastCurrency: v.optional(v.nullable(currency())),
      binding: v.optional(v.oneOf('soap12', 'soap11', 'httpGet', 'httpPost')),
    }),
    output: {} as Preferences,
  },

  // --- reads
  listAccounts: {
    input: v.object({ includeHidden: v.optional(v.flag()), includeInactive: v.optional(v.flag()) }),
    output: {} as AccountsView,
  },
  listTransactions: {
    input: v.object({
      accountId: v.id(),
      offset: v.optional(v.whole({ min: 0 })),
      limit: v.optional(v.whole({ min: 1, max: 500 })),
      search: v.optional(v.text({ max: 200, trim: true })),
    }),
    output: {} as TransactionPage,
  },
  listTemplates: { input: v.none(), output: [] as TemplateView[] },
  getCategoryTree: { input: v.none(), output: {} as CategoryTreeView },
  listCars: { input: v.none(), output: [] as CarView[] },
  saveCar: { input: v.object(inputEntries(CAR, CAR.sent)), output: [] as CarView[] },
  removeCar: { input: v.object({ carId: v.whole({ min: 1 }) }), output: [] as CarView[] },
  listRefuelings: { input: v.object({ carId: v.whole({ min: 1 }) }), output: [] as RefuelingView[] },
  /** Car numbers the local copy has refuelings of (named or not), for naming a car by picking its number. */
  listCarIdsSeen: { input: v.none(), output: [] as CarIdSeen[] },
  /** Asks the service (CarFuelList) what it has of a car number, as a user types it. */
  checkCarId: { input: v.object({ carId: v.whole({ min: 1 }) }), output: {} as CarCheck },
  /** Reads a car's refuelings from the service (CarFuelList) into the local copy now, as the next sync would: a car just added. */
  fetchCarRefuelings: { input: v.object({ carId: v.whole({ min: 1 }) }), output: {} as CarFetch },

  // --- a car's other costs and its reminders: kept on this computer only, never queued or sent
  /** Fuel and every other cost of a car in a period (default: from its first record to today), by kind and month, per km and per month. */
  getCarWholeCost: { input: v.object({ carId: v.whole({ min: 1 }), ...period }), output: {} as CarWholeCost },
  addCarCost: { input: v.object(createEntries(CAR_COST, CAR_COST.sent)), output: {} as CarCostStored },
  /** Replaces a cost's fields (every one stated). */
  editCarCost: { input: v.object({ id: v.id(), ...inputEntries(CAR_COST, CAR_COST.sent) }), output: {} as CarCostStored },
  removeCarCost: { input: v.object({ id: v.id() }), output: {} as { id: number } },
  /** A car's reminders with their state (due, soon, later, done) from today and the car's latest odometer reading. */
  listReminders: { input: v.object({ carId: v.whole({ min: 1 }) }), output: {} as CarReminders },
  /** The reminders due or soon due of every car in the list, for the Cars screen. */
  listDueReminders: { input: v.none(), output: [] as ReminderView[] },
  addReminder: { input: v.object(createEntries(REMINDER, REMINDER.sent)), output: {} as ReminderView },
  editReminder: { input: v.object({ id: v.id(), ...inputEntries(REMINDER, REMINDER.sent) }), output: {} as ReminderView },
  /** Done (default: today, at the car's latest reading): a repeated reminder is renewed from then, any other closed. */
  completeReminder: {
    input: v.object({ id: v.id(), date: v.optional(v.date()), odometer: v.optional(v.whole({ min: 0 })) }),
    output: {} as ReminderView,
  },
  removeReminder: { input: v.object({ id: v.id() }), output: {} as { id: number } },

  // --- beyond the service: statistics, reports and search over the whole local history
  /**
   * includeFlagged: count readings that cannot be right (left out by default) in the figures too.
   * fillsOffset / fillsLimit: a page of the fills, counted from the newest (default: every fill).
   */
  getFuelStats: {
    input: v.object({
      carId: v.whole({ min: 1 }),
      ...period,
      includeFlagged: v.optional(v.flag()),
      fillsOffset: v.optional(v.whole({ min: 0 })),
      fillsLimit: v.optional(v.whole({ min: 1, max: 500 })),
    }),
    output: {} as FuelStats,
  },
  /** Marks a refueling (pending ones included) as a partial fill, or a full one again. */
  setRefuelingPartial: { input: v.object({ id: v.id(), partial: v.flag() }), output: [] as RefuelingView[] },
  getReport: { input: v.object(reportInput), output: {} as CategoryReport },
  searchTransactions: {
    input: v.object({ ...searchFilters, offset: v.optional(v.whole({ min: 0 })), limit: v.optional(v.whole({ min: 1, max: 500 })) }),
    output: {} as SearchResult,
  },

  // --- budgets: kept in the local copy only, never queued or sent (src-shared/records/budget.ts)
  /** A month's budgets of every category against what was spent; currency: default that of most accounts. */
  getBudgetMonth: { input: v.object({ month: month(), currency: v.optional(currency()) }), output: {} as BudgetView },
  /** A year's twelve months of the categories with a budget in one of them. */
  getBudgetYear: {
    input: v.object({ year: v.whole({ min: 1900, max: 9999 }), currency: v.optional(currency()) }),
    output: {} as BudgetView,
  },
  /** Sets a month's budget of a category; answers the month. */
  setBudget: { input: v.object(inputEntries(BUDGET, BUDGET.sent)), output: {} as BudgetView },
  /** Takes a month's budget of a category away; answers the month. */
  clearBudget: {
    input: v.object({ month: month(), categoryId: v.id(), currency: currency() }),
    output: {} as BudgetView,
  },
  /** "Same as last month": copies the previous month's budgets into the month, keeping those it already has. */
  copyBudgetMonth: { input: v.object({ month: month(), currency: currency() }), output: {} as BudgetCopy },

  // --- the register: one account's (or all accounts') history by keyset, with running balances
  listRegister: {
    input: v.object({
      /** One account's register; without it, every account of `currency`. */
      accountId: v.optional(v.id()),
      /** The currency of a register across accounts; default: that of most accounts. */
      currency: v.optional(currency()),
      /** 'older': the rows after `after` (from the newest without it); 'newer': the rows before it (from the oldest without it). */
      direction: v.optional(v.oneOf('older', 'newer')),
      after: v.optional(
        v.object({
          paymentDate: v.text({ min: 10, max: 40 }),
          key: v.text({ min: 1, max: 200 }),
          id: v.nullable(v.whole()),
          outboxId: v.nullable(v.whole({ min: 1 })),
        }),
      ),
      /** Jump to a date: the rows of that day and older, newest first (`after` and `direction` ignored). */
      at: v.optional(v.date()),
      limit: v.optional(v.whole({ min: 1, max: 500 })),
      /** Count the register's rows and the page's position in it (costs a pass over the index). */
      counts: v.optional(v.flag()),
      /** Only rows whose description, amount or category contains this text (folded for case and diacritics). */
      text: v.optional(v.text({ max: 200, trim: true })),
    }),
    output: {} as RegisterPage,
  },
  /** One transaction by its key (a register row's), with every field, its state and when it changed. */
  getTransaction: { input: v.object({ key: v.text({ min: 1, max: 200 }) }), output: {} as TransactionDetail },

  // --- files: CSV export and import, backup and restore
  exportTransactionsCsv: { input: v.object({ ...searchFilters, ...csvDialect }), output: {} as CsvFile },
  exportRefuelingsCsv: { input: v.object({ carId: v.optional(v.whole({ min: 1 })), ...csvDialect }), output: {} as CsvFile },
  /** A report as a table: a row per top-level category, or per month, with income, expense, net and count. */
  exportReportCsv: {
    input: v.object({ ...reportInput, table: v.oneOf('categories', 'months'), ...csvDialect }),
    output: {} as CsvFile,
  },
  previewRefuelingImport: { input: importInput, output: {} as ImportPreview, maxInputBytes: IMPORT_BYTES },
  /** Queues every ready row of the preview (duplicates skipped) as new refuelings, all or none. */
  importRefuelings: { input: importInput, output: {} as ImportResult, maxInputBytes: IMPORT_BYTES },
  exportCarCostsCsv: { input: v.object({ carId: v.optional(v.whole({ min: 1 })), ...csvDialect }), output: {} as CsvFile },
  /** Adds every row of a CSV of a car's other costs (as exportCarCostsCsv writes them), all or none. */
  importCarCosts: {
    input: v.object({ carId: v.whole({ min: 1 }), content: v.text({ min: 1, max: IMPORT_BYTES / 2 }), currency: currency() }),
    output: {} as { imported: number },
    maxInputBytes: IMPORT_BYTES,
  },
  createBackup: { input: v.none(), output: {} as BackupFile },
  /** The safety copies kept beside the local copy (after syncs, daily, before restores and updates), newest first. */
  listSafetyCopies: { input: v.none(), output: {} as SafetyCopyInfo[] },
  /** Replaces the local copy, outbox included, with a backup: the SQLite file's bytes (over HTTP, the body itself). */
  restoreBackup: {
    input: v.object({ data: v.bytes({ max: BACKUP_BYTES }) }),
    output: {} as RestoreResult,
    maxInputBytes: BACKUP_BYTES,
    bytesInput: 'data',
  },
  /**
   * A damaged local copy (status.damaged) replaced by its newest sound safety copy (its waiting writes checked
   * with the service at the next sync before any is sent), or by a new empty copy that keeps the connection (to
   * restore a backup into or sync afresh); the damaged file is kept aside. Refused when the copy is not damaged.
   */
  recoverLocalCopy: { input: v.object({ from: v.oneOf('safety-copy', 'empty') }), output: {} as AppStatus },

  // --- writes: applied locally at once and queued in the outbox
  ...writeMethods,
  checkTransfer: { input: WRITES.transfer.input, output: {} as TransferCheck },

  // --- outbox and sync
  listOutbox: { input: v.none(), output: [] as OutboxEntryView[] },
  /** One queued write, field by field: its base, its values and the service's, the conflicting fields marked. */
  getOutboxEntry: { input: v.object({ id: v.whole({ min: 1 }) }), output: {} as OutboxEntryDetail },
  retryOutbox: { input: v.object({ id: v.whole({ min: 1 }) }), output: [] as OutboxEntryView[] },
  discardOutbox: { input: v.object({ id: v.whole({ min: 1 }) }), output: [] as OutboxEntryView[] },
  /** Replaces the write of a refused or pending entry (same kind), e.g. to fix what the service refused. */
  updateOutbox: {
    input: v.object({ id: v.whole({ min: 1 }), input: v.plainObject() }),
    output: [] as OutboxEntryView[],
  },
  resolveConflict: {
    input: v.object({ id: v.whole({ min: 1 }), choices: v.map(v.text({ min: 1, max: 50 }), v.oneOf('mine', 'theirs'), { max: 50 }) }),
    output: [] as OutboxEntryView[],
  },
  /** The password, when it is not stored (asked at each sync) or was refused and typed again; used for this sync only. */
  sync: { input: v.optional(v.object({ password: v.optional(password()) })), output: {} as SyncSummary },
  /** Cancels a running sync (requests in flight abandoned, nothing lost); false when none was running. */
  cancelSync: { input: v.none(), output: {} as { cancelled: boolean } },
  /** What a bug report needs: versions, platform, the last sync, the log's tail (never a secret). */
  getDiagnostics: { input: v.none(), output: {} as { text: string; logFile: string | null } },
} as const;

export type AppMethod = keyof typeof APP_METHODS;
export const APP_METHOD_NAMES = Object.keys(APP_METHODS) as AppMethod[];
export const isAppMethod = (name: string): name is AppMethod => Object.hasOwn(APP_METHODS, name);

/** The largest body an edge reads for a call of this method. */
export function maxInputBytes(method: AppMethod): number {
  const entry = APP_METHODS[method];
  return 'maxInputBytes' in entry ? entry.maxInputBytes : DEFAULT_MAX_INPUT_BYTES;
}

/**
 * The field of a method whose input is one file's bytes (a backup), or null. Over HTTP those bytes are the
 * call's body (application/octet-stream), not JSON: a file in JSON would be base64 text, decoded in memory
 * several times its size. Over IPC the field is a Uint8Array like any other.
 */
export function bytesInput(method: AppMethod): string | null {
  const entry = APP_METHODS[method];
  return 'bytesInput' in entry ? entry.bytesInput : null;
}

/** A method's input as its handler gets it: validated, the fallbacks of what the caller left out filled in. */
export type InputOf<M extends AppMethod> = Infer<(typeof APP_METHODS)[M]['input']>;
/** A method's input as a caller gives it: what its schema takes (an optional field of a create may be left out). */
export type ArgOf<M extends AppMethod> = InferInput<(typeof APP_METHODS)[M]['input']>;
export type OutputOf<M extends AppMethod> = (typeof APP_METHODS)[M]['output'];

/** The app API as the renderer calls it and the core implements it (validating each input with its schema first). */
export type AppApi = {
  [M in AppMethod]: undefined extends ArgOf<M>
    ? (input?: Exclude<ArgOf<M>, void | undefined>) => Promise<OutputOf<M>>
    : (input: ArgOf<M>) => Promise<OutputOf<M>>;
};
