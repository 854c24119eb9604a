/** Loads what a screen shows when it opens and again whenever the core says local data changed. */
import { onMounted, watch } from 'vue';
import { useStatusStore } from '../stores/status';

export function useDataRefresh(load: () => Promise<unknown> | void): void {
  const status = useStatusStore();
  onMounted(() => void load());
  watch(
    () => status.dataVersion,
    () => void load(),
  );
}
