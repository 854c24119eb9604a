/**
 * Whether an empty list on a screen may still be filled by the first sync: it runs now, or it went
 * through after the screen last read its data and the new data is on its way (the core has not yet said
 * what the sync changed, or it changed the screen's tables and the screen is reading them again). Only
 * then may the screen say it is empty; until then it shows the sync's progress (FirstSyncProgress).
 */
import { computed, ref, type ComputedRef } from 'vue';
import type { DataTable } from '../../../src-shared/app-api';
import { useDataVersionsStore } from '../stores/data-versions';
import { useStatusStore } from '../stores/status';
import { useSyncStore } from '../stores/sync';
import { useDataRefresh, versionKey } from './refresh';

export function useFirstSyncAware(tables: readonly DataTable[], load: () => Promise<unknown>): ComputedRef<boolean> {
  const status = useStatusStore();
  const sync = useSyncStore();
  const data = useDataVersionsStore();
  /** The last sync and the versions of the tables as of the data on the screen (null: before any sync). */
  const read = ref<{ after: string | null; versions: string } | null>(null);
  useDataRefresh(tables, async () => {
    const seen = { after: status.status?.lastSyncAt ?? null, versions: versionKey(data.versions, tables) };
    await load();
    read.value = seen;
  });
  return computed(() => {
    const lastSync = status.status?.lastSyncAt ?? null;
    // The first sync of a connection runs.
    if (sync.syncing && lastSync === null) return true;
    if (read.value === null) return lastSync !== null;
    if (read.value.after === lastSync) return false;
    // A sync went through since the screen read: its data is on its way until the core has said what the
    // sync changed and the screen has read the tables that moved (a sync that moved none of them changed nothing here).
    return data.reportedSync !== lastSync || versionKey(data.versions, tables) !== read.value.versions;
  });
}
