/**
 * Errors that cross a boundary (the app API, the command line), as data: `{ code, params, field? }`.
 * `code` names what went wrong and picks its text: the screens word it in the user's language from
 * vue-i18n's catalogs (src-renderer/src/i18n/error-texts.*.ts), the command line and the logs in
 * English from this table. Nobody reads a message back: the renderer never sees one.
 *
 * The table is the one list of error codes. Each code has a kind (what the caller may do about it:
 * the headline, a retry, asking for the password...) and its English text, whose argument is the
 * code's parameters: their type is the code's, checked by the compiler where an error is made and
 * where a catalog words it.
 *
 * A leaf: it imports nothing, so that every module may import it (the rules of src-shared/validate, the
 * views, the records) without a cycle. A text that names a record's field takes the field's English words
 * as a parameter, given where the error is raised (an import's `words`: the refueling table's).
 */
const writesWaiting = (n: number): string => `${n} write${n === 1 ? '' : 's'} still waiting`;
/** " 3 writes still waiting." after a sentence; nothing when none wait. */
const stillWaiting = (n: number): string => (n > 0 ? ` ${writesWaiting(n)}.` : '');
/** "; 3 writes still waiting" inside a sentence. */
const waitingClause = (n: number): string => (n > 0 ? `; ${writesWaiting(n)}` : '');

/**
 * Why the service could not be reached, or answered "try later", in words of no language: the screens word
 * it in theirs (i18n `networkCause.*`); `code` is the system's or the library's name for it (ECONNREFUSED),
 * `status` an HTTP status, `seconds` a time limit (0 where they say nothing). The English `detail` beside it
 * is the command line's and the log's.
 */
export const NETWORK_CAUSES = [
  'http',
  'timeout',
  'connectTimeout',
  'refused',
  'notFound',
  'noRoute',
  'lost',
  'tls',
  'proxyAuth',
  'proxy',
  'unreadable',
  'gaveUp',
  'failed',
] as const;
export type NetworkCause = (typeof NETWORK_CAUSES)[number];
export type CauseParams = { cause: NetworkCause; code: string; status: number; seconds: number };

/**
 * The kinds of record the service sends, as an error names one (`record`): the screens word it in theirs
 * (i18n `recordWord.*`). Spelled here rather than taken from the record tables, whose types depend on this table.
 */
export type WireRecord = 'account' | 'transaction' | 'template' | 'category' | 'refueling';

export type AppErrorKind =
  /** An argument failed validation at the boundary or in the core; `field` names it. */
  | 'invalid-input'
  /** The record or outbox entry does not exist (any more). */
  | 'not-found'
  /** A rule of the data refused the write (transfer between currencies, duplicate category name...). */
  | 'rule'
  /** Sync or test needs connection settings first. */
  | 'not-connected'
  /** A sync is already running. */
  | 'busy'
  /** The service refused the credentials. */
  | 'auth'
  /** The password is not stored (the user chose to be asked at each sync, or the shell forgot it): ask and retry. */
  | 'password-needed'
  /** The local copy is damaged on disk: only recovering it (or starting a new one) is possible. */
  | 'damaged'
  /** The service could not be reached. */
  | 'network'
  /** TLS refused the service's certificate (not vouched for, changed since it was trusted, or invalid). */
  | 'certificate'
  /** The service answered a fault or something unreadable. */
  | 'service'
  /** The method does not exist, or the caller is not allowed (browser shell token, origin). */
  | 'forbidden'
  /** The user stopped it (a sync cancelled): nothing is lost. */
  | 'cancelled'
  /** A bug: details are logged in the main process, never sent. */
  | 'internal';

/** A parameter's value: what a text puts in its place. */
export type ParamValue = string | number;
type Params = Record<string, ParamValue>;

/** One error: its kind and its English words (`predicate`: a validator's, said of the field it names). */
interface ErrorSpec<P extends Params> {
  kind: AppErrorKind;
  en: (p: P) => string;
  /** A validator's words ("must not be empty"), said of the field: "name must not be empty". */
  predicate?: true;
}

const spec = <P extends Params = Record<never, never>>(kind: AppErrorKind, en: (p: P) => string, predicate?: true): ErrorSpec<P> =>
  predicate ? { kind, en, predicate } : { kind, en };
const check = <P extends Params = Record<never, never>>(en: (p: P) => string) => spec<P>('invalid-input', en, true);

