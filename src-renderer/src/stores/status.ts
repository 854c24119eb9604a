/** Connection, sync and the outbox counters shown in the header. Fed by the core's events. */
import { defineStore } from 'pinia';
import { computed, reactive, ref } from 'vue';
import type {
  AppEvent,
  AppStatus,
  ConnectionReport,
  ConnectionState,
  DataTable,
  InputOf,
  SyncPhase,
  SyncSummary,
  AppError,
} from '../../../src-shared/app-api';
import { DATA_TABLES, connectionState, nextExchange, summaryOutcome } from '../../../src-shared/app-api';
import { api, toAppError } from '../api';
import { attentionCount, queuedCount } from '../logic/outbox';
import { createLoader, write } from './loader';

export interface SyncProgress {
  phase: SyncPhase;
  done: number;
  total: number;
}

/** The sync waits for the service to come back: until when, and why. */
export type SyncWait = Omit<Extract<AppEvent, { type: 'sync-waiting' }>, 'type'>;

export const useStatusStore = defineStore('status', () => {
  const status = ref<AppStatus | null>(null);
  const progress = ref<SyncProgress | null>(null);
  /** The last sync's summary while the banner shows it. */
  const summary = ref<SyncSummary | null>(null);
  /** Why the last press of Sync did not start or finish (busy, not connected, bridge down). */
  const syncError = ref<AppError | null>(null);
  /**
   * One version per table of local data, bumped when the core says that table changed: a screen watches
   * the versions of the tables it shows and re-reads only when one of them moves.
   */
  const versions = reactive(Object.fromEntries(DATA_TABLES.map((t) => [t, 0])) as Record<DataTable, number>);
  function bump(tables: readonly DataTable[]): void {
    for (const t of tables) versions[t]++;
  }
  const startingSync = ref(false);
  /** Set while the sync waits out a failure of the service before trying again. */
  const waiting = ref<SyncWait | null>(null);
  const cancelling = ref(false);
  /**
   * The password dialog: 'needed' when the password is kept nowhere (asked at each sync) or was
   * forgotten, 'refused' when the service did not accept it. Null while closed.
   */
  const passwordPrompt = ref<'needed' | 'refused' | null>(null);
  let unsubscribe: (() => void) | null = null;

  const loader = createLoader(
    () => api().getStatus(),
    (s) => (status.value = s),
  );

  const syncing = computed(() => startingSync.value || progress.value !== null || (status.value?.syncing ?? false));
  const queued = computed(() => queuedCount(status.value));
  const attention = computed(() => attentionCount(status.value));
  /** The connection badge: the last real exchange with the service, or the sync running now. */
  const connection = computed<ConnectionState | null>(() =>
    status.value ? connectionState(status.value, { syncing: syncing.value, waiting: waiting.value !== null }) : null,
  );
  /** The first sync of a connection runs: screens show its progress where they would say they are empty. */
  const firstSync = computed(() => syncing.value && !status.value?.lastSyncAt);
  /** First run: no connection stored and the user has not chosen to work offline. */
  const needsSetup = computed(() => status.value !== null && !status.value.configured && !status.value.workingOffline);

  /**
   * Until the core's status arrives (data-changed), the summary alone tells what the sync found: the last
   * sync moves only for one that went through, the exchange as the core records it. Applied for the event
   * and for the answer of the call, whichever comes first (the same summary twice changes nothing).
   */
  function finished(result: SyncSummary): void {
    if (!status.value) return;
    const { finishedAt, error } = result;
    // The exchange as the core records it (none for a sync that failed on this side).
    const outcome = summaryOutcome(result);
    status.value = {
      ...status.value,
      syncing: false,
      lastSync: result,
      lastSyncAt: error ? status.value.lastSyncAt : finishedAt,
      exchange: outcome ? nextExchange(status.value.exchange, { outcome, at: finishedAt, via: 'sync', error }) : status.value.exchange,
    };
  }

  function handleEvent(event: AppEvent): void {
    switch (event.type) {
      case 'sync-started':
        progress.value = { phase: 'push', done: 0, total: 0 };
        waiting.value = null;
        break;
      case 'sync-progress':
        progress.value = { phase: event.phase, done: event.done, total: event.total };
        waiting.value = null;
        break;
      case 'sync-waiting': {
        const { type: _type, ...wait } = event;
        waiting.value = wait;
        break;
      }
      case 'sync-finished':
        progress.value = null;
        waiting.value = null;
        cancelling.value = false;
        summary.value = event.summary;
        finished(event.summary);
        break;
      case 'data-changed':
        status.value = event.status;
        bump(event.tables);
        break;
    }
  }

  /** Reads the status and listens to the core's events (once). */
  async function init(): Promise<void> {
    unsubscribe ??= api().onEvent(handleEvent);
    await loader.load();
  }

  function dispose(): void {
    unsubscribe?.();
    unsubscribe = null;
  }

  /**
   * Runs a sync. Without a password where none is kept (the user chose to be asked at each sync), the
   * password dialog opens instead and its answer starts the sync.
   */
  async function sync(password?: string): Promise<SyncSummary | null> {
    if (syncing.value) return null;
    if (password === undefined && status.value?.connection?.rememberPassword === false) {
      passwordPrompt.value = 'needed';
      return null;
    }
    syncError.value = null;
    startingSync.value = true;
    try {
      const result = await api().sync(password === undefined ? undefined : { password });
      summary.value = result;
      finished(result);
      // No password kept (the browser shell after a restart): ask for it at once.
      if (result.errorCode === 'password-needed') passwordPrompt.value = 'needed';
      return result;
    } catch (e) {
      const error = toAppError(e);
      // A sync started elsewhere (the menu, another window) is already reporting through the events.
      if (error.kind !== 'busy') syncError.value = error;
      return null;
    } finally {
      startingSync.value = false;
      progress.value = null;
      waiting.value = null;
      cancelling.value = false;
      await loader.load();
      // Writes pushed and records pulled: every screen re-reads, even if the event stream is down.
      bump(DATA_TABLES);
    }
  }

  /** Opens the password dialog (the banner's action after a refused or missing password). */
  function askPassword(reason: 'needed' | 'refused'): void {
    passwordPrompt.value = reason;
  }

  /** The dialog's answer: closes it and syncs with that password (null: the user cancelled). */
  async function answerPassword(password: string | null): Promise<void> {
    passwordPrompt.value = null;
    if (password === null) return;
    summary.value = null;
    await sync(password);
  }

  /** Cancels the running sync: what is queued stays queued; the summary says so. */
  async function cancelSync(): Promise<void> {
    if (!syncing.value || cancelling.value) return;
    cancelling.value = true;
    try {
      await api().cancelSync();
    } catch (e) {
      syncError.value = toAppError(e);
      cancelling.value = false;
    }
  }

  /** Local data changed as a whole (a backup restored, a copy recovered): every screen reads again. */
  function markDataChanged(): void {
    bump(DATA_TABLES);
  }

  function dismissSummary(): void {
    summary.value = null;
    syncError.value = null;
  }

  const testConnection = (input: InputOf<'testConnection'>): Promise<ConnectionReport> => write(() => api().testConnection(input));

  async function connect(input: InputOf<'connect'>): Promise<AppStatus> {
    status.value = await write(() => api().connect(input));
    return status.value;
  }

  async function workOffline(): Promise<AppStatus> {
    status.value = await write(() => api().workOffline());
    return status.value;
  }

  return {
    status,
    progress,
    summary,
    syncError,
    versions,
    syncing,
    waiting,
    cancelling,
    passwordPrompt,
    connection,
    firstSync,
    askPassword,
    answerPassword,
    queued,
    attention,
    needsSetup,
    loading: loader.loading,
    error: loader.error,
    refresh: loader.load,
    init,
    dispose,
    handleEvent,
    sync,
    cancelSync,
    dismissSummary,
    markDataChanged,
    testConnection,
    connect,
    workOffline,
  };
});
