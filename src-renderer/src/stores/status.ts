/** The core's status: the connection kept, the outbox's counts shown in the header, the last sync and exchange, a damaged copy. */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { AppStatus, SyncSummary } from '../../../src-shared/app-api';
import { nextExchange, summaryOutcome } from '../../../src-shared/app-api';
import { api } from '../api';
import { attentionCount, queuedCount } from '../logic/outbox';
import { createLoader } from './loader';

export const useStatusStore = defineStore('status', () => {
  const status = ref<AppStatus | null>(null);
  const loader = createLoader(
    () => api().getStatus(),
    (s) => (status.value = s),
  );

  const queued = computed(() => queuedCount(status.value));
  const attention = computed(() => attentionCount(status.value));
  /** First run: no connection stored and the user has not chosen to work offline. */
  const needsSetup = computed(() => status.value !== null && !status.value.configured && !status.value.workingOffline);
  /** No sync has gone through yet (or the status is not read yet): "everything is synced" would not be true. */
  const neverSynced = computed(() => !status.value?.lastSyncAt);

  /**
   * Until the core's status arrives (data-changed), the summary alone tells what the sync found: the last
   * sync moves only for one that went through, the exchange as the core records it. Applied for the event
   * and for the answer of the call, whichever comes first (the same summary twice changes nothing).
   */
  function sawSync(result: SyncSummary): void {
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

  return {
    status,
    queued,
    attention,
    needsSetup,
    neverSynced,
    loading: loader.loading,
    error: loader.error,
    refresh: loader.load,
    sawSync,
  };
});
