/**
 * The badge that knows: asks the core whether the service answers (no credentials, never a sync) when
 * the window gains focus, when the system goes on or off line, and while the badge says unreachable;
 * the timing is logic/reachability-watch.ts's, at most once a minute.
 */
import { defineStore } from 'pinia';
import { ref, watch, type WatchStopHandle } from 'vue';
import type { AppErrorData } from '../../../src-shared/app-api';
import { api, toAppError } from '../api';
import { useConnectionBadge } from '../composables/connection-badge';
import { createReachabilityWatch, type ReachabilityWatch, type WatchClock } from '../logic/reachability-watch';
import { useStatusStore } from './status';

const browserClock: WatchClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => window.setTimeout(run, ms),
  clearTimeout: (handle) => window.clearTimeout(handle),
};

/** Where the focus and the network's events come from: the window (a test gives its own). */
export type EventSource = Pick<Window, 'addEventListener' | 'removeEventListener'> & { document: Pick<Document, 'hasFocus'> };

export const useReachabilityStore = defineStore('reachability', () => {
  const status = useStatusStore();
  const badge = useConnectionBadge();
  /** The app API's refusal of the last check (the core closed...); the badge then stays as it was. */
  const error = ref<AppErrorData | null>(null);
  let timing: ReachabilityWatch | null = null;
  let unwatch: WatchStopHandle | null = null;

  async function check(): Promise<void> {
    try {
      const result = await api().checkReachability();
      error.value = null;
      // A check that recorded an exchange also sends data-changed; its answer carries the same status.
      status.status = result.status;
    } catch (e) {
      error.value = toAppError(e).toData();
    }
  }

  const onFocus = () => timing?.trigger('focus');
  const onOnline = () => timing?.trigger('online');
  const onOffline = () => timing?.trigger('offline');

  /** Starts watching (once): a first check now if the window has the focus. */
  function start(clock: WatchClock = browserClock, target: EventSource = window): void {
    if (timing) return;
    timing = createReachabilityWatch({ check, clock });
    target.addEventListener('focus', onFocus);
    target.addEventListener('online', onOnline);
    target.addEventListener('offline', onOffline);
    unwatch = watch(
      () => badge.value?.kind === 'unreachable',
      (unreachable) => timing?.setUnreachable(unreachable),
      { immediate: true },
    );
    if (target.document.hasFocus()) timing.trigger('focus');
  }

  function stop(target: EventSource = window): void {
    timing?.stop();
    timing = null;
    unwatch?.();
    unwatch = null;
    target.removeEventListener('focus', onFocus);
    target.removeEventListener('online', onOnline);
    target.removeEventListener('offline', onOffline);
  }

  return { error, start, stop };
});
