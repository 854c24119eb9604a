/** Events the core pushes to the screens (sync progress, data changed by a sync or a write). */
import type { AppStatus, PulledCounts, SyncSummary } from './views';

export type SyncPhase = 'push' | 'check' | 'pull' | 'rebuild';

/**
 * What local data a change touched, by table, as the screens read it: a screen reloads only when a table
 * it shows changed (as TanStack Query invalidates by key). 'outbox': the queued writes; 'preferences':
 * the user's settings; 'budgets': the budgets kept here only.
 */
export const DATA_TABLES = [
  'accounts',
  'transactions',
  'templates',
  'categories',
  'cars',
  'refuelings',
  'outbox',
  'preferences',
  'budgets',
  // A car's other costs and reminders (kept on this computer only).
  'carCosts',
] as const;
export type DataTable = (typeof DATA_TABLES)[number];

/**
 * The tables a change of each kind of record the service keeps moves, as the screens show them: a
 * transaction moves its account's balance, a refueling its car's line. A sync's data-changed names these
 * for the records it brought; a queued write's kind touches those of its record.
 */
export const RECORD_TABLES = {
  accounts: ['accounts'],
  transactions: ['transactions', 'accounts'],
  templates: ['templates'],
  categories: ['categories'],
  refuelings: ['refuelings', 'cars'],
} as const satisfies Record<keyof PulledCounts, readonly DataTable[]>;

export type AppEvent =
  | { type: 'sync-started' }
  | { type: 'sync-progress'; phase: SyncPhase; done: number; total: number }
  /**
   * The service failed for a moment: the sync waits until `until` (epoch ms), then tries again. `cause`
   * and `httpStatus` say why as data; `reason` in English words (command line, logs).
   */
  | {
      type: 'sync-waiting';
      until: number;
      cause: 'network' | 'timeout' | 'unavailable' | 'malformed';
      httpStatus: number | null;
      reason: string;
      attempt: number;
    }
  | { type: 'sync-finished'; summary: SyncSummary }
  /** Local data changed: the status, and the tables that changed (none: only the status); screens showing them re-read. */
  | { type: 'data-changed'; status: AppStatus; tables: DataTable[] };

export type AppEventListener = (event: AppEvent) => void;

/** What a bridge (preload or browser shell) offers the renderer besides the calls. */
export interface AppEventSource {
  onEvent(listener: AppEventListener): () => void;
}
