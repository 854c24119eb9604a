/**
 * The app's writes: each is checked against the local view the way the service would check it (by
 * its kind: write-kinds/), then queued in the outbox in one SQLite transaction, so that the screens
 * show it at once (the view lays the outbox over the server copy) and it survives a crash. Ids a
 * screen passes may be temporary ones whose create has since succeeded: they are resolved first.
 */
import { AppError, type OutboxKind, type TransferCheck, type WriteInputOf, type WriteResult } from '../../../src-shared/app-api';
import { splitLocals } from '../../../src-shared/records/fields';
import type { Outbox } from '../store/outbox';
import type { Store } from '../store/store';
import { WRITE_KINDS, transferProblems, type CheckContext, type Checked, type WriteKind } from '../write-kinds';
import type { AnyEntry } from './entries';
import type { LocalView } from './local-view';
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
   * The marks kept here only (the local fields of its record's table, WriteKind.marks) are taken out of
   * the write and set on that record in the same transaction, never sent; a new record gets every mark
   * (those not given at their defaults). They are not what the view is built from, which the queued
   * write extends in place.
   */
  queue<K extends OutboxKind>(kind: K, raw: WriteInputOf<K>): WriteResult {
    const { marks, creates } = WRITE_KINDS[kind];
    const { sent, locals } = marks ? splitLocals(marks, raw) : { sent: raw, locals: {} };
    let before = '';
    let entry: AnyEntry | null = null;
    const result = this.store.transaction(() => {
      before = this.view.stampNow();
      const checked = this.check(kind, sent as WriteInputOf<K>, this.view.state());
      const createdIds = this.outbox.allocateTempIds(creates.length);
      const id = this.outbox.append(kind, checked.input, this.now(), checked.base, createdIds);
      entry = this.outbox.get(id)!;
      const queued = { outboxId: id, id: createdIds[0] ?? checked.targetId ?? 0 };
      if (marks) this.store.marks.set(marks, queued.id, creates.length > 0 ? { ...marks.localDefaults, ...locals } : locals);
      return queued;
    });
    // The allocation wrote a setting inside the same transaction, which is all that changed besides the entry.
    if (entry) this.view.extend(entry, before);
    return result;
  }

  /**
   * Replaces the write of a waiting entry (to fix what the service refused); it goes back to pending. Its
   * marks go to the record the entry creates or edits, as when it was queued.
   */
  replace(entryId: number, raw: WriteInputOf<OutboxKind>): void {
    this.store.transaction(() => {
      const entry = this.outbox.get(entryId);
      if (!entry) throw new AppError('entryMissing', { id: entryId });
      // It may be on the service already: changed, it could be booked twice.
      if (entry.status === 'unknown') throw new AppError('entryUnknown');
      if (entry.status === 'undecidable') throw new AppError('entryUndecidable');
      const { marks } = WRITE_KINDS[entry.kind];
      const { sent, locals } = marks ? splitLocals(marks, raw) : { sent: raw, locals: {} };
      const checked = this.check(entry.kind, sent, this.view.stateWithout(entryId), entry);
      this.outbox.replaceInput(entryId, checked.input, checked.base);
      const target = entry.createdIds[0] ?? (sent as { id?: number }).id;
      if (marks && target !== undefined) this.store.marks.set(marks, target, locals);
    });
  }

  checkTransfer(raw: WriteInputOf<'transfer'>): TransferCheck {
    const state = this.view.state();
    const input = { ...raw, sourceId: this.outbox.resolve(raw.sourceId), targetId: this.outbox.resolve(raw.targetId) };
    return { problems: transferProblems(input, state).map(({ code, accountId }) => ({ code, accountId })) };
  }
}
