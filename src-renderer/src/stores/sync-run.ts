/**
 * What the sync running now is doing, as its events tell (whoever started it: this window, the menu,
 * another window): its phase and counts, a wait for the service to come back, a cancellation asked for.
 */
import { computed, ref } from 'vue';
import type { AppError, AppEvent, SyncPhase } from '../../../src-shared/app-api';
import { api, toAppError } from '../api';

export interface SyncProgress {
  phase: SyncPhase;
  done: number;
  total: number;
}

/** The sync waits for the service to come back: until when, and why. */
export type SyncWait = Omit<Extract<AppEvent, { type: 'sync-waiting' }>, 'type'>;

/** The events of a sync (a change of local data is the status's and the data versions'). */
export type SyncEvent = Exclude<AppEvent, { type: 'data-changed' }>;

/** `coreSyncing`: whether the core's status says a sync runs (one started elsewhere, before this window listened). */
export function createSyncRun(coreSyncing: () => boolean) {
  /** Set while this window's call to sync starts, before the core's first event. */
  const starting = ref(false);
  const progress = ref<SyncProgress | null>(null);
  /** Set while the sync waits out a failure of the service before trying again. */
  const waiting = ref<SyncWait | null>(null);
  const cancelling = ref(false);
  const syncing = computed(() => starting.value || progress.value !== null || coreSyncing());

  /** The sync is over (finished, or its call came back): nothing runs. */
  function ended(): void {
    starting.value = false;
    progress.value = null;
    waiting.value = null;
    cancelling.value = false;
  }

  function follow(event: SyncEvent): void {
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
        ended();
        break;
    }
  }

  /** Asks the core to cancel the running sync (what is queued stays queued); why it could not, if it could not. */
  async function cancel(): Promise<AppError | null> {
    cancelling.value = true;
    try {
      await api().cancelSync();
      return null;
    } catch (e) {
      cancelling.value = false;
      return toAppError(e);
    }
  }

  return { state: { syncing, progress, waiting, cancelling }, starting, follow, ended, cancel };
}
