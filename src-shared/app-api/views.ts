/**
 * What the screens read: plain data the core returns through the app API. Money and other decimal
 * quantities travel as canonical decimal text ("1520.5"), never as floats. Ids are the service's
 * (positive) or temporary ids of records created offline (negative) until a sync replaces them.
 */
import type { AccountEdit, AccountLocals, AccountStored, AccountWrite } from '../records/account';
import type { CarStored } from '../records/car';
import type { CategoryEdit, CategoryLocals, CategoryStored, CategoryWrite } from '../records/category';
import type { RefuelingLocals, RefuelingValues, RefuelingWrite } from '../records/refueling';
import type { TemplateStored } from '../records/template';
import type { TransactionStored, TransferWrite } from '../records/transaction';
import type { Binding } from '../wire/bindings';
import type { ConnectionWarning } from './connection-warnings';
import type { AppErrorData } from './errors';
import type { OutboxKind, WriteInputOf } from './write-kinds';

export type Id = number;

/** An account with every field of its table (src-shared/records/account.ts), the local marks included. */
export type AccountView = AccountStored &
  AccountLocals & {
    /** Balance shown: the service's balance with still-pending local writes laid over it. */
    balance: string;
    /** The balance the service last reported. */
    serverBalance: string;
    /** A queued write creates, edits or moves money on this account. */
    pending: boolean;
    /** Created offline and not yet on the service. */
    local: boolean;
    /** The user may book on it: writable (permission 2 or 3), active and unlocked. */
    writable: boolean;
  };

export interface CurrencyTotal {
  currency: number;
  total: string;
  accounts: number;
  pending: boolean;
}

export interface AccountsView {
  accounts: AccountView[];
  /** Per currency, over the accounts listed (hidden and inactive ones count only when listed). */
  totals: CurrencyTotal[];
}

/** A transaction with every field of its table (src-shared/records/transaction.ts); id null when the service only offered the older list without ids. */
export type TransactionView = TransactionStored & {
  categoryName: string | null;
  pending: boolean;
};

export interface TransactionPage {
  items: TransactionView[];
  /** All matching transactions in the local history (beyond the service's last 50). */
  total: number;
  offset: number;
  limit: number;
}

export type TemplateView = Omit<TemplateStored, 'userId' | 'userCreatedId'> & {
  accountName: string | null;
  categoryName: string | null;
};

/** A category of the tree with every field of its table (src-shared/records/category.ts; parentId 0 for a top-level one), its marks included. */
export type CategoryNode = Omit<CategoryStored, 'position'> &
  CategoryLocals & {
    children: CategoryNode[];
    pending: boolean;
  };

export interface CategoryTreeView {
  /** Flat, most used first, as the service ranks them. */
  favorites: CategoryNode[];
  all: CategoryNode[];
}

export type CarView = CarStored & {
  refuelings: number;
  lastTachometer: number | null;
  lastDate: string | null;
  lastCurrency: number | null;
  pending: boolean;
};

/** A refueling with every field of its table (src-shared/records/refueling.ts), the local marks included. */
export type RefuelingView = RefuelingValues & {
  /** price / liter rounded to 3 decimals; null when liter is 0. */
  pricePerLiter: string | null;
  pending: boolean;
};

/**
 * pending: waiting to be sent. unknown: sent, but the answer never came; the next sync looks for its
 * effect before sending it again. undecidable: sent, but whether it reached the service cannot be told (the
 * service's lists cannot show it, or what the service held before it is not known): it is never sent again
 * without the user's word (retry), and each sync looks for it once more. refused: the service answered a
 * fault (see message). conflict: an edit whose field was changed on the service too. blocked: depends on a
 * refused, conflicting, undecidable or blocked entry.
 */
export type OutboxStatus = 'pending' | 'unknown' | 'undecidable' | 'refused' | 'conflict' | 'blocked';

export interface FieldConflict {
  field: string;
  /** The value when the edit began. */
  base: string | number | boolean;
  mine: string | number | boolean;
  theirs: string | number | boolean;
}

export interface OutboxEntryView {
  id: number;
  kind: OutboxKind;
  status: OutboxStatus;
  /** The service's fault message, or why the entry waits. */
  message: string | null;
  /** Local wall-clock time the write was made. */
  createdAt: string;
  attempts: number;
  /** The write as the user made it (ids as they are now: temporary ones are replaced after a create). */
  input: WriteInputOf<OutboxKind>;
  /** The record the write creates or edits, when known. */
  targetId: Id | null;
  /** Entries that refer to a record this one creates. */
  dependents: number[];
  conflicts: FieldConflict[];
}

