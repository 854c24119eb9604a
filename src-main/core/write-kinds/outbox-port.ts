/**
 * The write kinds' port to the outbox (kind.ts: OutboxPort), over the local copy's outbox tables. Which
 * fields of a write refer to which record is each kind's to say (`references`), so the rewrite of a
 * temporary id into the service's id in the queued writes is done here, by the kinds, and the outbox table
 * only stores what it is given.
 */
import { MARKED_RECORDS } from '../../../src-shared/records';
import type { AnyEntry, RecordKind } from '../outbox/entries';
import type { Store } from '../store/store';
import type { OutboxPort } from './kind';
import { kindOf, REFERRED_KINDS } from './index';

/** The entry's write with every reference to `tempId` of this kind replaced by `realId`; null when it has none. */
export function withReferenceReplaced(entry: AnyEntry, kind: RecordKind, tempId: number, realId: number): Record<string, unknown> | null {
  const input = { ...(entry.input as unknown as Record<string, unknown>) };
  let changed = false;
  for (const [field, refKind] of kindOf(entry).references) {
    if (refKind === kind && input[field] === tempId) {
      input[field] = realId;
      changed = true;
    }
  }
  return changed ? input : null;
}

/** The port over a local copy; its changes are meant to run inside the caller's transaction. */
export function outboxPort(store: Store): OutboxPort {
  const outbox = store.outbox;
  return {
    ownIds: (kind) => outbox.ownIds(kind),
    markOwn: (kind, id) => outbox.markOwn(kind, id),
    replaceTempId(kind, tempId, realId) {
      outbox.mapTempId(tempId, kind, realId);
      // The marks kept here of the record (its local fields) follow it to its new id.
      const marked = MARKED_RECORDS.find((r) => r.name === kind);
      if (marked) store.marks.move(marked, tempId, realId);
      // So do the budgets of a category (kept here only).
      if (kind === 'category') store.budgets.moveCategory(tempId, realId);
      if (!REFERRED_KINDS.has(kind)) return;
      // Only entries whose text holds the number can refer to it; the exact check is each kind's references.
      for (const entry of outbox.mayReferTo(tempId)) {
        const input = withReferenceReplaced(entry, kind, tempId, realId);
        if (input) outbox.setInput(entry.id, input);
      }
    },
  };
}
