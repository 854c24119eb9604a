/**
 * The app's writes: each is checked against the local view the way the service would check it (by
 * its kind: write-kinds/), then queued in the outbox in one SQLite transaction, so that the screens
 * show it at once (the view lays the outbox over the server copy) and it survives a crash. Ids a
 * screen passes may be temporary ones whose create has since succeeded: they are resolved first.
 */
import { AppError, type OutboxKind, type TransferCheck, type WriteInputOf, type WriteResult } from '../../../src-shared/app-api';
import type { Store } from '../store/store';
import { WRITE_KINDS, transferProblems, type CheckContext, type Checked, type WriteKind } from '../write-kinds';
import type { AnyEntry } from './entries';
import type { LocalView } from './local-view';
import type { Outbox } from './outbox';
import type { ViewState } from './view-state';

export class LocalWrites {
  constructor(
    private readonly store: Store,
    private readonly outbox: Outbox,
    private readonly view: LocalView,
    private readonly now: () => string,
  ) {}

  private check<K extends OutboxKind>(kind: K, raw: WriteInputOf<K>, state: ViewState, previous?: AnyEntry): Checked<K> {
    const ctx: CheckContext = { state, store: this.store, resolve: (id) => this.outbox.resolve(id), previous };
    return (WRITE_KINDS[kind] as unknown as WriteKind<K>).check(raw, ctx);
  }

  /**
   * Checks and queues one write; returns the outbox entry and the id of the record it creates or edits.
   * `alongside` runs in the same transaction once the entry is queued (the marks kept here only are set
   * so); it must not change what the view is built from, which the queued write extends in place.
   */
  queue<K extends OutboxKind>(kind: K, raw: WriteInputOf<K>, alongside?: (queued: WriteResult) => void): WriteResult {
    let before = '';
    let entry: AnyEntry | null = null;
    const result = this.store.transaction(() => {
      before = this.view.stampNow();
      const checked = this.check(kind, raw, this.view.state());
      const createdIds = this.outbox.allocateTempIds(WRITE_KINDS[kind].creates.length);
      const id = this.outbox.append(kind, checked.input, this.now(), checked.base, createdIds);
      entry = this.outbox.get(id)!;
      const queued = { outboxId: id, id: createdIds[0] ?? checked.targetId ?? 0 };
      alongside?.(queued);
      return queued;
    });
    // The allocation wrote a setting inside the same transaction, which is all that changed besides the entry.
    if (entry) this.view.extend(entry, before);
    return result;
  }

  /** Replaces the write of a waiting entry (to fix what the service refused); it goes back to pending. */
  replace(entryId: number, raw: WriteInputOf<OutboxKind>): void {
    this.store.transaction(() => {
      const entry = this.outbox.get(entryId);
      if (!entry) throw new AppError('entryMissing', { id: entryId });
      if (entry.status === 'unknown') {
        throw new AppError('entryUnknown');
      }
      const checked = this.check(entry.kind, raw as never, this.view.stateWithout(entryId), entry);
      this.outbox.replaceInput(entryId, checked.input, checked.base);
    });
  }

  checkTransfer(raw: WriteInputOf<'transfer'>): TransferCheck {
    const state = this.view.state();
    const input = { ...raw, sourceId: this.outbox.resolve(raw.sourceId), targetId: this.outbox.resolve(raw.targetId) };
    return { problems: transferProblems(input, state).map(({ code, accountId }) => ({ code, accountId })) };
  }
}
