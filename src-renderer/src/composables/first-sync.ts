/**
 * Whether an empty list on a screen may still be filled by the first sync: it runs now, or it went
 * through after the screen last read its data (the new data is on its way). Only then may the screen
 * say it is empty; until then it shows the sync's progress (FirstSyncProgress).
 */
import { computed, ref, type ComputedRef } from 'vue';
import type { DataTable } from '../../../src-shared/app-api';
import { useStatusStore } from '../stores/status';
import { useDataRefresh } from './refresh';

export function useFirstSyncAware(tables: readonly DataTable[], load: () => Promise<unknown>): ComputedRef<boolean> {
  const status = useStatusStore();
  /** The last sync the data on the screen was read after (null: before any). */
  const readAfter = ref<string | null>(null);
  useDataRefresh(tables, async () => {
    const at = status.status?.lastSyncAt ?? null;
    await load();
    readAfter.value = at;
  });
  return computed(() => status.firstSync || (status.status?.lastSyncAt ?? null) !== readAfter.value);
}
