/** Events the core pushes to the screens (sync progress, data changed by a sync or a write). */
import type { AppStatus, SyncSummary } from './views';

export type SyncPhase = 'push' | 'check' | 'pull' | 'rebuild';

export type AppEvent =
  | { type: 'sync-started' }
  | { type: 'sync-progress'; phase: SyncPhase; done: number; total: number }
  | { type: 'sync-finished'; summary: SyncSummary }
  /** Local data changed: screens re-read what they show. */
  | { type: 'data-changed'; status: AppStatus };

export type AppEventListener = (event: AppEvent) => void;

/** What a bridge (preload or browser shell) offers the renderer besides the calls. */
export interface AppEventSource {
  onEvent(listener: AppEventListener): () => void;
}