export const ERRORS = {
  // ---- validation of input at a boundary (the schemas of src-shared/validate); said of the field
  notText: check(() => 'must be text'),
  required: check(() => 'must not be empty'),
  tooShort: check<{ min: number }>((p) => `must be at least ${p.min} characters`),
  tooLong: check<{ max: number }>((p) => `must be at most ${p.max} characters`),
  controlCharacters: check(() => 'must not contain control characters'),
  wrongForm: check(() => 'has the wrong form'),
  notFingerprint: check(() => 'must be a SHA-256 fingerprint: 64 hexadecimal digits, such as AB:CD:…'),
  notNumericCode: check(() => 'must be a numeric code'),
  notWholeNumber: check(() => 'must be a whole number'),
  tooSmall: check<{ min: number }>((p) => `must be at least ${p.min}`),
  tooLarge: check<{ max: number }>((p) => `must be at most ${p.max}`),
  notBytes: check(() => "must be a file's bytes"),
  tooManyBytes: check<{ mib: number }>((p) => `must be at most ${p.mib} MiB`),
  notId: check(() => 'must be an id'),
  notBoolean: check(() => 'must be true or false'),
  notDecimalText: check(() => 'must be a decimal number as text'),
  notDecimal: check(() => 'must be a decimal number such as 1520.50'),
  notPositive: check(() => 'must be greater than zero'),
  negative: check(() => 'must not be negative'),
  tooManyDecimals: check<{ max: number }>((p) => `must have at most ${p.max} decimal places`),
  tooManyDigits: check(() => 'has more digits than can be sent exactly'),
  notDateTime: check(() => 'must be a date and time such as 2026-11-21T14:05'),
  notDate: check(() => 'must be a date such as 2026-11-21'),
  notMonth: check(() => 'must be a month such as 2026-11'),
  notOneOf: check<{ values: string }>((p) => `must be one of ${p.values}`),
  notList: check(() => 'must be a list'),
  tooManyItems: check<{ max: number }>((p) => `must have at most ${p.max} items`),
  notObject: check(() => 'must be an object'),
  tooManyEntries: check<{ max: number }>((p) => `must have at most ${p.max} entries`),
  unexpected: check(() => 'is not expected'),
  noInput: check(() => 'takes no input'),

  // ---- records and rules of the data
  accountMissing: spec<{ id: number }>('not-found', (p) => `Account ${p.id} does not exist.`),
  accountNotInCopy: spec<{ id: number }>('not-found', (p) => `Account ${p.id} is not in the local copy.`),
  accountReadOnly: spec<{ name: string }>('rule', (p) => `Account "${p.name}" is read-only for you.`),
  accountOutsideCurrency: spec<{ name: string }>('invalid-input', (p) => `Account ${p.name} is not in the report's currency.`),
  reportAccountMissing: spec<{ id: number }>('invalid-input', (p) => `Account ${p.id} does not exist.`),
  categoryMissing: spec<{ id: number }>('not-found', (p) => `Category ${p.id} does not exist.`),
  parentCategoryMissing: spec<{ id: number }>('not-found', (p) => `The parent category ${p.id} does not exist.`),
  categoryNameTaken: spec<{ name: string }>('rule', (p) => `A category named "${p.name}" already exists at this place.`),
  transferSameAccount: spec('rule', () => 'The source and the target must be different accounts.'),
  transferAccountMissing: spec<{ role: 'source' | 'target'; id: number }>('rule', (p) => `The ${p.role} account ${p.id} does not exist.`),
  transferAccountReadOnly: spec<{ role: 'source' | 'target'; name: string }>(
    'rule',
    (p) => `The ${p.role} account "${p.name}" is read-only for you.`,
  ),
  transferAccountInactive: spec<{ role: 'source' | 'target'; name: string }>(
    'rule',
    (p) => `The ${p.role} account "${p.name}" is not active.`,
  ),
  transferAccountLocked: spec<{ role: 'source' | 'target'; name: string }>('rule', (p) => `The ${p.role} account "${p.name}" is locked.`),
  transferCurrencies: spec<{ source: string; target: string }>(
    'rule',
    (p) => `The target account is in ${p.target}, the source account in ${p.source}; a transfer needs one currency.`,
  ),
  amountDecimals: spec<{ currency: string; max: number }>(
    'invalid-input',
    (p) => `The amount has more decimal places than ${p.currency} allows (${p.max}).`,
  ),
  priceDecimals: spec<{ currency: string; max: number }>(
    'invalid-input',
    (p) => `The price has more decimal places than ${p.currency} allows (${p.max}).`,
  ),
  literDecimals: spec<{ max: number }>('invalid-input', (p) => `The litres have more than ${p.max} decimal places.`),
  rateDecimals: spec<{ max: number }>('invalid-input', (p) => `The rate has more than ${p.max} decimal places.`),
  carNotListed: spec<{ carId: number }>('not-found', (p) => `Car ${p.carId} is not in your car list; add it first.`),
  carNotInList: spec<{ carId: number }>('not-found', (p) => `Car ${p.carId} is not in your car list.`),
  carHasPending: spec<{ carId: number }>('rule', (p) => `Car ${p.carId} has refuelings waiting in the outbox; sync or discard them first.`),
  refuelingMissing: spec<{ id: number }>('not-found', (p) => `Refueling ${p.id} does not exist.`),
  refuelingNotInCopy: spec<{ id: number }>(
    'not-found',
    (p) => `Refueling ${p.id} is not in the local copy (is its car in your car list?).`,
  ),
  carCostMissing: spec<{ id: number }>('not-found', (p) => `Car cost ${p.id} does not exist.`),
  reminderMissing: spec<{ id: number }>('not-found', (p) => `Reminder ${p.id} does not exist.`),
  reminderNoDue: spec('invalid-input', () => 'A reminder needs a date or an odometer reading it is due by.'),
  reminderNoReading: spec(
    'invalid-input',
    () => 'The reminder repeats by kilometres and the car has no odometer reading yet: give the reading it was done at.',
  ),
  transactionGone: spec('not-found', () => 'This transaction is no longer in the local copy.'),
  periodReversed: spec('invalid-input', () => 'The period must not end before it starts.'),
  amountBoundsReversed: spec('invalid-input', () => 'The smallest amount must not be above the largest.'),
  reportTooLong: spec<{ years: number }>('invalid-input', (p) => `A report covers at most ${p.years} years.`),

  // ---- the outbox
  entryMissing: spec<{ id: number }>('not-found', (p) => `Outbox entry ${p.id} does not exist.`),
  entryUnknown: spec('rule', () => 'This write was sent and its outcome is not known yet; sync first, then change it.'),
  entryUndecidable: spec(
    'rule',
    () =>
      'This write may already be on the service, which cannot tell; check there, then send it again or discard it instead of changing it.',
  ),
  noConflict: spec<{ id: number }>('rule', (p) => `Outbox entry ${p.id} has no conflict to resolve.`),
  notInConflict: spec<{ field: string; fields: string }>(
    'invalid-input',
    (p) => `${p.field} is not a field in conflict; the fields in conflict are ${p.fields}.`,
  ),
  chooseSides: spec<{ fields: string }>('invalid-input', (p) => `Choose mine or theirs for ${p.fields}.`),

  // ---- connection and sync
  notConnected: spec('not-connected', () => 'Connect to a service first.'),
  clientKeyUnavailable: spec('not-connected', () => 'The client key is not available; connect again.'),
  keychainUnavailable: spec('not-connected', () => 'The system keychain is not available to decrypt the stored credentials.'),
  keychainCannotStore: spec('not-connected', () => 'The system keychain is not available, so the credentials cannot be stored safely.'),
  credentialsUndecryptable: spec('not-connected', () => 'The stored credentials could not be decrypted; connect again.'),
  keyNeedsPassword: spec('not-connected', () => 'The client key can only be stored together with a password.'),
  passwordNeeded: spec('password-needed', () => 'Enter the password to sync.'),
  addressNotUrl: spec('invalid-input', () => 'The service address must be a full URL such as https://example.com.'),
  addressNotHttp: spec('invalid-input', () => 'The service address must start with http:// or https://.'),
  addressWithCredentials: spec('invalid-input', () => 'The service address must not carry a user name or password.'),
  badNamespace: spec(
    'invalid-input',
    () => 'The namespace must be an absolute URI such as http://example.com/api/ or urn:books, without spaces, quotes or angle brackets.',
  ),
  outboxHoldsWrites: spec<{ count: number; login: string; address: string }>(
    'rule',
    (p) => `The outbox still holds ${p.count} write(s) for ${p.login} at ${p.address}; sync or discard them first.`,
  ),
  syncRunning: spec('busy', () => 'A sync is already running.'),
  syncRunningConnect: spec('busy', () => 'A sync is running; connect again when it has finished.'),
  syncRunningTryLater: spec('busy', () => 'A sync is running; try again when it has finished.'),
  syncRunningElsewhere: spec('busy', () => 'A sync is already running in another window or command.'),
  fileBusy: spec('busy', () => 'The local data file is in use by another program; try again.'),
  credentialsRefused: spec('auth', () => 'The service refused the client key, login or password.'),
  /** `again`: what the user is to do (the command line gives the key again, the app's user types the password or connects again). */
  sealedKeyRefused: spec<{ again: 'key' | 'password' }>(
    'auth',
    (p) =>
      `The stored client key does not open with this password; ${p.again === 'key' ? 'give the key again (BOOKKEEPING_CLIENT_KEY or --key-file)' : 'type the password again, or connect again'}.`,
  ),
  /** The service's own words, shown as theirs. */
  serviceFault: spec<{ service: string }>('service', (p) => `The service answered: ${p.service}`),
  serviceAnswerUnusable: spec<{ detail: string } & CauseParams>('service', (p) => p.detail),
  /** A record of the service the local copy cannot keep: `wire` is the field's name on the wire, `id` the record's ('?' when it has none). */
  serviceValueNotNumber: spec<{ record: WireRecord; id: string; wire: string }>(
    'service',
    (p) => `The service sent data that cannot be kept: ${p.wire} of ${p.record} ${p.id} is not a finite number.`,
  ),
  unreachable: spec<{ detail: string } & CauseParams>('network', (p) => p.detail),
  /**
   * TLS refused the service's certificate, said by what is wrong with it (the core words nothing): `waiting`
   * is the writes still in the outbox when a sync stopped at it, 0 elsewhere. The screens add where to trust
   * a certificate (Connection settings), the command line how (connect --trust-certificate).
   */
  certificateUntrusted: spec<{ fingerprint: string; waiting: number }>(
    'certificate',
    (p) =>
      `The service's certificate is not signed by an authority this computer trusts (self-signed?). Its SHA-256 fingerprint is ${p.fingerprint}.${stillWaiting(p.waiting)}`,
  ),
  certificateUntrustedUnread: spec<{ waiting: number }>(
    'certificate',
    (p) => `The service's certificate is not signed by an authority this computer trusts (self-signed?).${stillWaiting(p.waiting)}`,
  ),
  certificateChanged: spec<{ pinned: string; seen: string; waiting: number }>(
    'certificate',
    (p) => `The service's certificate has changed: you trusted ${p.pinned}, it now presents ${p.seen}.${stillWaiting(p.waiting)}`,
  ),
  certificateExpired: spec<{ host: string; validFrom: string; validTo: string; waiting: number }>(
    'certificate',
    (p) =>
      `The service's certificate is not valid for ${p.host}: it is valid from ${p.validFrom} to ${p.validTo}.${stillWaiting(p.waiting)}`,
  ),
  certificateNotYetValid: spec<{ host: string; validFrom: string; waiting: number }>(
    'certificate',
    (p) => `The service's certificate is not valid for ${p.host}: it is valid only from ${p.validFrom}.${stillWaiting(p.waiting)}`,
  ),
  certificateOtherHost: spec<{ host: string; waiting: number }>(
    'certificate',
    (p) =>
      `The service's certificate is not valid for ${p.host}: it was issued for another address than ${p.host}.${stillWaiting(p.waiting)}`,
  ),
  certificateRevoked: spec<{ host: string; waiting: number }>(
    'certificate',
    (p) => `The service's certificate for ${p.host} has been revoked.${stillWaiting(p.waiting)}`,
  ),
  certificateInvalid: spec<{ host: string; check: string; waiting: number }>(
    'certificate',
    (p) => `The service's certificate is not valid for ${p.host}: its verification failed with ${p.check}.${stillWaiting(p.waiting)}`,
  ),
  /** Why a sync stopped (the summary's error, beside its errorCode); `waiting`: writes still in the outbox to be sent. */
  syncCancelled: spec<{ waiting: number }>('cancelled', (p) => `The sync was cancelled; nothing is lost.${stillWaiting(p.waiting)}`),
  syncPastDeadline: spec<{ seconds: number; waiting: number }>(
    'network',
    (p) => `The sync did not finish within ${p.seconds} s and was stopped; nothing is lost.${stillWaiting(p.waiting)}`,
  ),
  serviceUnavailable: spec<{ waiting: number; detail: string } & CauseParams>(
    'network',
    (p) => `The service is unavailable${waitingClause(p.waiting)}. ${p.detail}`,
  ),
  proxyUnavailable: spec<{ waiting: number; detail: string } & CauseParams>(
    'network',
    (p) => `The service cannot be reached through the proxy${waitingClause(p.waiting)}. ${p.detail}`,
  ),
  syncUnexpected: spec('internal', () => 'The sync failed unexpectedly.'),

  // ---- files: import, backup, the local copy
  csvEmpty: spec('invalid-input', () => 'The file is empty.'),
  csvTooManyColumns: spec<{ line: number; columns: number }>('invalid-input', (p) => `Line ${p.line} has more than ${p.columns} columns.`),
  csvTooManyRows: spec<{ rows: number }>(
    'invalid-input',
    (p) => `The file has more than ${p.rows.toLocaleString('en')} rows; import it in parts.`,
  ),
  csvQuoteOpen: spec<{ line: number }>('invalid-input', (p) => `Line ${p.line}: a quoted field is not closed.`),
  csvAfterQuote: spec<{ line: number }>('invalid-input', (p) => `Line ${p.line}: text follows the closing quote of a field.`),
  /** `field` the refueling field, `words` how the English names it ("odometer"); `first`, `second` likewise. */
  mappingBeyondFile: spec<{ field: string; words: string; column: number; columns: number }>(
    'invalid-input',
    (p) => `The ${p.words} is mapped to column ${p.column}, but the file has ${p.columns} columns.`,
  ),
  mappingTwice: spec<{ column: number; first: string; firstWords: string; second: string; secondWords: string }>(
    'invalid-input',
    (p) => `Column ${p.column} is mapped to both the ${p.firstWords} and the ${p.secondWords}.`,
  ),
  importNotDate: spec<{ value: string }>('invalid-input', (p) => `${p.value} is not a date such as 2026-11-21 14:05 or 21.11.2026 14:05.`),
  importNotRealDate: spec<{ value: string }>('invalid-input', (p) => `${p.value} is not a real date and time.`),
  importNotNumber: spec<{ value: string }>('invalid-input', (p) => `${p.value} is not a number.`),
  importNotWholeNumber: spec<{ value: string }>('invalid-input', (p) => `${p.value} is not a whole number.`),
  importUnknownCurrency: spec<{ value: string }>(
    'invalid-input',
    (p) => `${p.value} is not a currency the app knows (use a code such as CZK, EUR or 203).`,
  ),
  importNotYesNo: spec<{ value: string }>('invalid-input', (p) => `${p.value} is neither yes nor no.`),
  importMissing: spec<{ field: string; words: string }>('invalid-input', (p) => `the ${p.words} is missing.`),
  /** A row of other than the header's number of cells: its cells cannot be told apart right (another separator, a stray one). */
  importCellCount: spec<{ cells: number; columns: number }>(
    'invalid-input',
    (p) => `The row has ${p.cells} cell(s) where the header has ${p.columns} column(s): is it separated by another character?`,
  ),
  importNoColumn: spec<{ field: string; words: string }>('invalid-input', (p) => `No column is chosen for the ${p.words}.`),
  nothingToImport: spec<{ rows: number; problems: number; duplicates: number }>(
    'rule',
    (p) => `Nothing to import: of ${p.rows} row(s), ${p.problems} have problems and ${p.duplicates} are already there.`,
  ),
  importLineRefused: spec<{ line: number; reason: string }>('rule', (p) => `Line ${p.line}: ${p.reason} Nothing was imported.`),
  backupNotSqlite: spec('invalid-input', () => 'The file is not a backup of this app: it is not an SQLite database.'),
  backupUnopenable: spec('invalid-input', () => 'The file is not a backup of this app: SQLite cannot open it.'),
  backupDamaged: spec('invalid-input', () => 'The backup is damaged (the database fails its integrity check).'),
  backupNewer: spec<{ version: number; newest: number }>(
    'rule',
    (p) =>
      `The backup was made by a newer version of the app (schema ${p.version}; this version knows ${p.newest}). Update the app to restore it.`,
  ),
  backupLacks: spec<{ missing: string }>('invalid-input', (p) => `The file is not a backup of this app: it lacks ${p.missing}.`),
  backupForeign: spec('invalid-input', () => 'The backup is damaged or not a backup of this app.'),
  backupNotUpgradable: spec('invalid-input', () => 'The backup could not be brought up to this version of the app.'),
  backupTableDiffers: spec<{ table: string }>(
    'invalid-input',
    (p) => `The file is not a backup of this app: its table ${p.table} does not match this version's.`,
  ),
  backupInconsistent: spec(
    'invalid-input',
    () =>
      "The backup's records do not fit together (a reference to a missing record, or a value at odds with its record); nothing was restored.",
  ),
  noSafetyCopy: spec<{ file: string; folder: string }>(
    'rule',
    (p) =>
      `There is no sound safety copy of ${p.file} (they are kept in ${p.folder}); start a new local copy and restore a backup you made.`,
  ),
  nothingToRecover: spec(
    'rule',
    () => "The local copy opens and passes SQLite's check: there is nothing to recover, and nothing was changed.",
  ),
  /** The local copy's file or its folder cannot be written (a read-only disk or file, another user's copy): reads work. */
  localCopyReadOnly: spec<{ file: string }>(
    'rule',
    (p) =>
      `The local copy ${p.file} is read-only (the file or its folder cannot be written): it can be read, but nothing can be changed. Make it writable, or work on a copy of it where you can write.`,
  ),
  localCopyDamaged: spec<{ file: string; safetyCopy: string }>('damaged', (p) =>
    p.safetyCopy
      ? `The local copy ${p.file} is damaged and cannot be used. Recover it from its newest safety copy (${p.safetyCopy}) with the command line's "recover"; the damaged file is kept aside.`
      : `The local copy ${p.file} is damaged and cannot be used, and there is no safety copy of it; restore a backup you made into a new local copy.`,
  ),
  /** The file given as the local copy is not one (nothing in it was changed). */
  localFileIsFolder: spec<{ file: string }>(
    'rule',
    (p) => `${p.file} is a folder; give the local data file's path (for example ${p.file}/bookkeeping.sqlite).`,
  ),
  localFileUnreadable: spec<{ file: string; code: string }>('rule', (p) => `${p.file} cannot be read (${p.code}).`),
  localFileNotSqlite: spec<{ file: string }>(
    'rule',
    (p) => `${p.file} is not a SQLite database, so it is not a local copy of this app; nothing was changed. Choose another file.`,
  ),
  /** `applicationId`: the other program's mark in the file's header (hexadecimal), '' when it has none. */
  localFileForeign: spec<{ file: string; applicationId: string }>('rule', (p) =>
    p.applicationId
      ? `${p.file} is another program's database (application id 0x${p.applicationId}), not a local copy of this app; nothing was changed.`
      : `${p.file} is another program's SQLite database, not a local copy of this app; nothing was changed.`,
  ),
  localFileUnmarked: spec<{ file: string }>(
    'rule',
    (p) => `${p.file} is a SQLite database that is not marked as this app's local copy; nothing was changed.`,
  ),
  localFileUnopenable: spec<{ file: string }>(
    'rule',
    (p) => `${p.file} is damaged or not a SQLite database this app can read; nothing was changed.`,
  ),
  localFileNewer: spec<{ version: number; newest: number }>(
    'rule',
    (p) => `The local data file was written by a newer version of the app (schema ${p.version}; this version knows ${p.newest}).`,
  ),

  // ---- the edges
  /** An edge refused a call before the core saw it (not from the app, without this run's token...). */
  refused: spec<{ why: string }>('forbidden', (p) => (p.why ? `Refused: ${p.why}.` : 'Refused.')),
  requestTooLarge: spec('invalid-input', () => 'The request is too large.'),
  requestNotJson: spec('invalid-input', () => 'The request is not valid JSON.'),
  requestFailed: spec('internal', () => 'The request failed.'),
  noSuchMethod: spec<{ method: string }>('forbidden', (p) => `There is no app method called ${p.method}.`),
  notThroughApp: spec('forbidden', () => 'This page must be opened through the app or its browser shell.'),
  /** The page's token is not the browser shell's of this run: an address or a tab of an earlier run. */
  shellKeyStale: spec(
    'forbidden',
    () => 'This address holds the key of an earlier run of the browser shell: open the address it printed this time.',
  ),
  /** The browser shell's handover ticket was traded already, or has expired. */
  handoverSpent: spec(
    'forbidden',
    () =>
      'This link has opened the app already, or has waited too long: start the browser shell again, or open the address it prints without --open.',
  ),
  coreClosed: spec('internal', () => 'The app core is closed.'),
  apiUnavailable: spec('internal', () => 'The app API is not available.'),
  unexpectedAnswer: spec('internal', () => 'The app answered in an unexpected form.'),
  shellNotRunning: spec('internal', () => 'The local app server is not running.'),
  fileTooLarge: spec('invalid-input', () => 'The file is too large.'),
  bug: spec<{ log: string }>(
    'internal',
    (p) => `Something went wrong inside the app. The details are in the log${p.log ? `: ${p.log}` : ''}.`,
  ),
} as const;

