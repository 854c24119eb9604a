/**
 * The app core: every method of the app API (APP_METHODS) over the local store, the outbox, the sync
 * engine and the SOAP client. The Electron shell, the browser shell, the command line and the screens
 * all sit on this one object. This file is the facade: it opens the parts, puts together the handlers
 * of each concern (connection.ts, preference-handlers.ts, record-handlers.ts, outbox-handlers.ts,
 * sync-handlers.ts, status.ts, and the features beyond the service: insights/, register/, files/) and
 * validates each call's input again (defence in depth). Every method throws only AppError and reports changes as AppEvents.
 */
import {
  APP_METHODS,
  APP_METHOD_NAMES,
  AppError,
  DATA_TABLES,
  type AppApi,
  type DataTable,
  type AppEvent,
  type AppEventListener,
  type AppEventSource,
  type AppMethod,
} from '../../../src-shared/app-api';
import { parse } from '../../../src-shared/validate';
import { formatWall, instantToWall, localTimeZone, nowWall } from '../../../src-shared/wire';
import { budgetHandlers } from '../budgets';
import { carCostHandlers } from '../cars/handlers';
import { fileHandlers } from '../files';
import { insightHandlers } from '../insights';
import type { AppLog } from '../log/app-log';
import { LocalView } from '../outbox/local-view';
import { LocalWrites } from '../outbox/writes';
import { registerHandlers } from '../register';
import type { SecretPersistence, SecretStore, SecretStoreSource } from '../secrets';
import type { TransportFactory } from '../soap-client';
import { DamagedCopyError } from '../store/local-file';
import type { Outbox } from '../store/outbox';
import { Store, type StoreOptions } from '../store/store';
import { SyncEngine, type SyncTuning } from '../sync/engine';
import { connectionHandlers } from './connection';
import type { CoreServices, Handlers } from './core-parts';
import { toAppError } from './errors';
import { outboxHandlers } from './outbox-handlers';
import { preferenceHandlers, preferences } from './preference-handlers';
import { reachabilityHandlers } from './reachability';
import { recordHandlers } from './record-handlers';
import { ServiceLink } from './service-link';
import { coreStatus, diagnostics } from './status';
import { syncHandlers } from './sync-handlers';

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
  /** The least time between two checks that the service answers (default a minute; tests of the checks themselves set less). */
  reachabilityIntervalMs?: number;
  /** The clock (epoch ms) of the core's now and today (default the system's; tests of what is due today fix it). */
  clock?: () => number;
}

export type AppCore = AppApi &
  AppEventSource & {
    /** Closes the local copy once the safety copies being written in the background are done. */
    close(): Promise<void>;
    /** Resolves once no safety copy is being written in the background (a command about to end, a test). */
    safetyCopiesWritten(): Promise<void>;
  };

/** The core's parts and its events; the handlers of every concern are built from it. */
class Core implements CoreServices {
  private readonly listeners = new Set<AppEventListener>();
  readonly store: Store;
  readonly outbox: Outbox;
  readonly view: LocalView;
  readonly writes: LocalWrites;
  readonly engine: SyncEngine;
  readonly secrets: SecretStore;
  readonly link: ServiceLink;
  private closed = false;
  /** The daily safety copy's outcome, logged once it is known: closing waits for it. */
  private readonly dailyCopyLogged: Promise<void>;
  readonly timeZone: string;
  private readonly log: (message: string, error?: unknown) => void;