/** One field of a queued write, side by side (`outbox show`): null where a side has no value (a create has no base). */
export interface OutboxFieldView {
  /** The field's name in the record's field table (src-shared/records), as a resolve choice names it. */
  field: string;
  /** An edit's value when the edit began. */
  base: string | number | boolean | null;
  /** The value this write gives the field. */
  mine: string | number | boolean | null;
  /** An edit's value on the service: as the conflict found it, else as the last sync left the local copy. */
  theirs: string | number | boolean | null;
  /** The service changed this field to something else meanwhile: the user chooses mine or theirs. */
  conflict: boolean;
}

/** A queued write with its fields side by side. */
export interface OutboxEntryDetail {
  entry: OutboxEntryView;
  fields: OutboxFieldView[];
}

/** An account as a form writes it: the fields sent to the service, and the marks kept here (unchanged when not given). */
export type AccountInput = AccountWrite & Partial<AccountLocals>;
export type AccountEditInput = AccountEdit & Partial<AccountLocals> & { id: Id };

/** A transfer (src-shared/records/transaction.ts): the amount is decimal text, greater than zero. */
export type TransferInput = TransferWrite;

/** A new category (parentId 0 for top level), a rename. */
export type CategoryAddInput = CategoryWrite;
export type CategoryRenameInput = CategoryEdit & { id: Id };

/** A refueling as a form writes it: the fields sent to the service, and the marks kept here (unchanged when not given). */
export type RefuelingInput = RefuelingWrite & Partial<RefuelingLocals>;
export type RefuelingEditInput = RefuelingInput & { id: Id };

export interface WriteResult {
  outboxId: number;
  /** The record's id: temporary (negative) for a create until it is synced. */
  id: Id;
}

export type TransferProblem =
  'same-account' | 'unknown-account' | 'currency-mismatch' | 'read-only' | 'inactive' | 'locked' | 'too-many-decimals';

export interface TransferCheck {
  /** What keeps the transfer from going through; the screens word each code. */
  problems: { code: TransferProblem; accountId: Id | null }[];
}

export interface ConnectionSettings {
  baseUrl: string;
  namespace: string;
  login: string;
  binding: Binding;
  /** SHA-256 fingerprint of the certificate the user trusted (a self-signed service), or null. */
  trustedCertificate: string | null;
  /** Whether the client key and password are stored (they are never returned); with rememberPassword false, the key. */
  hasSecrets: boolean;
  /** false: the password is asked at each sync and kept nowhere. */
  rememberPassword: boolean;
}

/**
 * What one real exchange with the service found: 'connected', it answered and accepted the credentials;
 * 'unreachable', no answer, or only "try later" (a network failure, a timeout, HTTP 503...);
 * 'credentials-refused', it refused the client key, login or password; 'certificate-refused', TLS refused
 * its certificate; 'service-error', it answered something the app cannot use.
 */
export type ExchangeOutcome = 'connected' | 'unreachable' | 'credentials-refused' | 'certificate-refused' | 'service-error';

/**
 * The last real exchange with the stored service (a sync, a test of the stored connection, connecting, or
 * a check that it answers at all: no credentials, so it only tells reached from unreachable).
 */
export interface LastExchange {
  outcome: ExchangeOutcome;
  /** When it ended (local wall clock, as lastSyncAt). */
  at: string;
  via: 'sync' | 'test' | 'connect' | 'check';
  /** When an exchange last went through ('connected'), this one or an earlier one; null: never. */
  lastSuccessAt: string | null;
  /** Why it failed, as data (its code words it in the user's language); null when it did not. */
  error: AppErrorData | null;
}

/** A check of whether the stored service answers (checkReachability). */
export interface ReachabilityCheck {
  /** False: not asked now (no connection, working offline, a sync running, or asked less than a minute ago). */
  checked: boolean;
  /** What it found: 'connected' (it answers), 'unreachable' or 'certificate-refused'; null when not checked. */
  outcome: ExchangeOutcome | null;
  status: AppStatus;
}

export interface ConnectionReport {
  /** The service answered and accepted the credentials (state 'connected'). */
  ok: boolean;
  /**
   * What the test found. 'not-checked': the service answers, but there were no credentials to check
   * (none typed, and none stored for this address).
   */
  state: ExchangeOutcome | 'not-checked';
  baseUrl: string;
  namespace: string | null;
  /** Operations the WSDL lists, of the 15 the app knows. */
  operations: string[];
  missing: string[];
  /** e.g. credentials would travel unencrypted over http:// to another machine; as data, worded by code. */
  warnings: ConnectionWarning[];
  /** Why the test failed, as data (its code words it); null when it did not. */
  error: AppErrorData | null;
  /** Why TLS refused the service's certificate, with the certificate, so that the user can compare and trust it. */
  certificate: CertificateProblem | null;
}

