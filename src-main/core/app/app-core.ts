/**
 * The app core: every method of the app API (APP_METHODS) over the local store, the outbox, the sync
 * engine and the SOAP client. The Electron shell, the browser shell, the command line and the screens
 * all sit on this one object. Each method validates its input again (defence in depth), throws only
 * AppError, and reports changes as AppEvents.
 */
import {
  APP_METHODS,
  APP_METHOD_NAMES,
  AppError,
  outcomeOf,
  WRITE_INPUT_SCHEMAS,
  type AppApi,
  type AppEvent,
  type AppEventListener,
  type AppEventSource,
  type AppMethod,
  type AppStatus,
  type ConnectionReport,
  type InputOf,
  type OutboxKind,
  type OutputOf,
  type Preferences,
  type SyncSummary,
  type WriteInputOf,
} from '../../../src-shared/app-api';
import { OPERATION_NAMES, isNamespaceUri, type Credentials, type OperationName } from '../../../src-shared/catalog';
import { localTimeZone, nowWall, type Binding } from '../../../src-shared/wire';
import { Outbox } from '../outbox/outbox';
import { analyzeDependencies, effectiveStatuses } from '../outbox/dependencies';
import { LocalView } from '../outbox/local-view';
import { LocalWrites } from '../outbox/writes';
import { SECRET_NAMES, type SecretName, type SecretPersistence, type SecretStore, type SecretStoreSource } from '../secrets';
import {
  connect as readService,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  SoapClient,
  CertificateError,
  addressWarnings,
  normalizeBaseUrl,
  pinnedFingerprint,
  type ServiceDescription,
  type TransportFactory,
} from '../soap-client';
import { Store, type StoreOptions } from '../store/store';
import { parse } from '../../../src-shared/validate';
import { resolveChoices } from '../write-kinds';
import { classify, SyncEngine, type SyncTuning } from '../sync/engine';
import type { StoredConnection } from '../store/settings';
import { lastExchange, recordExchange } from '../sync/exchanges';
import { fileHandlers } from '../files';
import { insightHandlers } from '../insights';
import { registerHandlers } from '../register';
import { carIdsSeen, checkCarId } from '../cars/car-ids';
import type { CoreParts, Handlers } from './core-parts';
import type { AppLog } from '../log/app-log';
import { toAppError } from './errors';
import { accountsView, carRefuelingsView, carsView, categoryTreeView, outboxView, templatesView, transactionPage } from './read-views';

export interface AppCoreOptions {
  /** The local SQLite file (created when missing). */
  dataFile: string;
  /** Where the client key and password live, or a factory given the core's ciphertext persistence. */
  secrets: SecretStoreSource;
  /** Zone for local times (outbox entries, summaries) and for dateTimes a service sends with an offset. */
  timeZone?: string;
  /** Time limit of one SOAP call. */
  timeoutMs?: number;
  /** Cap on one SOAP answer. */
  maxResponseBytes?: number;
  /** Timing and parallelism of sync (tests make them small). */
  sync?: Partial<SyncTuning>;
  /** What carries the SOAP exchanges: the desktop app passes Electron's network stack; default undici. */
  transport?: TransportFactory;
  store?: StoreOptions;
  /** Where unexpected errors are reported for developers (never shown to users). */
  log?: (message: string, error?: unknown) => void;
  /** The app's log file: unexpected errors go there (unless `log` is given), and messages name it. */
  appLog?: AppLog;
  /** The app's version and runtime, for diagnostics. */
  about?: { version: string; runtime: string };
}

export type AppCore = AppApi & AppEventSource & { close(): Promise<void> };

export type { StoredConnection } from '../store/settings';

export const DEFAULT_PREFERENCES: Preferences = {
  language: 'cs',
  theme: 'system',
  accountTypeLabels: {},
  transactionTypeLabels: {},
  lastCarId: null,
  lastCurrency: null,
};

