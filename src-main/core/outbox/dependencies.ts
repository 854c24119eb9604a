/**
 * Which queued writes wait for which. A write depends on the write that creates a record it refers to
 * by temporary id (a transfer to a new account, a child of a new category), and an edit depends on
 * the previous edit of the same record (edits of one record go through in the order they were made).
 * A write whose dependency was refused or is in conflict is blocked; independent writes go on.
 */
import type { OutboxStatus } from '../../../src-shared/app-api';
import { WRITE_KINDS, editTarget, referencesOf } from '../write-kinds';
import type { AnyEntry, RecordKind } from './entries';

export interface EntryDependencies {
  /** Entries this one waits for (earlier in the outbox). */
  waitsFor: number[];
  /** Temporary ids it refers to whose create is no longer in the outbox (discarded). */
  missing: { field: string; kind: RecordKind; id: number }[];
  /** Entries that wait for this one. */
  dependents: number[];
}

export function analyzeDependencies(entries: readonly AnyEntry[]): Map<number, EntryDependencies> {
  const creatorOf = new Map<number, number>();
  const lastEditOf = new Map<string, number>();
  const result = new Map<number, EntryDependencies>();
  for (const e of entries) {
    const deps: EntryDependencies = { waitsFor: [], missing: [], dependents: [] };
    for (const ref of referencesOf(e)) {
      if (ref.id >= 0) continue;
      const creator = creatorOf.get(ref.id);
      if (creator === undefined) deps.missing.push(ref);
      else if (!deps.waitsFor.includes(creator)) deps.waitsFor.push(creator);
    }
    const target = editTarget(e);
    if (target !== null) {
      const previous = lastEditOf.get(target);
      if (previous !== undefined && !deps.waitsFor.includes(previous)) deps.waitsFor.push(previous);
      lastEditOf.set(target, e.id);
    }
    for (const id of e.createdIds) creatorOf.set(id, e.id);
    for (const w of deps.waitsFor) result.get(w)!.dependents.push(e.id);
    result.set(e.id, deps);
  }
  return result;
}

export interface EffectiveStatus {
  status: OutboxStatus;
  message: string | null;
}

/**
 * The status each entry shows: its stored status, or 'blocked' (with the reason) when it waits for a
 * refused, conflicting, blocked or undecidable entry, or refers to a record whose create was discarded.
 */
export function effectiveStatuses(entries: readonly AnyEntry[], deps = analyzeDependencies(entries)): Map<number, EffectiveStatus> {
  const byId = new Map(entries.map((e) => [e.id, e]));
  const out = new Map<number, EffectiveStatus>();
  for (const e of entries) {
    const d = deps.get(e.id)!;
    let status: EffectiveStatus = { status: e.status, message: e.message };
    if (e.status === 'pending') {
      if (d.missing.length > 0) {
        const m = d.missing[0]!;
        status = {
          status: 'blocked',
          message: `Refers to a new ${m.kind} (${m.field}) whose creation was discarded; edit or discard this write.`,
        };
      } else {
        for (const w of d.waitsFor) {
          const s = out.get(w);
          if (s && (s.status === 'refused' || s.status === 'conflict' || s.status === 'blocked' || s.status === 'undecidable')) {
            const why =
              s.status === 'refused'
                ? 'which the service refused'
                : s.status === 'conflict'
                  ? 'which has a conflict to resolve'
                  : s.status === 'undecidable'
                    ? 'whose outcome you need to decide'
                    : 'which is blocked';
            status = { status: 'blocked', message: `Waits for write #${w} (${WRITE_KINDS[byId.get(w)!.kind].label}), ${why}.` };
            break;
          }
        }
      }
    }
    out.set(e.id, status);
  }
  return out;
}
