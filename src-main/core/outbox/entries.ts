/**
 * Outbox entries: one write the user made, kept until the service has it. What each kind of write
 * refers to, creates and edits is in the table of write kinds (write-kinds/).
 */
import type { FieldConflict, OutboxKind, OutboxStatus, WriteInputOf } from '../../../src-shared/app-api';

export type RecordKind = 'account' | 'category' | 'refueling' | 'transaction';

/** Stored status; 'blocked' is never stored, it is derived from the entries an entry waits for. */
export type StoredStatus = Exclude<OutboxStatus, 'blocked'>;

/** Sent, with no answer stored: the next sync's check round looks for the write's effect (undecidable ones too). */
export const isSentUnanswered = (status: StoredStatus): boolean => status === 'unknown' || status === 'undecidable';

export interface OutboxEntry<K extends OutboxKind = OutboxKind> {
  id: number;
  kind: K;
  input: WriteInputOf<K>;
  /** Edits: the edited fields as they were when the edit began. */
  base: Record<string, string | number | boolean> | null;
  /** Temporary ids of the records this write creates (a transfer creates two transactions). */
  createdIds: number[];
  status: StoredStatus;
  message: string | null;
  conflicts: FieldConflict[];
  attempts: number;
  createdAt: string;
  sentAt: string | null;
  /** What existed on the service just before the last send (each write kind's own shape). */
  probe: unknown;
}

export type AnyEntry = { [K in OutboxKind]: OutboxEntry<K> }[OutboxKind];
