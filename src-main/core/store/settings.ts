/**
 * The settings the local copy keeps (the `settings` table), each written once here: its key, its schema
 * (valibot) and its default. Reads and writes are typed from this table: a value read is checked against
 * its schema, and one that does not fit (written by a buggy or foreign version) reads as the default
 * rather than as something of the wrong shape. `localOnly` settings belong to this machine rather than to
 * the data: a backup leaves them out and a restore keeps the current ones.
 *
 * The sealed secrets (`secret.<name>`) are a family of keys with one schema: the secret store names them.
 */
import Database from 'better-sqlite3';
import * as v from 'valibot';
import { isAppErrorData, type AppErrorData, type LastExchange, type Preferences, type SyncSummary } from '../../../src-shared/app-api';
import type { OperationName } from '../../../src-shared/catalog';
import { BINDINGS } from '../../../src-shared/wire/bindings';

interface Setting<T> {
  schema: v.GenericSchema<unknown, T>;
  fallback: T;
  localOnly?: true;
}

const setting = <T>(schema: v.GenericSchema<unknown, T>, fallback: T, localOnly?: 'local-only'): Setting<T> =>
  localOnly ? { schema, fallback, localOnly: true } : { schema, fallback };

const binding = v.picklist(BINDINGS);
const text = v.string();
const nullableText = v.nullable(v.string());

/** Connection settings (never the secrets). */
const connection = v.object({
  baseUrl: text,
  namespace: text,
  login: text,
  binding,
  /** Operations the WSDL listed; null when it could not be read (a hand-set namespace). */
  operations: v.nullable(
    v.array(
      v.pipe(
        v.string(),
        v.transform((s) => s as OperationName),
      ),
    ),
  ),
  /** SHA-256 fingerprint of the certificate the user trusted; absent in copies made before pinning existed. */
  trustedCertificate: v.optional(nullableText),
  /** false: the password is kept nowhere and asked at each sync; absent (older copies) means true. */
  rememberPassword: v.optional(v.boolean()),
});
export type StoredConnection = v.InferOutput<typeof connection>;

const labels = v.record(v.string(), v.string());
/** The preferences the user changed; the others are DEFAULT_PREFERENCES (src-shared/app-api/views.ts), laid under them by getPreferences. */
const preferences = v.partial(
  v.object({
    language: v.picklist(['cs', 'en']),
    theme: v.picklist(['light', 'dark', 'system']),
    accountTypeLabels: labels,
    transactionTypeLabels: labels,
    lastCarId: v.nullable(v.number()),
    lastCurrency: v.nullable(v.number()),
  }),
) satisfies v.GenericSchema<unknown, Partial<Preferences>>;

const learned = v.object({
  /** The transaction Type the service gave the last transfer. */
  transferType: v.nullable(v.number()),
  /** Whether the service books the source side of a transfer as a negative amount. */
  sourceNegative: v.nullable(v.boolean()),
  /** The permission the service gave the creator of a new account. */
  ownerPermission: v.nullable(v.number()),
});

const syncLock = v.object({ pid: v.number(), host: v.string(), start: v.optional(v.string()), at: v.number() });

/**
 * A sync's summary and the last exchange are the core's own records: checked for their shape's frame. Their
 * error is data ({ code, params }); a copy written before kept English words (summary.error, exchange.message),
 * which are dropped: the errorCode and the outcome still say what happened.
 */
const keptError = (x: unknown): AppErrorData | null => (typeof x === 'object' && x !== null && isAppErrorData(x) ? x : null);
const summary = v.pipe(
  v.custom<SyncSummary>(
    (x) =>
      typeof x === 'object' &&
      x !== null &&
      typeof (x as SyncSummary).finishedAt === 'string' &&
      typeof (x as SyncSummary).startedAt === 'string',
  ),
  // A summary kept before undecidable writes were counted apart counted them among the unknown.
  v.transform((x): SyncSummary => ({
    ...x,
    undecidable: typeof x.undecidable === 'number' ? x.undecidable : 0,
    // One kept before a summary said whether it was the first: later syncs word what they bring as changes.
    first: x.first === true,
    error: keptError(x.error),
  })),
);
const exchange = v.pipe(
  v.custom<LastExchange>(
    (x) =>
      typeof x === 'object' && x !== null && typeof (x as LastExchange).outcome === 'string' && typeof (x as LastExchange).at === 'string',
  ),
  v.transform((x): LastExchange => {
    const { message: _older, ...rest } = x as LastExchange & { message?: unknown };
    return { ...rest, error: keptError(rest.error) };
  }),
);

