/**
 * The record of the last real exchange with the stored service, kept in the local copy so that every
 * window and the command line see the same: a sync, a test of the stored connection and connecting write
 * it; the connection badge is derived from it (src-shared/app-api/connection-state.ts).
 */
import { nextExchange, summaryOutcome, type LastExchange } from '../../../src-shared/app-api';
import type { Store } from '../store/store';

/** Keeps the outcome of an exchange as the last one; the time of the last success carries over from earlier ones. */
export function recordExchange(store: Store, exchange: Omit<LastExchange, 'lastSuccessAt'>): LastExchange {
  const next = nextExchange(lastExchange(store), exchange);
  store.settings.set('lastExchange', next);
  return next;
}

/**
 * The last exchange recorded. A copy made before exchanges were recorded has only its last sync's summary:
 * the exchange is read from it, so that an upgrade does not forget what the last sync found.
 */
export function lastExchange(store: Store): LastExchange | null {
  const kept = store.settings.get('lastExchange');
  if (kept) return kept;
  const summary = store.settings.get('lastSync');
  const outcome = summary ? summaryOutcome(summary) : null;
  if (!summary || !outcome) return null;
  return { outcome, at: summary.finishedAt, via: 'sync', lastSuccessAt: store.settings.get('lastSyncAt'), error: summary.error };
}