export type ErrorCode = keyof typeof ERRORS;
/** The parameters of an error code, as its text takes them. */
export type ErrorParams<C extends ErrorCode> = Parameters<(typeof ERRORS)[C]['en']>[0];
export const ERROR_CODES = Object.keys(ERRORS) as ErrorCode[];
export const isErrorCode = (code: unknown): code is ErrorCode => typeof code === 'string' && Object.hasOwn(ERRORS, code);

/** An error's code with its parameters, typed together. */
export type ErrorOf<C extends ErrorCode = ErrorCode> = { [K in C]: { code: K; params: ErrorParams<K> } }[C];

/** The kind of an error code. */
export const errorKind = (code: ErrorCode): AppErrorKind => ERRORS[code].kind;

/** An error in English words, as the command line and the logs say it. */
export function englishText(code: ErrorCode, params: Record<string, ParamValue>, field?: string): string {
  const entry = ERRORS[code] as ErrorSpec<Params>;
  const text = entry.en(params);
  if (!entry.predicate) return text;
  return field ? `${field} ${text}` : `The input ${text}`;
}

/** An error's English words said after what it is about ("Column 3: …"): a validator's as a sentence ("must not be empty."). */
export function englishWords(code: ErrorCode, params: Record<string, ParamValue>): string {
  const entry = ERRORS[code] as ErrorSpec<Params>;
  return entry.en(params) + (entry.predicate ? '.' : '');
}

