/** How the outbox screen orders and counts entries. */
import type { AppStatus, OutboxEntryView, OutboxStatus } from '../../../src-shared/app-api';

/**
 * Entries that need the user: the service refused them, they conflict, the sync could not tell whether they
 * arrived (undecidable: sent again only on the user's word, since they may already be on the service), or
 * they wait on one that does.
 */
export const ATTENTION: readonly OutboxStatus[] = ['refused', 'conflict', 'undecidable', 'blocked'];

/** Whether the entry waits for the user rather than for the next sync. */
export const needsAttention = (e: OutboxEntryView): boolean => ATTENTION.includes(e.status);

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
  return o.pending + o.unknown + o.undecidable + o.refused + o.conflicts + o.blocked;
}

/** Writes the user must act on themselves (blocked ones follow from these). */
export function attentionCount(status: AppStatus | null): number {
  return status ? status.outbox.refused + status.outbox.conflicts + status.outbox.undecidable : 0;
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
