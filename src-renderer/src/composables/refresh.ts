/**
 * Loads what a screen shows when it opens, and again whenever the core says that one of the tables it
 * shows changed (a refueling queued reloads the car screens, not the register).
 */
import { onMounted, watch } from 'vue';
import type { DataTable } from '../../../src-shared/app-api';
import { useStatusStore } from '../stores/status';

export function useDataRefresh(tables: readonly DataTable[], load: () => Promise<unknown> | void): void {
  const status = useStatusStore();
  onMounted(() => void load());
  watch(
    () => tables.map((t) => status.versions[t]).join(','),
    () => void load(),
  );
}
