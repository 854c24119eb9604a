/**
 * One version per table of local data, moved when the core says that table changed (its data-changed
 * event names them: a write's tables, a sync's): a screen watches the versions of the tables it shows
 * (composables/refresh.ts) and reads again only when one of them moves.
 */
import { defineStore } from 'pinia';
import { reactive, ref } from 'vue';
import { DATA_TABLES, type DataTable } from '../../../src-shared/app-api';

export const useDataVersionsStore = defineStore('data-versions', () => {
  const versions = reactive(Object.fromEntries(DATA_TABLES.map((t) => [t, 0])) as Record<DataTable, number>);
  /**
   * The last sync as of which the core has said what changed (the status's last sync in its last change):
   * a screen whose tables that change left alone shows what that sync left (composables/first-sync.ts).
   */
  const reportedSync = ref<string | null>(null);

  /** The core's report of a change: these tables moved, as of the status's last sync. */
  function changed(tables: readonly DataTable[], lastSyncAt: string | null): void {
    reportedSync.value = lastSyncAt;
    for (const t of tables) versions[t]++;
  }

  /** Local data changed as a whole (a backup restored, a copy recovered, the core's events missed): every screen reads again. */
  function changedAll(): void {
    for (const t of DATA_TABLES) versions[t]++;
  }

  return { versions, reportedSync, changed, changedAll };
});
