/**
 * Loads what a screen shows when it opens, and again whenever the core says that one of the tables it
 * shows changed (a refueling queued reloads the car screens, not the register; a sync that brought only
 * refuelings, the same).
 */
import { onMounted, watch } from 'vue';
import type { DataTable } from '../../../src-shared/app-api';
import { useDataVersionsStore } from '../stores/data-versions';

/** The versions of these tables as one value that moves when any of them does. */
export function versionKey(versions: Readonly<Record<DataTable, number>>, tables: readonly DataTable[]): string {
  return tables.map((t) => versions[t]).join(',');
}

export function useDataRefresh(tables: readonly DataTable[], load: () => Promise<unknown> | void): void {
  const data = useDataVersionsStore();
  onMounted(() => void load());
  watch(
    () => versionKey(data.versions, tables),
    () => void load(),
  );
}
