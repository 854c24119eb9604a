/**
 * The record of the last real exchange with the stored service, kept in the local copy so that every
 * window and the command line see the same: a sync, a test of the stored connection and connecting write
 * it; the connection badge is derived from it (src-shared/app-api/connection-state.ts).
 */
import { nextExchange, outcomeOf, type LastExchange, type SyncSummary } from '../../../src-shared/app-api';
import type { Store } from '../store/store';

export const LAST_EXCHANGE_KEY = 'lastExchange';
/** The summary of the last sync, and when a sync last went through. */
export const LAST_SYNC_KEY = 'lastSync';
export const LAST_SYNC_AT_KEY = 'lastSyncAt';

/** Keeps the outcome of an exchange as the last one; the time of the last success carries over from earlier ones. */
export function recordExchange(store: Store, exchange: Omit<LastExchange, 'lastSuccessAt'>): LastExchange {
  const next = nextExchange(lastExchange(store), exchange);
  store.setSetting(LAST_EXCHANGE_KEY, next);
  return next;
}

/**
 * The last exchange recorded. A copy made before exchanges were recorded has only its last sync's summary:
 * the exchange is read from it, so that an upgrade does not forget what the last sync found.
 */
export function lastExchange(store: Store): LastExchange | null {
  const kept = store.getSetting<LastExchange>(LAST_EXCHANGE_KEY);
  if (kept) return kept;
  const summary = store.getSetting<SyncSummary>(LAST_SYNC_KEY);
  const outcome = summary ? outcomeOf(summary.errorCode) : null;
  if (!summary || !outcome) return null;
  return { outcome, at: summary.finishedAt, via: 'sync', lastSuccessAt: store.getSetting<string>(LAST_SYNC_AT_KEY), message: summary.error };
}
