/** How the outbox screen orders and counts entries. */
import type { AppStatus, OutboxEntryView, OutboxStatus } from '../../../src-shared/app-api';

/** Entries that need the user: the service refused them, they conflict, or they wait on one that does. */
export const ATTENTION: readonly OutboxStatus[] = ['refused', 'conflict', 'blocked'];

/**
 * A write sent without an answer whose arrival the sync could not check (the service's lists cannot show
 * it, e.g. a backdated refueling): the core marks it with a message and sends it again only on the
 * user's word, since it may already be on the service.
 */
export const isUndecided = (entry: OutboxEntryView): boolean => entry.status === 'unknown' && entry.message !== null;

/** Whether the entry waits for the user rather than for the next sync. */
export const needsAttention = (e: OutboxEntryView): boolean => ATTENTION.includes(e.status) || isUndecided(e);

export function splitOutbox(entries: readonly OutboxEntryView[]): { attention: OutboxEntryView[]; waiting: OutboxEntryView[] } {
  return {
    attention: entries.filter(needsAttention),
    waiting: entries.filter((e) => !needsAttention(e)),
  };
}

/** Writes not yet on the service, whatever their state. */
export function queuedCount(status: AppStatus | null): number {
  if (!status) return 0;
  const o = status.outbox;
  return o.pending + o.unknown + o.refused + o.conflicts + o.blocked;
}

export function attentionCount(status: AppStatus | null): number {
  return status ? status.outbox.refused + status.outbox.conflicts : 0;
}

/** Entries that would be left without the record an entry creates if it were discarded. */
export function dependentsOf(entries: readonly OutboxEntryView[], id: number): OutboxEntryView[] {
  const entry = entries.find((e) => e.id === id);
  if (!entry) return [];
  const ids = new Set(entry.dependents);
  return entries.filter((e) => ids.has(e.id));
}

/** The entry that holds a blocked one up: one it waits for that needs the user itself. */
export function blockerOf(entries: readonly OutboxEntryView[], id: number): OutboxEntryView | null {
  return entries.find((e) => e.dependents.includes(id) && needsAttention(e)) ?? null;
}
