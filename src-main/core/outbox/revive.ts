/**
 * One rule for every way an older local copy comes back (a restore of a backup, of this copy or of another;
 * a recovery from a safety copy): the writes it still holds as waiting may have reached the service since it
 * was made (the copy that replaced it may have sent them). Each becomes unknown, as a write whose answer was
 * lost is, with a probe read from the copy's own record of the service (what the service held as this copy
 * last saw it): the next sync's check round looks for its effect on a fresh read before anything is sent,
 * and sends it only when the service does not have it. An edit is decided by comparing values; a create the
 * service's lists cannot show (backdated past the last 50) becomes undecidable at that check, one whose probe
 * the copy cannot give at once: it waits for the user's retry or discard. Nothing an older copy brings back is
 * ever sent twice.
 */
import type { Store } from '../store/store';
import { kindOf } from '../write-kinds';
import { isSentUnanswered, type AnyEntry } from './entries';

export interface Revival {
  /** Why the writes are uncertain, said to the user with each ("Restored from a backup made ..."). */
  cause: string;
  /**
   * Settles an entry from better knowledge than the copy's (a restore knows what the copy it replaces did
   * since): true when it did (the entry is left as it is then); entries it does not settle are revived.
   */
  settle?: (entry: AnyEntry) => boolean;
}

/**
 * Marks every write of the copy that is not already sent without an answer (pending, refused, in conflict) as
 * unknown with its probe from the copy, or, for a create the copy cannot describe, as undecidable; runs inside
 * the caller's transaction. Returns how many became uncertain.
 */
export function reviveOutbox(store: Store, revival: Revival): number {
  const message = `${revival.cause}: this write may have reached the service since; the next sync looks for it there before sending it again.`;
  let revived = 0;
  for (const entry of store.outbox.all()) {
    if (isSentUnanswered(entry.status) || revival.settle?.(entry)) continue;
    const kind = kindOf(entry);
    const probe = kind.probeFromCopy(entry, store);
    if (probe === null && !kind.edit) {
      // What the service held before it cannot be told from this copy: no effect can be looked for.
      const why = `${revival.cause}: this write may have reached the service since, and what the service held before it cannot be told from this copy. Check the service, then send it again or discard it.`;
      store.outbox.revive(entry.id, 'undecidable', why, null);
    } else store.outbox.revive(entry.id, 'unknown', message, probe);
    revived++;
  }
  return revived;
}
