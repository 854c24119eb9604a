/**
 * The core's events, each to the store it concerns: a sync's to the sync store, a change of local data
 * to the status and the data versions (so that only the screens showing the tables it names read again).
 */
import { defineStore } from 'pinia';
import type { AppEvent } from '../../../src-shared/app-api';
import { api } from '../api';
import { useDataVersionsStore } from './data-versions';
import { useStatusStore } from './status';
import { useSyncStore } from './sync';

export const useCoreEventsStore = defineStore('core-events', () => {
  const status = useStatusStore();
  const versions = useDataVersionsStore();
  const sync = useSyncStore();
  let unsubscribe: (() => void) | null = null;

  function handle(event: AppEvent): void {
    if (event.type === 'data-changed') {
      status.status = event.status;
      versions.changed(event.tables, event.status.lastSyncAt);
    } else sync.follow(event);
  }

  /** Listens to the core's events (once) and reads the status. */
  async function start(): Promise<void> {
    unsubscribe ??= api().onEvent(handle);
    await status.refresh();
  }

  function stop(): void {
    unsubscribe?.();
    unsubscribe = null;
  }

  return { start, stop, handle };
});