  constructor(private readonly options: AppCoreOptions) {
    this.timeZone = options.timeZone ?? localTimeZone();
    this.log = coreLog(options);
    this.store = new Store(options.dataFile, options.store);
    this.dailyCopyLogged = this.store.dailyCopy.then(() => {
      if (this.store.safetyCopyFailure) this.log('The daily safety copy could not be made', this.store.safetyCopyFailure);
    });
    this.outbox = this.store.outbox;
    this.view = new LocalView(this.store, this.outbox);
    this.writes = new LocalWrites(this.store, this.outbox, this.view, () => this.now());
    const persistence: SecretPersistence = {
      read: (key) => this.store.settings.secret(key),
      write: (key, value) => this.store.settings.setSecret(key, value),
    };
    this.secrets = typeof options.secrets === 'function' ? options.secrets(persistence) : options.secrets;
    this.link = new ServiceLink(this.store, this.secrets, {
      timeZone: this.timeZone,
      ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      ...(options.maxResponseBytes === undefined ? {} : { maxResponseBytes: options.maxResponseBytes }),
      ...(options.transport ? { transport: options.transport } : {}),
      maxSockets: () => Math.max(this.engine.tuning.pushConcurrency, this.engine.tuning.pullConcurrency),
    });
    this.engine = new SyncEngine({
      store: this.store,
      outbox: this.outbox,
      client: () => this.link.soapClient(),
      now: () => this.now(),
      emit: (e) => this.emit(e),
      log: this.log,
      tuning: options.sync,
    });
  }

  now(): string {
    return this.options.clock
      ? formatWall({ ...instantToWall(this.options.clock(), this.timeZone), millisecond: 0 })
      : nowWall(this.timeZone);
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

  async changed(tables: readonly DataTable[] = DATA_TABLES): Promise<void> {
    if (this.listeners.size === 0 || this.closed) return;
    this.emit({ type: 'data-changed', status: await this.status(), tables: [...tables] });
  }

  status() {
    return coreStatus(this);
  }

  preferences() {
    return preferences(this);
  }

  assertIdle(): void {
    if (this.engine.running || this.engine.heldElsewhere()) throw new AppError('syncRunningTryLater');
  }

  forgetClient(): void {
    this.link.forget();
  }

  toAppError(e: unknown): AppError {
    return toAppError(e, this.log, { dataFile: this.options.dataFile, logFile: this.options.appLog?.file ?? null });
  }

  assertOpen(): void {
    if (this.closed) throw new AppError('coreClosed');
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.engine.stop();
    this.link.forget();
    await this.store.copiesWritten();
    await this.dailyCopyLogged;
    this.store.close();
    this.listeners.clear();
  }

  /** Every method of the app API, by concern; the compiler checks that none is missing. */
  handlers(): Handlers {
    const about = this.options.about ?? { version: 'unknown', runtime: `Node ${process.versions.node}` };
    return {
      ...connectionHandlers(this),
      ...reachabilityHandlers(this, this.options.reachabilityIntervalMs),
      ...preferenceHandlers(this),
      ...recordHandlers(this),
      ...outboxHandlers(this),
      ...syncHandlers(this),
      ...insightHandlers(this),
      ...budgetHandlers(this),
      ...registerHandlers(this),
      ...fileHandlers(this),
      ...carCostHandlers(this),
      getStatus: () => this.status(),
      getDiagnostics: () => diagnostics(this, { ...about, dataFile: this.options.dataFile, log: this.options.appLog ?? null }),
      recoverLocalCopy: async () => {
        throw new AppError('nothingToRecover');
      },
    };
  }
}

/** Where the core's errors are logged: the given function, else the app log, else the console. */
function coreLog(options: AppCoreOptions): (message: string, error?: unknown) => void {
  return (
    options.log ??
    (options.appLog ? (message, error) => options.appLog!.error(message, error) : (message, error) => console.error(message, error))
  );
}

/** An error met before a core is open (opening the copy, recovering it) as the AppError the screens get. */
export function openingError(e: unknown, options: AppCoreOptions): AppError {
  // The damage goes to the log diagnostics names, with what SQLite said.
  if (e instanceof DamagedCopyError) coreLog(options)('The local copy is damaged', e);
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
        return await handlers[method](parse(APP_METHODS[method].input, input, 'input'));
      } catch (e) {
        throw core.toAppError(e);
      }
    };
  }
  api.onEvent = (listener: AppEventListener) => core.onEvent(listener);
  api.close = () => core.close();
  api.safetyCopiesWritten = () => core.store.copiesWritten();
  return api as unknown as AppCore;
}