/** An error as it travels (IPC and HTTP keep no class identity); the renderer's adapter makes it an AppError again. */
export interface AppErrorData {
  code: ErrorCode;
  params: Record<string, ParamValue>;
  /** The input field it is about (`amount`, `name`), when it is about one. */
  field?: string;
}

/** The arguments of an error of a code: its parameters (optional where it has none), and the field it is about. */
export type ErrorArgs<C extends ErrorCode> =
  Record<never, never> extends ErrorParams<C> ? [params?: ErrorParams<C>, field?: string] : [params: ErrorParams<C>, field?: string];

export class AppError<C extends ErrorCode = ErrorCode> extends Error {
  override name = 'AppError';
  /** Not of type C: an AppError narrowed by instanceof keeps its code checked against the table. */
  readonly code: ErrorCode;
  readonly kind: AppErrorKind;
  readonly params: Record<string, ParamValue>;
  readonly field?: string;

  constructor(code: C, ...[params = {}, field]: ErrorArgs<C>) {
    super(englishText(code, params, field));
    this.code = code;
    this.kind = errorKind(code);
    this.params = params;
    if (field !== undefined) this.field = field;
  }

  /** The same error said of another field (a row's column, an outbox entry's field). */
  withField(field: string | undefined): AppError {
    return AppError.fromData({ code: this.code, params: this.params, ...(field === undefined ? {} : { field }) });
  }

  toData(): AppErrorData {
    return this.field === undefined
      ? { code: this.code, params: this.params }
      : { code: this.code, params: this.params, field: this.field };
  }

  static fromData(data: AppErrorData): AppError {
    return new (AppError as new (code: ErrorCode, params: Record<string, ParamValue>, field?: string) => AppError)(
      data.code,
      data.params,
      data.field,
    );
  }
}

/** The envelope every bridge call answers with, so that errors keep their code across IPC and HTTP. */
export type CallOutcome<T> = { ok: true; value: T } | { ok: false; error: AppErrorData };

export function isAppErrorData(value: unknown): value is AppErrorData {
  if (typeof value !== 'object' || value === null) return false;
  const d = value as AppErrorData;
  return isErrorCode(d.code) && typeof d.params === 'object' && d.params !== null;
}
