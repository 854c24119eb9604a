/** The zone of the core's own wall-clock times (AppStatus.timeZone), for showing them in the viewer's zone. */
import { computed, type ComputedRef } from 'vue';
import { useStatusStore } from '../stores/status';

/** The core's zone; the viewer's own until the core's status has been read. */
export function useCoreZone(): ComputedRef<string> {
  const status = useStatusStore();
  return computed(() => status.status?.timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone);
}
