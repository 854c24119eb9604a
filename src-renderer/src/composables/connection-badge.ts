/** The connection badge: the last real exchange with the service as the status records it, or the sync running now. */
import { computed, type ComputedRef } from 'vue';
import { connectionState, type ConnectionState } from '../../../src-shared/app-api';
import { useStatusStore } from '../stores/status';
import { useSyncStore } from '../stores/sync';

export function useConnectionBadge(): ComputedRef<ConnectionState | null> {
  const status = useStatusStore();
  const sync = useSyncStore();
  return computed(() => (status.status ? connectionState(status.status, { syncing: sync.syncing, waiting: sync.waiting !== null }) : null));
}
