/**
 * The outbox tables: ordered writes with their status, the temporary ids of records created offline and
 * the service's ids that replaced them (`id_map`), and the records this app created on the service
 * (`own_records`: an unknown outcome is never matched to one of them). Every method that changes more than
 * one row is meant to run inside the caller's Store.transaction, so that an outbox change and the local
 * copy's change are kept or lost together. What each kind of write refers to is the write kinds' to say
 * (write-kinds/outbox-port.ts rewrites the references when a create succeeds).
 */
import type { FieldConflict, OutboxKind, WriteInputOf } from '../../../src-shared/app-api';
import type { AnyEntry, RecordKind, StoredStatus } from '../outbox/entries';
import type { Prepare } from './record-sql';
import type { Settings } from './settings';

type OutboxRow = {
  id: number;
  kind: string;
  input: string;
  base: string | null;
  created_ids: string;
  status: string;
  message: string | null;
  conflicts: string | null;
  attempts: number;
  created_at: string;
  sent_at: string | null;
  probe: string | null;
};

function entryOf(r: OutboxRow): AnyEntry {
  return {
    id: r.id,
    kind: r.kind as OutboxKind,
    input: JSON.parse(r.input),
    base: r.base === null ? null : JSON.parse(r.base),
    createdIds: JSON.parse(r.created_ids),
    status: r.status as StoredStatus,
    message: r.message,
    conflicts: r.conflicts === null ? [] : (JSON.parse(r.conflicts) as FieldConflict[]),
    attempts: r.attempts,
    createdAt: r.created_at,
    sentAt: r.sent_at,
    probe: r.probe === null ? null : JSON.parse(r.probe),
  };
}

/** The entry was discarded or changed after the push read it. */
export class EntryChanged extends Error {
  override name = 'EntryChanged';
  constructor(readonly entryId: number) {
    super(`Outbox entry ${entryId} changed while it was being prepared.`);
  }
}

export class Outbox {
  constructor(
    private readonly sql: Prepare,
    private readonly settings: Settings,
  ) {}

  /** Entries in the order they were made. */
  all(): AnyEntry[] {
    return (this.sql('SELECT * FROM outbox ORDER BY id').all() as OutboxRow[]).map(entryOf);
  }

  get(id: number): AnyEntry | null {
    const r = this.sql('SELECT * FROM outbox WHERE id = ?').get(id) as OutboxRow | undefined;
    return r ? entryOf(r) : null;
  }

  count(): number {
    return this.sql('SELECT COUNT(*) FROM outbox').pluck().get() as number;
  }

  /** Fresh temporary ids: negative, never used before in this local copy. */
  allocateTempIds(n: number): number[] {
    const next = this.settings.get('nextTempId');
    this.settings.set('nextTempId', next - n);
    return Array.from({ length: n }, (_, i) => next - i);
  }

  append<K extends OutboxKind>(
    kind: K,
    input: WriteInputOf<K>,
    now: string,
    base: Record<string, unknown> | null = null,
    createdIds: number[] = [],
  ): number {
    const info = this.sql('INSERT INTO outbox (kind, input, base, created_ids, status, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
      kind,
      JSON.stringify(input),
      base === null ? null : JSON.stringify(base),
      JSON.stringify(createdIds),
      'pending',
      now,
    );
    return Number(info.lastInsertRowid);
  }

  /**
   * Records that the entry is about to be sent: from now on its outcome is unknown until an answer is
   * stored. Throws EntryChanged when the entry no longer holds `input` as a pending write (the user
   * discarded or changed it while the push prepared it), so that what is sent is always what is queued.
   */
  markSent(id: number, input: unknown, probe: unknown, now: string): void {
    const marked = this.sql(
      "UPDATE outbox SET status = 'unknown', attempts = attempts + 1, sent_at = ?, probe = ?, message = NULL WHERE id = ? AND status = 'pending' AND input = ?",
    ).run(now, JSON.stringify(probe ?? null), id, JSON.stringify(input));
    if (marked.changes === 0) throw new EntryChanged(id);
  }

  /** Whether the entry is still queued with this very write. */
  holds(id: number, input: unknown): boolean {
    return this.sql('SELECT 1 FROM outbox WHERE id = ? AND input = ?').pluck().get(id, JSON.stringify(input)) !== undefined;
  }

  setStatus(id: number, status: StoredStatus, message: string | null = null, conflicts: FieldConflict[] | null = null): void {
    this.sql('UPDATE outbox SET status = ?, message = ?, conflicts = ? WHERE id = ?').run(
      status,
      message,
      conflicts && conflicts.length ? JSON.stringify(conflicts) : null,
      id,
    );
  }

  /**
   * An entry an older copy brought back: its outcome is unknown (or undecidable) until the service's state
   * decides it, with the probe read from that copy (outbox/revive.ts).
   */
  revive(id: number, status: StoredStatus, message: string, probe: unknown): void {
    this.sql('UPDATE outbox SET status = ?, message = ?, probe = ?, conflicts = NULL WHERE id = ?').run(
      status,
      message,
      JSON.stringify(probe),
      id,
    );
  }

  /** Replaces a waiting entry's write (same kind); it goes back to pending. */
  replaceInput(id: number, input: unknown, base?: Record<string, unknown> | null): void {
    if (base === undefined) {
      this.sql("UPDATE outbox SET input = ?, status = 'pending', message = NULL, conflicts = NULL WHERE id = ?").run(
        JSON.stringify(input),
        id,
      );
    } else {
      this.sql("UPDATE outbox SET input = ?, base = ?, status = 'pending', message = NULL, conflicts = NULL WHERE id = ?").run(
        JSON.stringify(input),
        base === null ? null : JSON.stringify(base),
        id,
      );
    }
  }

  remove(id: number): boolean {
    return this.sql('DELETE FROM outbox WHERE id = ?').run(id).changes > 0;
  }

  // ---- temporary ids and the records this app created ---------------------------------------------

  /** Remembers the service's id of a record created offline, so that an id a screen still holds keeps working. */
  mapTempId(tempId: number, kind: RecordKind, realId: number): void {
    this.sql('INSERT OR REPLACE INTO id_map (temp_id, kind, real_id) VALUES (?, ?, ?)').run(tempId, kind, realId);
  }

  /** Entries that may refer to a temporary id: those whose write's text holds the number (the exact check is the caller's). */
  mayReferTo(tempId: number): AnyEntry[] {
    return (this.sql('SELECT * FROM outbox WHERE instr(input, ?) > 0 ORDER BY id').all(String(tempId)) as OutboxRow[]).map(entryOf);
  }

  /** Sets an entry's write as it is, status and all else unchanged (its references rewritten). */
  setInput(id: number, input: unknown): void {
    this.sql('UPDATE outbox SET input = ? WHERE id = ?').run(JSON.stringify(input), id);
  }

  /** The service's id for a temporary id whose create succeeded; other ids unchanged. */
  resolve(id: number): number {
    if (id >= 0) return id;
    const real = this.sql('SELECT real_id FROM id_map WHERE temp_id = ?').pluck().get(id) as number | undefined;
    return real ?? id;
  }

  /** Remembers a record this app created on the service. */
  markOwn(kind: RecordKind, id: number): void {
    this.sql('INSERT OR IGNORE INTO own_records (kind, id) VALUES (?, ?)').run(kind, id);
  }

  ownIds(kind: RecordKind): Set<number> {
    return new Set(this.sql('SELECT id FROM own_records WHERE kind = ?').pluck().all(kind) as number[]);
  }
}
