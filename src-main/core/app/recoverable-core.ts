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
import { listSafetyCopies } from '../store/safety-copies';
import { createAppCore, openingError, type AppCore, type AppCoreOptions } from './app-core';
import { carryConnection, keptConnection, recoverFromSafetyCopy, startFreshCopy } from './recovery';

export function openRecoverableCore(options: AppCoreOptions): AppCore {
  const { dataFile } = options;
  const listeners = new Set<AppEventListener>();
  let inner: AppCore | null = null;
  let detach: (() => void) | null = null;
  let damage: { copy: DamagedCopy; error: AppError } | null = null;
  let closed = false;

  const emit = (status: AppStatus) => {
    for (const listener of listeners) listener({ type: 'data-changed', status, tables: [...DATA_TABLES] });
  };

  /** Opens the core; a damaged copy leaves the recoverable state instead of an error. */
  function open(): void {
    try {
      inner = createAppCore(options);
      detach = inner.onEvent((event) => listeners.forEach((listener) => listener(event)));
      damage = null;
    } catch (e) {
      if (!(e instanceof AppError && e.kind === 'damaged')) throw e;
      inner = null;
      damage = describeDamage(e);
    }
  }

  function describeDamage(error: AppError): { copy: DamagedCopy; error: AppError } {
    return { copy: { file: dataFile, safetyCopies: listSafetyCopies(dataFile).map(({ at, reason }) => ({ at, reason })) }, error };
  }

  async function closeInner(): Promise<void> {
    detach?.();
    detach = null;
    const closing = inner;
    inner = null;
    try {
      await closing?.close();
    } catch {
      // A file damaged under a running core may not even close cleanly; it is moved aside next.
    }
  }

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
    };
  }

  async function recover(input: InputOf<'recoverLocalCopy'>): Promise<AppStatus> {
    if (inner) return inner.recoverLocalCopy(input);
    const store = options.store ?? {};
    if (input.from === 'safety-copy') {
      const done = recoverFromSafetyCopy(dataFile, store);
      options.appLog?.info('The local copy was damaged and was recovered from a safety copy', {
        file: dataFile,
        safetyCopy: done.restored.file,
        movedAside: done.movedAside,
        uncertainWrites: done.uncertainWrites,
      });
    } else {
      const connection = keptConnection(dataFile, store);
      const movedAside = startFreshCopy(dataFile, store);
      if (connection) carryConnection(dataFile, store, connection);
      options.appLog?.info('The local copy was damaged; a new empty copy was started', {
        file: dataFile,
        movedAside,
        connectionKept: connection !== null,
      });
    }
    open();
    const status = inner ? await (inner as AppCore).getStatus() : damagedStatus(damage!.copy);
    emit(status);
    return status;
  }

  /**
   * The core found the copy damaged while running (a page it read): it is closed and the app shows the
   * recovery screen, although the file might still open (the damage is past the pages read at opening).
   */
  async function becameDamaged(error: AppError): Promise<void> {
    await closeInner();
    damage = describeDamage(error);
    emit(damagedStatus(damage.copy));
  }

  open();
  const api: Record<string, unknown> = {};
  for (const method of APP_METHOD_NAMES) {
    api[method] = async (input?: unknown) => {
      if (closed) throw new AppError('coreClosed');
      if (method === 'recoverLocalCopy') {
        try {
          return await recover(parse(APP_METHODS.recoverLocalCopy.input, input, 'input'));
        } catch (e) {
          throw openingError(e, options);
        }
      }
      if (!inner) {
        // What the screens read to draw the recovery screen; everything else waits for the recovery.
        if (method === 'getStatus') return damagedStatus(damage!.copy);
        if (method === 'getPreferences') return { ...DEFAULT_PREFERENCES };
        throw damage!.error;
      }
      const call = inner[method as AppMethod] as (input?: unknown) => Promise<unknown>;
      try {
        return await call(input);
      } catch (e) {
        if (e instanceof AppError && e.kind === 'damaged') await becameDamaged(e);
        throw e;
      }
    };
  }
  api.onEvent = (listener: AppEventListener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  api.close = async () => {
    closed = true;
    listeners.clear();
    await closeInner();
  };
  return api as unknown as AppCore;
}