export const SETTINGS = {
  connection: setting(v.nullable(connection), null),
  preferences: setting<Partial<Preferences>>(preferences, {}),
  /** The user chose to work without a connection for now (first run done). */
  workingOffline: setting(v.boolean(), false),
  /** The binding chosen in the settings, for connections made later. */
  preferredBinding: setting(v.nullable(binding), null),
  /** The next temporary (negative) id for a record created offline; never handed out twice. */
  nextTempId: setting(v.pipe(v.number(), v.safeInteger(), v.maxValue(-1)), -1),
  /** Facts read back from the service's answers (outbox/learned.ts). */
  learned: setting(learned, { transferType: null, sourceNegative: null, ownerPermission: null }),
  /** The summary of the last sync, and when a sync last went through. */
  lastSync: setting(v.nullable(summary), null),
  lastSyncAt: setting(nullableText, null),
  /** The last real exchange with the service: this machine's news of it, newer than any backup's. */
  lastExchange: setting(v.nullable(exchange), null, 'local-only'),
  /** Who is syncing this file now (another window, the command line), with a heartbeat. */
  syncLock: setting(v.nullable(syncLock), null, 'local-only'),
  /** This local copy's identity, to tell its own backups from others'. */
  copyId: setting(nullableText, null, 'local-only'),
  /** Set in a backup file only: when it was made. */
  'backup.createdAt': setting(nullableText, null, 'local-only'),
} satisfies Record<string, Setting<unknown>>;

export type SettingKey = keyof typeof SETTINGS;
export type SettingValue<K extends SettingKey> = v.InferOutput<(typeof SETTINGS)[K]['schema']>;

/** Settings rows of the sealed secrets start with this. */
export const SECRET_PREFIX = 'secret.';

/**
 * The SQL condition of the settings a backup leaves out and a restore keeps as they are here: the secrets
 * and the local-only ones (this machine's, not the data's: the sync lock, the last exchange...).
 */
export const LOCAL_ONLY_CONDITION = `(substr(key, 1, ${SECRET_PREFIX.length}) = '${SECRET_PREFIX}' OR key IN (${Object.entries(SETTINGS)
  .filter(([, s]) => 'localOnly' in s)
  .map(([key]) => `'${key}'`)
  .join(', ')}))`;

interface Sql {
  sql(text: string): { get(...params: unknown[]): unknown; run(...params: unknown[]): unknown };
}

/** A settings row as the table keeps it: the value as JSON text. */
export interface SettingRow {
  key: string;
  value: string;
}

/** What a new copy keeps of a damaged one: the connection (address, login, namespace...), the preferences, and the sealed secrets. */
const KEPT_SETTINGS = `key IN ('connection', 'preferredBinding', 'preferences') OR substr(key, 1, ${SECRET_PREFIX.length}) = '${SECRET_PREFIX}'`;

/**
 * The settings a new copy keeps, read as they are from another file (a damaged copy, a safety copy), opened
 * read-only; throws where that file cannot be read there.
 */
export function keptSettingsOf(file: string, nativeBinding?: string): SettingRow[] {
  const db = new Database(file, { readonly: true, fileMustExist: true, ...(nativeBinding ? { nativeBinding } : {}) });
  try {
    return db.prepare(`SELECT key, value FROM settings WHERE ${KEPT_SETTINGS}`).all() as SettingRow[];
  } finally {
    db.close();
  }
}

/** The typed settings of one local copy. */
export class Settings {
  constructor(private readonly db: Sql) {}

  private read(key: string): unknown {
    const row = this.db.sql('SELECT value FROM settings WHERE key = ?').get(key) as { value: string } | undefined;
    if (!row) return undefined;
    try {
      return JSON.parse(row.value) as unknown;
    } catch {
      return undefined;
    }
  }

  private write(key: string, value: unknown): void {
    if (value === null || value === undefined) this.db.sql('DELETE FROM settings WHERE key = ?').run(key);
    else {
      this.db
        .sql('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value')
        .run(key, JSON.stringify(value));
    }
  }

  /** The setting's value; its default when it is not set or does not fit its schema. */
  get<K extends SettingKey>(key: K): SettingValue<K> {
    const spec = SETTINGS[key] as unknown as Setting<SettingValue<K>>;
    const raw = this.read(key);
    if (raw === undefined) return spec.fallback;
    const parsed = v.safeParse(spec.schema, raw);
    return parsed.success ? parsed.output : spec.fallback;
  }

  /** Sets a setting; null (where the setting allows it) removes it, so that it reads as its default. */
  set<K extends SettingKey>(key: K, value: SettingValue<K>): void {
    this.write(key, v.parse(SETTINGS[key].schema, value));
  }

  /** A sealed secret's ciphertext (opaque text), or null. */
  secret(name: string): string | null {
    const raw = this.read(SECRET_PREFIX + name);
    return typeof raw === 'string' ? raw : null;
  }

  setSecret(name: string, value: string | null): void {
    this.write(SECRET_PREFIX + name, value);
  }

  /** Writes rows as they are (settings carried over from another copy); each is checked against its schema when read. */
  putRows(rows: readonly SettingRow[]): void {
    const put = this.db.sql('INSERT OR REPLACE INTO settings (key, value) VALUES (?, ?)');
    for (const r of rows) put.run(r.key, r.value);
  }
}