/** The operations a working client needs one of (the "2" variant or its older one) or needs outright. */
const NEEDED: readonly (readonly OperationName[])[] = [
  ['AccountListWithAmount2', 'AccountListWithAmount'],
  ['TransactionListLast50_2', 'TransactionListLast50'],
  ['DefineTransactionList2', 'DefineTransactionList'],
  ['CategoryTree'],
  ['CarFuelList'],
  ['AddAccount'],
  ['EditAccount'],
  ['AddTranferToOtherAccount'],
  ['AddCategory'],
  ['EditCategory'],
  ['EditCarFuel'],
];

function serviceWarnings(d: ServiceDescription): string[] {
  const out = [...d.warnings];
  for (const group of NEEDED) {
    if (group.some((op) => d.operations.includes(op))) {
      if (group.length > 1 && !d.operations.includes(group[0]!)) out.push(`The service lacks ${group[0]}; the app uses the older ${group[1]}.`);
    } else out.push(`The service lacks ${group.join(' and ')}; what needs it will fail.`);
  }
  return out;
}

class Core {
  private readonly listeners = new Set<AppEventListener>();
  readonly store: Store;
  readonly outbox: Outbox;
  readonly view: LocalView;
  readonly writes: LocalWrites;
  readonly engine: SyncEngine;
  readonly secrets: SecretStore;
  private client: { key: string; client: SoapClient } | null = null;
  /** The password given for the sync running now (asked at each sync, or typed again after a refusal). */
  private syncPassword: string | null = null;
  private closed = false;
  private readonly timeZone: string;
  private readonly log: (message: string, error?: unknown) => void;

  constructor(private readonly options: AppCoreOptions) {
    this.timeZone = options.timeZone ?? localTimeZone();
    this.log = coreLog(options);
    this.store = new Store(options.dataFile, options.store);
    this.outbox = new Outbox(this.store);
    this.view = new LocalView(this.store, this.outbox);
    this.writes = new LocalWrites(this.store, this.outbox, this.view, () => this.now());
    const persistence: SecretPersistence = {
      read: (key) => this.store.settings.secret(key),
      write: (key, value) => this.store.settings.setSecret(key, value),
    };
    this.secrets = typeof options.secrets === 'function' ? options.secrets(persistence) : options.secrets;
    this.engine = new SyncEngine({
      store: this.store,
      outbox: this.outbox,
      client: () => this.soapClient(),
      now: () => this.now(),
      emit: (e) => this.emit(e),
      log: this.log,
      tuning: options.sync,
    });
  }

  now(): string {
    return nowWall(this.timeZone);
  }

  emit(event: AppEvent): void {
    for (const l of this.listeners) {
      try {
        l(event);
      } catch (e) {
        this.log('An event listener failed', e);
      }
    }
  }

