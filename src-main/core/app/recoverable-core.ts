/**
 * The app core as the windowed shells (desktop, browser shell) hold it. A local copy that SQLite finds
 * damaged on disk does not stop the app: the status says `damaged` (with the safety copies there are),
 * every other method is refused with AppError('damaged'), and `recoverLocalCopy` puts the newest sound
 * safety copy in its place, or starts a new empty copy (to restore a backup into, or to sync afresh).
 * The damaged file is always kept aside, never deleted. A copy found damaged while the app runs
 * switches to the same state. The command line keeps its message and its `recover` command instead.
 */
import {
  APP_METHODS,
  APP_METHOD_NAMES,
  AppError,
  DATA_TABLES,
  DEFAULT_PREFERENCES,
  type AppEventListener,
  type AppMethod,
  type AppStatus,
  type DamagedCopy,
  type InputOf,
} from '../../../src-shared/app-api';
import { parse } from '../../../src-shared/validate';
import { localTimeZone } from '../../../src-shared/wire';
import { listSafetyCopies } from '../store/safety-copies';
import { createAppCore, openingError, type AppCore, type AppCoreOptions } from './app-core';
import { carryConnection, keptConnection, recoverFromSafetyCopy, startFreshCopy } from './recovery';

export function openRecoverableCore(options: AppCoreOptions): AppCore {
  const core = new RecoverableCore(options);
  const api: Record<string, unknown> = {};
  for (const method of APP_METHOD_NAMES) api[method] = (input?: unknown) => core.call(method, input);
  api.onEvent = (listener: AppEventListener) => core.onEvent(listener);
  api.close = () => core.close();
  api.safetyCopiesWritten = () => core.safetyCopiesWritten();
  return api as unknown as AppCore;
}

/** What the screens read of a copy that will not open: nothing but the damage. */
function damagedStatus(copy: DamagedCopy): AppStatus {
  return {
    configured: false,
    workingOffline: false,
    connection: null,
    outbox: { pending: 0, unknown: 0, undecidable: 0, refused: 0, conflicts: 0, blocked: 0 },
    syncing: false,
    lastSyncAt: null,
    lastSync: null,
    offline: false,
    exchange: null,
    damaged: copy,
    timeZone: localTimeZone(),
  };
}

/** The damaged file put right: the newest sound safety copy in its place, or a new copy keeping the connection. */
function repairFile(options: AppCoreOptions, from: InputOf<'recoverLocalCopy'>['from']): void {
  const { dataFile } = options;
  const store = options.store ?? {};
  if (from === 'safety-copy') {
    const done = recoverFromSafetyCopy(dataFile, store);
    options.appLog?.info('The local copy was damaged and was recovered from a safety copy', {
      file: dataFile,
      safetyCopy: done.restored.file,
      movedAside: done.movedAside,
      uncertainWrites: done.uncertainWrites,
    });
    return;
  }
  const connection = keptConnection(dataFile, store);
  const movedAside = startFreshCopy(dataFile, store);
  if (connection) carryConnection(dataFile, store, connection);
  options.appLog?.info('The local copy was damaged; a new empty copy was started', {
    file: dataFile,
    movedAside,
    connectionKept: connection !== null,
  });
}

/** The core over a copy that opened, or the damage of one that did not; the screens' listeners outlive either. */
class RecoverableCore {
  private readonly listeners = new Set<AppEventListener>();
  private inner: AppCore | null = null;
  private detach: (() => void) | null = null;
  private damage: { copy: DamagedCopy; error: AppError } | null = null;
  private closed = false;

  constructor(private readonly options: AppCoreOptions) {
    this.open();
  }

  onEvent(listener: AppEventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Resolves once the open core writes no safety copy in the background. */
  async safetyCopiesWritten(): Promise<void> {
    await this.inner?.safetyCopiesWritten();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    await this.closeInner();
  }

  /** A method of the app API: the inner core's, or while the copy is damaged, what the recovery screen needs. */
  async call(method: AppMethod, input: unknown): Promise<unknown> {
    if (this.closed) throw new AppError('coreClosed');
    if (method === 'recoverLocalCopy') {
      try {
        return await this.recover(parse(APP_METHODS.recoverLocalCopy.input, input, 'input'));
      } catch (e) {
        throw openingError(e, this.options);
      }
    }
    if (!this.inner) {
      // What the screens read to draw the recovery screen; everything else waits for the recovery.
      if (method === 'getStatus') return damagedStatus(this.damage!.copy);
      if (method === 'getPreferences') return { ...DEFAULT_PREFERENCES };
      throw this.damage!.error;
    }
    const call = this.inner[method] as (input?: unknown) => Promise<unknown>;
    try {
      return await call(input);
    } catch (e) {
      if (e instanceof AppError && e.kind === 'damaged') await this.becameDamaged(e);
      throw e;
    }
  }

  /** Every screen reads again: the copy, or the lack of one, is another. */
  private emit(status: AppStatus): void {
    for (const listener of this.listeners) listener({ type: 'data-changed', status, tables: [...DATA_TABLES] });
  }

  /** Opens the core; a damaged copy leaves the recoverable state instead of an error. */
  private open(): void {
    try {
      this.inner = createAppCore(this.options);
      this.detach = this.inner.onEvent((event) => this.listeners.forEach((listener) => listener(event)));
      this.damage = null;
    } catch (e) {
      if (!(e instanceof AppError && e.kind === 'damaged')) throw e;
      this.inner = null;
      this.damage = this.describeDamage(e);
    }
  }

  private describeDamage(error: AppError): { copy: DamagedCopy; error: AppError } {
    const { dataFile } = this.options;
    return { copy: { file: dataFile, safetyCopies: listSafetyCopies(dataFile).map(({ at, reason }) => ({ at, reason })) }, error };
  }

  private async closeInner(): Promise<void> {
    this.detach?.();
    this.detach = null;
    const closing = this.inner;
    this.inner = null;
    try {
      await closing?.close();
    } catch {
      // A file damaged under a running core may not even close cleanly; it is moved aside next.
    }
  }

  private async recover(input: InputOf<'recoverLocalCopy'>): Promise<AppStatus> {
    if (this.inner) return this.inner.recoverLocalCopy(input);
    repairFile(this.options, input.from);
    this.open();
    const status = this.inner ? await (this.inner as AppCore).getStatus() : damagedStatus(this.damage!.copy);
    this.emit(status);
    return status;
  }

  /**
   * The core found the copy damaged while running (a page it read): it is closed and the app shows the
   * recovery screen, although the file might still open (the damage is past the pages read at opening).
   */
  private async becameDamaged(error: AppError): Promise<void> {
    await this.closeInner();
    this.damage = this.describeDamage(error);
    this.emit(damagedStatus(this.damage.copy));
  }
}
