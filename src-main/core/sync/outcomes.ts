/**
 * What became of one write in a push, and the one place where that becomes its outbox status and the
 * push's counts. Each outcome is stored in its own committed transaction (a done one in a group commit
 * shared with the writes finished alongside it), so that a crash right after it keeps it.
 */
import type { FieldConflict } from '../../../src-shared/app-api';
import { isSentUnanswered, type AnyEntry } from '../outbox/entries';
import { CommitBatcher } from '../store/commit-batcher';
import type { Store } from '../store/store';
import type { Effect } from '../write-kinds';
import type { WritePusher } from './writes';

/** One write's outcome in a round. */
export type WriteOutcome =
  /** It happened (found, answered, or an edit the service already has): stored, and the entry is gone. */
  | { to: 'done'; effect: Effect }
  /** It certainly did not happen: it goes with a later round (or sync). */
  | { to: 'pending' }
  /** The service refused it (a fault about it, or about what it needs). */
  | { to: 'refused'; message: string }
  /** An edit whose fields the service changed meanwhile. */
  | { to: 'conflict'; conflicts: FieldConflict[] }
  /** Whether it happened cannot be told: the user decides. `partial`: what an answer did show, stored all the same. */
  | { to: 'undecidable'; message: string; partial?: Effect | null };

/** What the push reports of its writes. */
export interface PushCounts {
  pushed: number;
  refused: number;
  conflicts: number;
}

export class Outcomes {
  /** Writes done alongside each other share their durable commit. */
  private readonly effects: CommitBatcher<{ entry: AnyEntry; effect: Effect }>;

  constructor(
    private readonly store: Store,
    private readonly pusher: WritePusher,
    readonly counts: PushCounts,
    /** Told of every write done: the push's progress. */
    private readonly onDone: () => void,
  ) {
    this.effects = new CommitBatcher(store, ({ entry, effect }) => pusher.applyEffect(entry, effect));
  }

  /**
   * Stores a write's outcome. `sent`: it was sent (or looked for), so its status is changed only while it is
   * still sent without an answer (the user may have retried or discarded it meanwhile); otherwise it was
   * queued and is changed as it is. A done write is committed in a group with others when `batched`.
   */
  async settle(entry: AnyEntry, outcome: WriteOutcome, how: { sent: boolean; batched?: boolean }): Promise<void> {
    const { outbox } = this.store;
    const mayChange = () => {
      if (!how.sent) return true;
      const status = outbox.get(entry.id)?.status;
      return status !== undefined && isSentUnanswered(status);
    };
    switch (outcome.to) {
      case 'done':
        if (how.batched) {
          await this.effects.submit({ entry, effect: outcome.effect });
          this.pusher.noteEffect(outcome.effect);
        } else this.pusher.finalize(entry, outcome.effect);
        this.counts.pushed++;
        this.onDone();
        return;
      case 'pending':
        this.store.transaction(() => mayChange() && outbox.setStatus(entry.id, 'pending'));
        return;
      case 'refused':
        this.store.transaction(() => mayChange() && outbox.setStatus(entry.id, 'refused', outcome.message));
        this.counts.refused++;
        return;
      case 'conflict': {
        const fields = outcome.conflicts.map((c) => c.field).join(', ');
        this.store.transaction(() => outbox.setStatus(entry.id, 'conflict', `The service changed ${fields} meanwhile.`, outcome.conflicts));
        this.counts.conflicts++;
        return;
      }
      case 'undecidable':
        this.store.transaction(() => {
          if (outcome.partial) this.pusher.storeEffect(entry, outcome.partial);
          if (mayChange()) outbox.setStatus(entry.id, 'undecidable', outcome.message);
        });
        if (outcome.partial) this.pusher.noteEffect(outcome.partial);
        return;
    }
  }
}