  onEvent(listener: AppEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  async changed(): Promise<void> {
    if (this.listeners.size === 0 || this.closed) return;
    this.emit({ type: 'data-changed', status: await this.status() });
  }

  // ---- connection ----------------------------------------------------------------------------

  connection(): StoredConnection | null {
    return this.store.settings.get('connection');
  }

  private async hasSecret(name: SecretName): Promise<boolean> {
    const s = this.secrets as SecretStore & { has?: (n: SecretName) => Promise<boolean> };
    if (s.has) return s.has(name);
    return (await s.get(name)) !== null;
  }

  /** The client for the stored connection, reused between syncs for its kept-alive connections. */
  async soapClient(): Promise<SoapClient> {
    const c = this.connection();
    if (!c) throw new AppError('notConnected');
    const key = JSON.stringify(c);
    if (this.client?.key === key) return this.client.client;
    this.client?.client.close();
    const client = new SoapClient({
      baseUrl: c.baseUrl,
      namespace: c.namespace,
      binding: c.binding,
      timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxResponseBytes: this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      timeZone: this.timeZone,
      // As many kept-alive connections as a sync may have requests in flight.
      maxSockets: Math.max(this.engine.tuning.pushConcurrency, this.engine.tuning.pullConcurrency),
      ...this.carriage(c.trustedCertificate ?? null),
      available: c.operations ?? undefined,
      credentials: async () => {
        // The password first: where no keychain exists, the client key is sealed under it.
        const password = this.syncPassword ?? (c.rememberPassword === false ? null : await this.secrets.get('password'));
        if (!password) throw new AppError('passwordNeeded');
        await this.secrets.unlock?.(password);
        const clientKey = await this.secrets.get('clientKey');
        if (!clientKey) throw new AppError('clientKeyUnavailable');
        return { clientKey, login: c.login, password };
      },
    });
    this.client = { key, client };
    return client;
  }

  async status(): Promise<AppStatus> {
    const c = this.connection();
    const entries = this.outbox.all();
    const counts = { pending: 0, unknown: 0, refused: 0, conflicts: 0, blocked: 0 };
    for (const s of effectiveStatuses(entries, analyzeDependencies(entries)).values()) {
      if (s.status === 'conflict') counts.conflicts++;
      else counts[s.status]++;
    }
    const remembered = c?.rememberPassword !== false;
    const needed = SECRET_NAMES.filter((n) => remembered || n !== 'password');
    const hasSecrets = c ? (await Promise.all(needed.map((n) => this.hasSecret(n)))).every(Boolean) : false;
    const exchange = c ? lastExchange(this.store) : null;
    return {
      configured: c !== null,
      workingOffline: this.store.settings.get('workingOffline'),
      connection: c
        ? { baseUrl: c.baseUrl, namespace: c.namespace, login: c.login, binding: c.binding, trustedCertificate: c.trustedCertificate ?? null, hasSecrets, rememberPassword: remembered }
        : null,
      outbox: counts,
      syncing: this.engine.running,
      lastSyncAt: this.store.settings.get('lastSyncAt'),
      lastSync: this.store.settings.get('lastSync'),
      offline: exchange?.outcome === 'unreachable',
      exchange,
      damaged: null,
    };
  }

  private base(raw: string): string {
    try {
      return normalizeBaseUrl(raw);
    } catch (e) {
      throw new AppError('badAddress', { detail: (e as Error).message }, 'baseUrl');
    }
  }

  /** A namespace set by hand goes into every request's XML and headers: it must be a URI. */
  private checkNamespace(raw: string | undefined): void {
    if (raw && !isNamespaceUri(raw)) {
      throw new AppError('badNamespace', {}, 'namespace');
    }
  }

  /** The transport and the certificate it accepts beside the authorities', for every exchange with the service. */
  private carriage(trustedCertificate: string | null): { transport?: TransportFactory; trustedCertificate: string | null } {
    return { ...(this.options.transport ? { transport: this.options.transport } : {}), trustedCertificate };
  }

  /** A fingerprint as typed, in canonical form (the schema has checked its spelling). */
  private fingerprint(raw: string | null | undefined): string | null {
    try {
      return pinnedFingerprint(raw);
    } catch (e) {
      throw new AppError('badFingerprint', { detail: (e as Error).message }, 'trustedCertificate');
    }
  }

  /** The trust given, or else the one kept for this same address (a test of the stored service needs no new trust). */
  private trustFor(baseUrl: string, given: string | null | undefined): string | null {
    if (given !== undefined) return this.fingerprint(given);
    const c = this.connection();
    return c && c.baseUrl === baseUrl ? (c.trustedCertificate ?? null) : null;
  }

  /**
   * The credentials a test of the connection sends: those typed, each one missing taken from the stored
   * connection when the test is of its address and login. Null when some are still missing. `stored`
   * says the test is of the stored connection as it is (nothing typed), so its outcome is the badge's.
   */
  private async testCredentials(baseUrl: string, input: InputOf<'testConnection'>): Promise<{ credentials: Credentials; stored: boolean } | null> {
    const c = this.connection();
    const login = input.login || c?.login;
    const ofStored = c !== null && c.baseUrl === baseUrl && login === c.login;
    const kept = async (name: SecretName): Promise<string | null> => {
      if (!ofStored || (name === 'password' && c.rememberPassword === false)) return null;
      try {
        return await this.secrets.get(name);
      } catch {
        // A keychain that cannot be read now: the test says the credentials are not checked.
        return null;
      }
    };
    const clientKey = input.clientKey || (await kept('clientKey'));
    const password = input.password || (await kept('password'));
    if (!clientKey || !login || !password) return null;
    return { credentials: { clientKey, login, password }, stored: ofStored && !input.clientKey && !input.password && !input.login };
  }

  /**
   * Tests a service address: reads its WSDL (namespace, operations), then makes one authenticated read
   * with the credentials given (or stored for this address) to tell "connected" from "credentials refused"
   * and "unreachable". A test of the stored connection as it is records its outcome for the badge.
   */
  async testConnection(input: InputOf<'testConnection'>): Promise<ConnectionReport> {
    const baseUrl = this.base(input.baseUrl);
    this.checkNamespace(input.namespace);
    const trusted = this.trustFor(baseUrl, input.trustedCertificate);
    const failed = (e: unknown, d: ServiceDescription | null): ConnectionReport => {
      const err = toAppError(e, this.log);
      const certificate = e instanceof CertificateError ? { reason: e.reason, presented: e.certificate, trusted: e.pinned } : null;
      return {
        ok: false,
        state: outcomeOf(classify(e).code) ?? 'service-error',
        baseUrl,
        namespace: input.namespace || d?.namespace || null,
        operations: d?.operations ?? [],
        missing: d?.missing ?? [...OPERATION_NAMES],
        warnings: d ? serviceWarnings(d) : addressWarnings(baseUrl),
        error: err.message,
        certificate,
      };
    };
    let description: ServiceDescription | null = null;
    let wsdlError: unknown = null;
    try {
      description = await readService(baseUrl, { timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS, ...this.carriage(trusted) });
    } catch (e) {
      wsdlError = e;
    }
    const creds = await this.testCredentials(baseUrl, input);
    const record = (report: ConnectionReport): ConnectionReport => {
      if (creds?.stored && report.state !== 'not-checked') {
        recordExchange(this.store, { outcome: report.state, at: this.now(), via: 'test', message: report.error });
        void this.changed();
      }
      return report;
    };
    // Without a WSDL only a namespace set by hand lets the credentials be tried; never past a refused certificate.
    const namespace = input.namespace || description?.namespace;
    if (wsdlError !== null && (!namespace || wsdlError instanceof CertificateError || !creds)) return record(failed(wsdlError, null));
    const reached: ConnectionReport = {
      ok: false,
      state: 'not-checked',
      baseUrl,
      namespace: namespace ?? null,
      operations: description?.operations ?? [],
      missing: description?.missing ?? [...OPERATION_NAMES],
      warnings: description ? serviceWarnings(description) : addressWarnings(baseUrl),
      error: null,
      certificate: null,
    };
    if (!creds) return reached;
    const c = this.connection();
    const probe = new SoapClient({
      baseUrl,
      namespace: namespace!,
      binding: input.binding ?? (c?.baseUrl === baseUrl ? c.binding : null) ?? this.store.settings.get('preferredBinding') ?? 'soap12',
      timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxResponseBytes: this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      timeZone: this.timeZone,
      ...this.carriage(trusted),
      available: description?.operations,
      credentials: creds.credentials,
    });
    try {
      await probe.listAccounts();
      return record({ ...reached, ok: true, state: 'connected' });
    } catch (e) {
      return record(failed(e, description));
    } finally {
      probe.close();
    }
  }

  async connect(input: InputOf<'connect'>): Promise<AppStatus> {
    if (this.engine.running) throw new AppError('syncRunningConnect');
    const baseUrl = this.base(input.baseUrl);
    this.checkNamespace(input.namespace);
    const trusted = this.trustFor(baseUrl, input.trustedCertificate);
    let description: ServiceDescription | null = null;
    try {
      description = await readService(baseUrl, { timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS, ...this.carriage(trusted) });
    } catch (e) {
      // A namespace set by hand lets a service without a readable WSDL be used; never one whose certificate is refused.
      if (!input.namespace || e instanceof CertificateError) throw toAppError(e, this.log);
    }
    const binding: Binding = input.binding ?? this.store.settings.get('preferredBinding') ?? 'soap12';
    const connection: StoredConnection = {
      baseUrl,
      namespace: input.namespace || description!.namespace,
      login: input.login,
      binding,
      operations: description ? description.operations : null,
      trustedCertificate: trusted,
      rememberPassword: input.rememberPassword ?? true,
    };
    // Check the credentials with a cheap read before keeping anything.
    const probe = new SoapClient({
      baseUrl,
      namespace: connection.namespace,
      binding,
      timeoutMs: this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
      maxResponseBytes: this.options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      timeZone: this.timeZone,
      ...this.carriage(trusted),
      available: connection.operations ?? undefined,
      credentials: { clientKey: input.clientKey, login: input.login, password: input.password },
    });
    try {
      await probe.listAccounts();
    } finally {
      probe.close();
    }
    const previous = this.connection();
    const sameData = previous && previous.baseUrl === baseUrl && previous.login === input.login;
    if (!sameData && previous) {
      const queued = this.outbox.count();
      if (queued > 0) {
        throw new AppError('outboxHoldsWrites', { count: queued, login: previous.login, address: previous.baseUrl });
      }
      this.store.clearServerCopy();
    }
    await this.secrets.unlock?.(input.password);
    if (connection.rememberPassword) await this.secrets.set('password', input.password);
    else await this.secrets.delete('password');
    await this.secrets.set('clientKey', input.clientKey);
    this.store.transaction(() => {
      this.store.settings.set('connection', connection);
      this.store.settings.set('workingOffline', false);
      // The probe was this connection's first exchange, and it went through.
      recordExchange(this.store, { outcome: 'connected', at: this.now(), via: 'connect', message: null });
    });
    this.client?.client.close();
    this.client = null;
    await this.changed();
    return this.status();
  }

  async workOffline(): Promise<AppStatus> {
    this.store.settings.set('workingOffline', true);
    await this.changed();
    return this.status();
  }

  preferences(): Preferences {
    return { ...DEFAULT_PREFERENCES, ...this.store.settings.get('preferences') };
  }

  async setPreferences(input: InputOf<'setPreferences'>): Promise<Preferences> {
    const { binding, ...rest } = input;
    const next: Preferences = { ...this.preferences() };
    for (const [k, v] of Object.entries(rest)) if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
    this.store.transaction(() => {
      this.store.settings.set('preferences', next);
      if (binding) {
        const c = this.connection();
        if (c) this.store.settings.set('connection', { ...c, binding });
        this.store.settings.set('preferredBinding', binding);
      }
    });
    return next;
  }

  // ---- writes and the outbox ---------------------------------------------------------------------

  async write<K extends OutboxKind>(kind: K, input: WriteInputOf<K>) {
    const result = this.writes.queue(kind, input);
    await this.changed();
    return result;
  }

  outboxEntries() {
    return outboxView(this.outbox.all());
  }

  entry(id: number) {
    const e = this.outbox.get(id);
    if (!e) throw new AppError('entryMissing', { id }, 'id');
    return e;
  }

  async retry(id: number) {
    const e = this.entry(id);
    // An unknown write with a message is one whose effect the sync could not look for: the user's
    // retry is the word to send it again (a plain unknown one is still to be checked by the next sync).
    if (e.status === 'refused' || e.status === 'conflict' || (e.status === 'unknown' && e.message !== null)) {
      this.store.transaction(() => this.outbox.setStatus(id, 'pending'));
      await this.changed();
    }
    return this.outboxEntries();
  }

  async discard(id: number) {
    this.entry(id);
    this.store.transaction(() => this.outbox.remove(id));
    await this.changed();
    return this.outboxEntries();
  }

  async update(id: number, raw: Record<string, unknown>) {
    const e = this.entry(id);
    const input = parse(WRITE_INPUT_SCHEMAS[e.kind], raw, 'input.input');
    this.writes.replace(id, input as WriteInputOf<OutboxKind>);
    await this.changed();
    return this.outboxEntries();
  }

  async resolve(id: number, choices: Partial<Record<string, 'mine' | 'theirs'>>) {
    const e = this.entry(id);
    if (e.status !== 'conflict') throw new AppError('noConflict', { id }, 'id');
    const fields = new Set(e.conflicts.map((c) => c.field));
    for (const key of Object.keys(choices)) {
      if (!fields.has(key)) throw new AppError('notInConflict', { field: key }, 'choices');
    }
    const open = [...fields].filter((f) => !choices[f]);
    if (open.length) throw new AppError('chooseSides', { fields: open.join(', ') }, 'choices');
    const { input, base } = resolveChoices(e, choices);
    this.store.transaction(() => this.outbox.replaceInput(id, input, base));
    await this.changed();
    return this.outboxEntries();
  }

  /**
   * One sync. A password given is used for this sync only; when the user lets the app remember it (and
   * the service did not refuse it), it replaces the stored one, so that typing it again after a
   * refusal mends the connection.
   */
  async sync(password?: string): Promise<SyncSummary> {
    // Checked before the password is set: the sync already running keeps the one it was given.
    if (this.engine.running) throw new AppError('syncRunning');
    this.syncPassword = password ?? null;
    let summary: SyncSummary;
    try {
      // Read afresh for this sync: the password given now, or the one stored.
      this.client?.client.forgetCredentials();
      summary = await this.engine.sync();
    } finally {
      this.syncPassword = null;
    }
    if (password !== undefined && summary.errorCode !== 'auth' && this.connection()?.rememberPassword !== false) {
      await this.secrets.set('password', password);
    }
    await this.changed();
    return summary;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.engine.stop();
    this.client?.client.close();
    this.store.close();
    this.listeners.clear();
  }

  assertOpen(): void {
    if (this.closed) throw new AppError('coreClosed');
  }

  // ---- the API table ------------------------------------------------------------------------------

  /** What the feature modules beyond the service's operations are built from. */
  parts(): CoreParts {
    return {
      store: this.store,
      outbox: this.outbox,
      view: this.view,
      writes: this.writes,
      now: () => this.now(),
      preferences: () => this.preferences(),
      assertIdle: () => {
        if (this.engine.running || this.engine.heldElsewhere()) throw new AppError('syncRunningTryLater');
      },
      changed: () => this.changed(),
      forgetClient: () => {
        this.client?.client.close();
        this.client = null;
      },
    };
  }

  handlers(): Handlers {
    const parts = this.parts();
    return {
      ...insightHandlers(parts),
      ...registerHandlers(parts),
      ...fileHandlers(parts),
      getStatus: () => this.status(),
      testConnection: (i) => this.testConnection(i),
      connect: (i) => this.connect(i),
      workOffline: () => this.workOffline(),
      getPreferences: async () => this.preferences(),
      setPreferences: (i) => this.setPreferences(i),
      listAccounts: async (i) => accountsView(this.view, i),
      listTransactions: async (i) => {
        if (!this.view.account(i.accountId)) throw new AppError('accountMissing', { id: i.accountId }, 'accountId');
        return transactionPage(this.store, this.view, {
          accountId: this.outbox.resolve(i.accountId),
          offset: i.offset ?? 0,
          limit: i.limit ?? 50,
          search: i.search,
        });
      },
      listTemplates: async () => templatesView(this.store, this.view),
      getCategoryTree: async () => categoryTreeView(this.store, this.view),
      listCars: async () => carsView(this.store, this.view),
      saveCar: async (i) => {
        this.store.saveCar(i.carId, i.name, this.now());
        await this.changed();
        return carsView(this.store, this.view);
      },
      removeCar: async (i) => {
        if (this.view.pendingCars().has(i.carId)) {
          throw new AppError('carHasPending', { carId: i.carId }, 'carId');
        }
        if (!this.store.removeCar(i.carId)) throw new AppError('carNotInList', { carId: i.carId }, 'carId');
        await this.changed();
        return carsView(this.store, this.view);
      },
      listRefuelings: async (i) => carRefuelingsView(this.store, this.view, i.carId),
      listCarIdsSeen: async () => carIdsSeen(this.store, this.view),
      checkCarId: (i) => checkCarId(i.carId, this.store, () => this.soapClient(), (e) => this.toAppError(e)),
      addAccount: (i) => this.write('addAccount', i),
      editAccount: (i) => this.write('editAccount', i),
      checkTransfer: async (i) => this.writes.checkTransfer(i),
      transfer: (i) => this.write('transfer', i),
      addCategory: (i) => this.write('addCategory', i),
      renameCategory: (i) => this.write('renameCategory', i),
      addRefueling: (i) => this.write('addRefueling', i),
      editRefueling: (i) => this.write('editRefueling', i),
      listOutbox: async () => this.outboxEntries(),
      retryOutbox: (i) => this.retry(i.id),
      discardOutbox: (i) => this.discard(i.id),
      updateOutbox: (i) => this.update(i.id, i.input),
      resolveConflict: (i) => this.resolve(i.id, i.choices),
      sync: (i) => this.sync(i?.password),
      recoverLocalCopy: async () => {
        throw new AppError('nothingToRecover');
      },
      cancelSync: async () => ({ cancelled: await this.engine.cancel() }),
      getDiagnostics: () => this.diagnostics(),
    };
  }

  toAppError(e: unknown): AppError {
    return toAppError(e, this.log, { dataFile: this.options.dataFile, logFile: this.options.appLog?.file ?? null });
  }

  /** Versions, platform, the connection (no secret), the last sync and the log's tail, as text to paste into a report. */
  async diagnostics(): Promise<{ text: string; logFile: string | null }> {
    const status = await this.status();
    const about = this.options.about ?? { version: 'unknown', runtime: `Node ${process.versions.node}` };
    const c = status.connection;
    const lines = [
      `Bookkeeping ${about.version} (${about.runtime}) on ${process.platform} ${process.arch}`,
      `Local copy: ${this.options.dataFile} (schema ${this.store.schemaVersion})`,
      c ? `Service: ${c.baseUrl} over ${c.binding}${c.trustedCertificate ? `, trusted certificate ${c.trustedCertificate}` : ''}` : 'Service: not connected',
      `Outbox: ${JSON.stringify(status.outbox)}`,
      `Last sync: ${status.lastSync ? JSON.stringify(status.lastSync) : 'never'}`,
    ];
    const log = this.options.appLog;
    if (log) lines.push(`Log: ${log.file}`, '--- the log\'s last 50 lines ---', log.tail(50));
    return { text: lines.join('\n'), logFile: log?.file ?? null };
  }
}

/** Where the core's errors are logged: the given function, else the app log, else the console. */
function coreLog(options: AppCoreOptions): (message: string, error?: unknown) => void {
  return options.log ?? (options.appLog ? (message, error) => options.appLog!.error(message, error) : (message, error) => console.error(message, error));
}

/** An error met before a core is open (opening the copy, recovering it) as the AppError the screens get. */
export function openingError(e: unknown, options: AppCoreOptions): AppError {
  return toAppError(e, coreLog(options), { dataFile: options.dataFile, logFile: options.appLog?.file ?? null });
}

/** Opens the local copy and returns the app core over it. */
export function createAppCore(options: AppCoreOptions): AppCore {
  let core: Core;
  try {
    core = new Core(options);
  } catch (e) {
    throw openingError(e, options);
  }
  const handlers = core.handlers() as Record<AppMethod, (input: unknown) => Promise<unknown>>;
  const api: Record<string, unknown> = {};
  for (const method of APP_METHOD_NAMES) {
    api[method] = async (input?: unknown) => {
      try {
        core.assertOpen();
        const parsed = parse(APP_METHODS[method].input, input, 'input');
        return await handlers[method](parsed);
      } catch (e) {
        throw core.toAppError(e);
      }
    };
  }
  api.onEvent = (listener: AppEventListener) => core.onEvent(listener);
  api.close = () => core.close();
  return api as unknown as AppCore;
}