/** A certificate as people compare it. */
export interface CertificateView {
  /** SHA-256, upper-case hex pairs joined by colons. */
  fingerprint256: string;
  subject: string;
  issuer: string;
  /** ISO 8601. */
  validFrom: string;
  validTo: string;
}

export interface CertificateProblem {
  /**
   * 'untrusted': no authority this computer trusts vouches for it (self-signed): it may be trusted by
   * its fingerprint; 'changed': not the one the user trusted; 'invalid': expired, or for another address.
   */
  reason: 'untrusted' | 'changed' | 'invalid';
  /** The certificate the service presented, when it could be read. */
  presented: CertificateView | null;
  /** The fingerprint the user trusted, for 'changed'. */
  trusted: string | null;
}

/** Records per kind: listed by the service (pulled) or new and changed (received). */
export interface PulledCounts {
  accounts: number;
  transactions: number;
  templates: number;
  categories: number;
  refuelings: number;
}

export interface SyncSummary {
  startedAt: string;
  finishedAt: string;
  /** The local copy had never finished a sync before this one: whatever it received was new here, nothing changed. */
  first: boolean;
  pushed: number;
  refused: number;
  conflicts: number;
  /** Writes whose outcome stayed unknown (the service could not be reached to check). */
  unknown: number;
  /** Writes whose arrival the sync could not tell: they wait for the user's retry or discard. */
  undecidable: number;
  /** Writes still in the outbox to be sent (pending, unknown or undecidable), after this sync. */
  waiting: number;
  pulled: PulledCounts | null;
  /**
   * Of those, the records that were new or changed in the local copy (or that the service no longer
   * lists): what the sync brought. All zero: nothing was new. Null when the pull did not finish.
   */
  received: PulledCounts | null;
  /** Why the sync stopped early, if it did (service unavailable, credentials refused...), as data: its code words it. */
  error: AppErrorData | null;
  /**
   * 'unavailable': the service could not be reached or kept failing (transient: writes wait for the next
   * sync); 'auth': credentials refused; 'password-needed': no password stored and none given; 'certificate': TLS refused the service's certificate; 'service':
   * the service sent what the app cannot accept; 'cancelled': the user cancelled.
   */
  errorCode: SyncErrorCode | null;
}

export type SyncErrorCode = 'unavailable' | 'auth' | 'password-needed' | 'certificate' | 'service' | 'not-connected' | 'cancelled';

export interface AppStatus {
  /** Connection settings are stored. */
  configured: boolean;
  /** The user chose to work without a connection for now (first run done). */
  workingOffline: boolean;
  connection: ConnectionSettings | null;
  outbox: { pending: number; unknown: number; undecidable: number; refused: number; conflicts: number; blocked: number };
  syncing: boolean;
  lastSyncAt: string | null;
  lastSync: SyncSummary | null;
  /** The last attempt to reach the service failed (exchange.outcome is 'unreachable'). */
  offline: boolean;
  /** The last real exchange with the stored service; null before the first. */
  exchange: LastExchange | null;
  /** The local copy will not open (damaged on disk): the app can only recover it. Null when it opened. */
  damaged: DamagedCopy | null;
  /**
   * The IANA zone of the core's own wall-clock times (lastSyncAt, the exchange's and the sync summary's times, an
   * outbox entry's createdAt): the machine's, which need not be the zone of the browser showing them.
   */
  timeZone: string;
}

/**
 * A safety copy of the local copy: when it was made (ISO 8601, UTC) and why: 'after-sync', 'daily',
 * 'before-restore' or 'before-schema-<n>' (before an update of the app).
 */
export interface SafetyCopyInfo {
  at: string;
  reason: string;
}

/** A local copy SQLite found damaged, and what it can be recovered from. */
export interface DamagedCopy {
  /** The data file. */
  file: string;
  /** Safety copies kept after syncs, daily, and before migrations and restores, newest first. */
  safetyCopies: SafetyCopyInfo[];
}

export type Theme = 'light' | 'dark' | 'system';
export type Language = 'cs' | 'en';

/** The preferences of a user who has changed none. */
export const DEFAULT_PREFERENCES: Preferences = {
  language: 'cs',
  theme: 'system',
  accountTypeLabels: {},
  transactionTypeLabels: {},
  lastCarId: null,
  lastCurrency: null,
};

export interface Preferences {
  language: Language;
  theme: Theme;
  /** Display labels for account type codes; unknown codes show as #<code>. */
  accountTypeLabels: Record<string, string>;
  transactionTypeLabels: Record<string, string>;
  lastCarId: number | null;
  lastCurrency: number | null;
}
