/**
 * The connection badge: derived from the last real exchange with the service (kept by the core) and from
 * the sync running now, never from a flag that an exchange could leave stale. One function, for the header
 * and for the tests.
 */
import type { AppErrorData } from './errors';
import type { AppStatus, ExchangeOutcome, LastExchange, SyncErrorCode, SyncSummary } from './views';

export type ConnectionStateKind = 'not-connected' | 'unchecked' | 'syncing' | ExchangeOutcome;

export interface ConnectionState {
  kind: ConnectionStateKind;
  /** When the exchange that decided the state ended; null when none did (not connected, not checked yet, waiting now). */
  at: string | null;
  /** When an exchange last went through; null: never. */
  lastSuccessAt: string | null;
  /** Why the exchange failed, as data; null when it did not. */
  error: AppErrorData | null;
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
  if (!status.configured) return { kind: 'not-connected', at: null, lastSuccessAt: null, error: null };
  // The sync's last request failed for a moment: that is the newest exchange, whatever was recorded before.
  if (live.waiting) return { kind: 'unreachable', at: null, lastSuccessAt, error: null };
  if (live.syncing) return { kind: 'syncing', at: null, lastSuccessAt, error: null };
  if (!last) return { kind: 'unchecked', at: null, lastSuccessAt: null, error: null };
  return { kind: last.outcome, at: last.at, lastSuccessAt, error: last.error };
}

/**
 * The outcome of an exchange that ended with the given sync error code (null: it went through). Null when
 * no exchange with the service decided it: cancelled by the user, no connection, no password to send.
 */
export function outcomeOf(code: SyncErrorCode | null): ExchangeOutcome | null {
  switch (code) {
    case null:
      return 'connected';
    case 'unavailable':
      return 'unreachable';
    case 'auth':
      return 'credentials-refused';
    case 'certificate':
      return 'certificate-refused';
    case 'service':
      return 'service-error';
    case 'cancelled':
    case 'not-connected':
    case 'password-needed':
      return null;
  }
}

/**
 * The outcome of the exchange a sync's summary tells of; null where none decided it, and where the sync
 * failed on this side (a bug: no word about the service).
 */
export function summaryOutcome(summary: Pick<SyncSummary, 'errorCode' | 'error'>): ExchangeOutcome | null {
  return summary.error?.code === 'syncUnexpected' ? null : outcomeOf(summary.errorCode);
}

/** The record after an exchange: its outcome, the time of the last success carried over from earlier ones. */
export function nextExchange(previous: LastExchange | null, exchange: Omit<LastExchange, 'lastSuccessAt'>): LastExchange {
  return { ...exchange, lastSuccessAt: exchange.outcome === 'connected' ? exchange.at : (previous?.lastSuccessAt ?? null) };
}
