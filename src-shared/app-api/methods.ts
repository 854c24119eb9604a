/**
 * The app API: every read and write the screens need, described once. The preload bridge, the IPC
 * handlers, the browser shell's HTTP routes and the renderer's adapter are all generated from this
 * table; each method's input is validated with its schema before it reaches the core.
 */
import { v, type Infer } from '../validate';
import type {
  AccountsView,
  AppStatus,
  CarView,
  CategoryTreeView,
  ConnectionReport,
  OutboxEntryView,
  Preferences,
  RefuelingView,
  SyncSummary,
  TemplateView,
  TransactionPage,
  TransferCheck,
  WriteResult,
} from './views';

const name = () => v.string({ min: 1, max: 100, trim: true });
const description = () => v.string({ max: 1000 });
const code = () => v.integer({ min: 0, max: 2_147_483_647 });
const currency = () => v.integer({ min: 1, max: 999 });

const accountFields = {
  name: name(),
  description: description(),
  type: code(),
  isActive: v.boolean(),
  isHidden: v.boolean(),
  locked: v.boolean(),
  ord: v.integer({ min: -2_147_483_648, max: 2_147_483_647 }),
};
const accountInput = v.object({ ...accountFields, currency: currency() });
const accountEditInput = v.object({ ...accountFields, id: v.id() });

const transferInput = v.object({
  sourceId: v.id(),
  targetId: v.id(),
  amount: v.decimal({ positive: true }),
  paymentDate: v.dateTime(),
  categoryId: v.integer({ min: Number.MIN_SAFE_INTEGER }),
  description: description(),
});

const refuelingFields = {
  carId: v.integer({ min: 1 }),
  dateOfPurchase: v.dateTime(),
  tachometer: v.integer({ min: 0 }),
  liter: v.decimal({ positive: true }),
  price: v.decimal({ nonNegative: true }),
  currency: currency(),
  rate: v.decimal({ positive: true }),
  description: description(),
};
const refuelingInput = v.object(refuelingFields);
const refuelingEditInput = v.object({ ...refuelingFields, id: v.id() });

const categoryAddInput = v.object({ name: name(), parentId: v.integer() });
const categoryRenameInput = v.object({ id: v.id(), name: name() });

const writeInput = {
  addAccount: accountInput,
  editAccount: accountEditInput,
  transfer: transferInput,
  addCategory: categoryAddInput,
  renameCategory: categoryRenameInput,
  addRefueling: refuelingInput,
  editRefueling: refuelingEditInput,
};

const labels = v.record(v.string({ min: 1, max: 10, pattern: /^\d+$/, patternMessage: 'must be a numeric code' }), v.string({ max: 60 }), {
  max: 100,
});

