/** Events the core pushes to the screens (sync progress, data changed by a sync or a write). */
import type { AppStatus, SyncSummary } from './views';

export type SyncPhase = 'push' | 'check' | 'pull' | 'rebuild';

export type AppEvent =
  | { type: 'sync-started' }
  | { type: 'sync-progress'; phase: SyncPhase; done: number; total: number }
  /**
   * The service failed for a moment: the sync waits until `until` (epoch ms), then tries again. `cause`
   * and `httpStatus` say why as data; `reason` in English words (command line, logs).
   */
  | { type: 'sync-waiting'; until: number; cause: 'network' | 'timeout' | 'unavailable' | 'malformed'; httpStatus: number | null; reason: string; attempt: number }
  | { type: 'sync-finished'; summary: SyncSummary }
  /** Local data changed: screens re-read what they show. */
  | { type: 'data-changed'; status: AppStatus };

export type AppEventListener = (event: AppEvent) => void;

/** What a bridge (preload or browser shell) offers the renderer besides the calls. */
export interface AppEventSource {
  onEvent(listener: AppEventListener): () => void;
}
