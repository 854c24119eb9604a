/**
 * The outbox table: ordered writes, their status, temporary ids and their replacement. Every method
 * that changes more than one row is meant to run inside the caller's Store.transaction, so that an
 * outbox change and the local copy's change are kept or lost together.
 */
import type { FieldConflict, OutboxKind, WriteInputOf } from '../../../src-shared/app-api';
import { MARKED_RECORDS } from '../../../src-shared/records';
import { marksKey, marksTable } from '../../../src-shared/records/fields';
import type { Store } from '../store/store';
import { REFERRED_KINDS, kindOf } from '../write-kinds';
import type { AnyEntry, OutboxEntry, RecordKind, StoredStatus } from './entries';

type Row = {
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

function entryOf(r: Row): AnyEntry {
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
  constructor(private readonly store: Store) {}

  /** Entries in the order they were made. */
  all(): AnyEntry[] {
    return (this.store.sql('SELECT * FROM outbox ORDER BY id').all() as Row[]).map(entryOf);
  }

  get(id: number): AnyEntry | null {
    const r = this.store.sql('SELECT * FROM outbox WHERE id = ?').get(id) as Row | undefined;
    return r ? entryOf(r) : null;
  }

  count(): number {
    return this.store.sql('SELECT COUNT(*) FROM outbox').pluck().get() as number;
  }

  /** Fresh temporary ids: negative, never used before in this local copy. */
  allocateTempIds(n: number): number[] {
    const next = this.store.settings.get('nextTempId');
    this.store.settings.set('nextTempId', next - n);
    return Array.from({ length: n }, (_, i) => next - i);
  }

  append<K extends OutboxKind>(
    kind: K,
    input: WriteInputOf<K>,
    now: string,
    base: Record<string, unknown> | null = null,
    createdIds: number[] = [],
  ): number {
    const info = this.store
      .sql('INSERT INTO outbox (kind, input, base, created_ids, status, created_at) VALUES (?, ?, ?, ?, ?, ?)')
      .run(kind, JSON.stringify(input), base === null ? null : JSON.stringify(base), JSON.stringify(createdIds), 'pending', now);
    return Number(info.lastInsertRowid);
  }

  /**
   * Records that the entry is about to be sent: from now on its outcome is unknown until an answer is
   * stored. Throws EntryChanged when the entry no longer holds `input` as a pending write (the user
   * discarded or changed it while the push prepared it), so that what is sent is always what is queued.
   */
  markSent(id: number, input: unknown, probe: unknown, now: string): void {
    const marked = this.store
      .sql(
        "UPDATE outbox SET status = 'unknown', attempts = attempts + 1, sent_at = ?, probe = ?, message = NULL WHERE id = ? AND status = 'pending' AND input = ?",
      )
      .run(now, JSON.stringify(probe ?? null), id, JSON.stringify(input));
    if (marked.changes === 0) throw new EntryChanged(id);
  }

  /** Whether the entry is still queued with this very write. */
  holds(id: number, input: unknown): boolean {
    return this.store.sql('SELECT 1 FROM outbox WHERE id = ? AND input = ?').pluck().get(id, JSON.stringify(input)) !== undefined;
  }

  setStatus(id: number, status: StoredStatus, message: string | null = null, conflicts: FieldConflict[] | null = null): void {
    this.store
      .sql('UPDATE outbox SET status = ?, message = ?, conflicts = ? WHERE id = ?')
      .run(status, message, conflicts && conflicts.length ? JSON.stringify(conflicts) : null, id);
  }

  /** Replaces a waiting entry's write (same kind); it goes back to pending. */
  replaceInput(id: number, input: unknown, base?: Record<string, unknown> | null): void {
    if (base === undefined) {
      this.store
        .sql("UPDATE outbox SET input = ?, status = 'pending', message = NULL, conflicts = NULL WHERE id = ?")
        .run(JSON.stringify(input), id);
    } else {
      this.store
        .sql("UPDATE outbox SET input = ?, base = ?, status = 'pending', message = NULL, conflicts = NULL WHERE id = ?")
        .run(JSON.stringify(input), base === null ? null : JSON.stringify(base), id);
    }
  }

  remove(id: number): boolean {
    return this.store.sql('DELETE FROM outbox WHERE id = ?').run(id).changes > 0;
  }

  /**
   * A create succeeded: the service's id replaces the temporary one in every entry that refers to it,
   * and the pair is remembered so that an id a screen still holds keeps working.
   */
  replaceTempId(kind: RecordKind, tempId: number, realId: number): void {
    this.store.sql('INSERT OR REPLACE INTO id_map (temp_id, kind, real_id) VALUES (?, ?, ?)').run(tempId, kind, realId);
    // The marks kept here of the record (its local fields) follow it to its new id.
    const marked = MARKED_RECORDS.find((r) => r.name === kind);
    if (marked) {
      this.store
        .sql(`UPDATE OR REPLACE ${marksTable(marked)} SET ${marksKey(marked)} = ? WHERE ${marksKey(marked)} = ?`)
        .run(realId, tempId);
    }
    if (!REFERRED_KINDS.has(kind)) return;
    const update = this.store.sql('UPDATE outbox SET input = ? WHERE id = ?');
    // Only entries whose text holds the number can refer to it; the exact check follows.
    const candidates = (this.store.sql('SELECT * FROM outbox WHERE instr(input, ?) > 0 ORDER BY id').all(String(tempId)) as Row[]).map(
      entryOf,
    );
    for (const entry of candidates) {
      const input = entry.input as unknown as Record<string, unknown>;
      let changed = false;
      for (const [field, refKind] of kindOf(entry).references) {
        if (refKind === kind && input[field] === tempId) {
          input[field] = realId;
          changed = true;
        }
      }
      if (changed) update.run(JSON.stringify(input), entry.id);
    }
  }

  /** The service's id for a temporary id whose create succeeded; other ids unchanged. */
  resolve(id: number): number {
    if (id >= 0) return id;
    const real = this.store.sql('SELECT real_id FROM id_map WHERE temp_id = ?').pluck().get(id) as number | undefined;
    return real ?? id;
  }

  /** Remembers a record this app created on the service. */
  markOwn(kind: RecordKind, id: number): void {
    this.store.sql('INSERT OR IGNORE INTO own_records (kind, id) VALUES (?, ?)').run(kind, id);
  }

  ownIds(kind: RecordKind): Set<number> {
    return new Set(this.store.sql('SELECT id FROM own_records WHERE kind = ?').pluck().all(kind) as number[]);
  }
}

export type { OutboxEntry };
