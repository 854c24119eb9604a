/** Queued writes: their state, the service's messages, and what the user can do with each. */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { OutboxEntryView } from '../../../src-shared/app-api';
import { api } from '../api';
import { splitOutbox } from '../logic/outbox';
import { createLoader, write } from './loader';

export const useOutboxStore = defineStore('outbox', () => {
  const entries = ref<OutboxEntryView[]>([]);
  const loader = createLoader(
    () => api().listOutbox(),
    (list) => (entries.value = list),
  );
  const groups = computed(() => splitOutbox(entries.value));

  async function apply(run: () => Promise<OutboxEntryView[]>): Promise<void> {
    entries.value = await write(run);
  }

  return {
    entries,
    groups,
    loading: loader.loading,
    loaded: loader.loaded,
    error: loader.error,
    load: loader.load,
    retry: (id: number) => apply(() => api().retryOutbox({ id })),
    discard: (id: number) => apply(() => api().discardOutbox({ id })),
    update: (id: number, input: Record<string, unknown>) => apply(() => api().updateOutbox({ id, input })),
    resolve: (id: number, choices: Record<string, 'mine' | 'theirs'>) => apply(() => api().resolveConflict({ id, choices })),
  };
});