export const APP_METHODS = {
  // --- status, connection, preferences
  getStatus: { input: v.none(), output: {} as AppStatus },
  testConnection: {
    input: v.object({ baseUrl: v.string({ min: 1, max: 2000, trim: true }), namespace: v.optional(v.string({ max: 500, trim: true })) }),
    output: {} as ConnectionReport,
  },
  connect: {
    input: v.object({
      baseUrl: v.string({ min: 1, max: 2000, trim: true }),
      namespace: v.optional(v.string({ max: 500, trim: true })),
      clientKey: v.string({ min: 1, max: 200 }),
      login: v.string({ min: 1, max: 200 }),
      password: v.string({ min: 1, max: 500 }),
      binding: v.optional(v.literal('soap12', 'soap11', 'httpGet', 'httpPost')),
    }),
    output: {} as AppStatus,
  },
  workOffline: { input: v.none(), output: {} as AppStatus },
  getPreferences: { input: v.none(), output: {} as Preferences },
  setPreferences: {
    input: v.object({
      language: v.optional(v.literal('cs', 'en')),
      theme: v.optional(v.literal('light', 'dark', 'system')),
      accountTypeLabels: v.optional(labels),
      transactionTypeLabels: v.optional(labels),
      lastCarId: v.optional(v.nullable(v.integer({ min: 1 }))),
      lastCurrency: v.optional(v.nullable(currency())),
      binding: v.optional(v.literal('soap12', 'soap11', 'httpGet', 'httpPost')),
    }),
    output: {} as Preferences,
  },

  // --- reads
  listAccounts: {
    input: v.object({ includeHidden: v.optional(v.boolean()), includeInactive: v.optional(v.boolean()) }),
    output: {} as AccountsView,
  },
  listTransactions: {
    input: v.object({
      accountId: v.id(),
      offset: v.optional(v.integer({ min: 0 })),
      limit: v.optional(v.integer({ min: 1, max: 500 })),
      search: v.optional(v.string({ max: 200, trim: true })),
    }),
    output: {} as TransactionPage,
  },
  listTemplates: { input: v.none(), output: [] as TemplateView[] },
  getCategoryTree: { input: v.none(), output: {} as CategoryTreeView },
  listCars: { input: v.none(), output: [] as CarView[] },
  saveCar: { input: v.object({ carId: v.integer({ min: 1 }), name: name() }), output: [] as CarView[] },
  removeCar: { input: v.object({ carId: v.integer({ min: 1 }) }), output: [] as CarView[] },
  listRefuelings: { input: v.object({ carId: v.integer({ min: 1 }) }), output: [] as RefuelingView[] },

  // --- writes: applied locally at once and queued in the outbox
  addAccount: { input: writeInput.addAccount, output: {} as WriteResult },
  editAccount: { input: writeInput.editAccount, output: {} as WriteResult },
  checkTransfer: { input: transferInput, output: {} as TransferCheck },
  transfer: { input: writeInput.transfer, output: {} as WriteResult },
  addCategory: { input: writeInput.addCategory, output: {} as WriteResult },
  renameCategory: { input: writeInput.renameCategory, output: {} as WriteResult },
  addRefueling: { input: writeInput.addRefueling, output: {} as WriteResult },
  editRefueling: { input: writeInput.editRefueling, output: {} as WriteResult },

  // --- outbox and sync
  listOutbox: { input: v.none(), output: [] as OutboxEntryView[] },
  retryOutbox: { input: v.object({ id: v.integer({ min: 1 }) }), output: [] as OutboxEntryView[] },
  discardOutbox: { input: v.object({ id: v.integer({ min: 1 }) }), output: [] as OutboxEntryView[] },
  /** Replaces the write of a refused or pending entry (same kind), e.g. to fix what the service refused. */
  updateOutbox: {
    input: v.object({ id: v.integer({ min: 1 }), input: v.plainObject() }),
    output: [] as OutboxEntryView[],
  },
  resolveConflict: {
    input: v.object({ id: v.integer({ min: 1 }), choices: v.record(v.string({ min: 1, max: 50 }), v.literal('mine', 'theirs'), { max: 50 }) }),
    output: [] as OutboxEntryView[],
  },
  sync: { input: v.none(), output: {} as SyncSummary },
} as const;

export type AppMethod = keyof typeof APP_METHODS;
export const APP_METHOD_NAMES = Object.keys(APP_METHODS) as AppMethod[];
export const isAppMethod = (name: string): name is AppMethod => Object.hasOwn(APP_METHODS, name);

export type InputOf<M extends AppMethod> = Infer<(typeof APP_METHODS)[M]['input']>;
export type OutputOf<M extends AppMethod> = (typeof APP_METHODS)[M]['output'];

/** The app API as the renderer calls it and the core implements it. */
export type AppApi = {
  [M in AppMethod]: InputOf<M> extends void ? () => Promise<OutputOf<M>> : (input: InputOf<M>) => Promise<OutputOf<M>>;
};

/** Validators of each write kind's input, for entries edited in the outbox. */
export const WRITE_INPUT_SCHEMAS = writeInput;
