/**
 * The connection badge: derived from the last real exchange with the service (kept by the core) and from
 * the sync running now, never from a flag that an exchange could leave stale. One function, for the header
 * and for the tests.
 */
import type { AppStatus, ExchangeOutcome } from './views';

export type ConnectionStateKind = 'not-connected' | 'unchecked' | 'syncing' | ExchangeOutcome;

export interface ConnectionState {
  kind: ConnectionStateKind;
  /** When the exchange that decided the state ended; null when none did (not connected, not checked yet, waiting now). */
  at: string | null;
  /** When an exchange last went through; null: never. */
  lastSuccessAt: string | null;
  /** Why the exchange failed, in the core's words; null when it did not. */
  message: string | null;
}

/** What the running sync shows between exchanges that the core records. */
export interface LiveSync {
  syncing: boolean;
  /** The running sync waits out a failure of the service (its last request found it unreachable). */
  waiting: boolean;
}

export function connectionState(status: Pick<AppStatus, 'configured' | 'exchange'>, live: LiveSync): ConnectionState {
  const last = status.exchange;
  const lastSuccessAt = last?.lastSuccessAt ?? null;
  if (!status.configured) return { kind: 'not-connected', at: null, lastSuccessAt: null, message: null };
  // The sync's last request failed for a moment: that is the newest exchange, whatever was recorded before.
  if (live.waiting) return { kind: 'unreachable', at: null, lastSuccessAt, message: null };
  if (live.syncing) return { kind: 'syncing', at: null, lastSuccessAt, message: null };
  if (!last) return { kind: 'unchecked', at: null, lastSuccessAt: null, message: null };
  return { kind: last.outcome, at: last.at, lastSuccessAt, message: last.message };
}
