/**
 * What the screens see: the server copy with every queued write laid over it, in outbox order (each
 * kind lays itself: write-kinds/). Nothing here is stored twice: the view is a function of the server
 * copy and the outbox, so a sync that replaces the server copy, a discarded write or a crash can never
 * leave a stale local change behind. The state is cached and recomputed when the local copy changed
 * (in this process or another).
 */
import type { Outbox } from '../store/outbox';
import type { Store } from '../store/store';
import { kindOf } from '../write-kinds';
import type { AnyEntry, OutboxEntry } from './entries';
import { learnedFacts, type LearnedFacts } from './learned';
import { refuelingIn, ViewState, type PendingTransaction, type ViewAccount, type ViewCategory, type ViewRefueling } from './view-state';

/** Lays one queued write over the view. Writes that refer to a record the view lacks change nothing of it. */
export function layEntry(state: ViewState, entry: AnyEntry): void {
  kindOf(entry).lay(state, entry);
}

export class LocalView {
  private cached: ViewState | null = null;
  private stamp = '';

  constructor(
    private readonly store: Store,
    private readonly outbox: Outbox,
  ) {}

  private currentStamp(): string {
    return `${this.store.revision}:${this.store.dataVersion()}`;
  }

  learned(): LearnedFacts {
    return learnedFacts(this.store);
  }

  /** The view as it is now. */
  state(): ViewState {
    const stamp = this.currentStamp();
    if (this.cached && this.stamp === stamp) return this.cached;
    const state = this.build();
    this.cached = state;
    this.stamp = stamp;
    return state;
  }

  /**
   * Lays a just-queued write over the cached view instead of recomputing it, when the cache was
   * current right before that write's transaction (`before` is the stamp taken then).
   */
  extend(entry: OutboxEntry, before: string): void {
    if (this.cached && this.stamp === before) {
      layEntry(this.cached, entry as AnyEntry);
      this.stamp = this.currentStamp();
    }
  }

  stampNow(): string {
    return this.currentStamp();
  }

  accounts(): ViewAccount[] {
    const all = [...this.state().accounts.values()];
    return all.sort((a, b) => a.ord - b.ord || Number(a.local) - Number(b.local) || Math.abs(a.id) - Math.abs(b.id));
  }

  account(id: number): ViewAccount | null {
    return this.state().accounts.get(this.outbox.resolve(id)) ?? null;
  }

  categories(): ViewCategory[] {
    return [...this.state().categories.values()];
  }

  category(id: number): ViewCategory | null {
    return this.state().categories.get(this.outbox.resolve(id)) ?? null;
  }

  pendingTransactions(accountId: number): PendingTransaction[] {
    return this.state().pendingTransactions.get(this.outbox.resolve(accountId)) ?? [];
  }

  /** A car's refuelings: the stored ones with pending edits laid over them, and the pending new ones. */
  refuelings(carId: number): ViewRefueling[] {
    const state = this.state();
    const out: ViewRefueling[] = [];
    const seen = new Set<number>();
    for (const r of this.store.refuelings.ofCar(carId)) {
      seen.add(r.id);
      const edit = state.refuelingEdits.get(r.id);
      const row: ViewRefueling = { ...r, ...edit, pending: edit !== undefined, local: false };
      if (row.carId === carId) out.push(row);
    }
    // An edit may have moved a refueling here from another car.
    for (const [id, edit] of state.refuelingEdits) {
      if (edit.carId !== carId || seen.has(id)) continue;
      const r = this.store.refuelings.get(id);
      if (r) out.push({ ...r, ...edit, pending: true, local: false });
    }
    for (const r of state.refuelingCreates.values()) if (r.carId === carId) out.push({ ...r });
    return out.sort((a, b) => (a.dateOfPurchase < b.dateOfPurchase ? 1 : a.dateOfPurchase > b.dateOfPurchase ? -1 : b.id - a.id));
  }

  refueling(id: number): ViewRefueling | null {
    return refuelingIn(this.state(), this.store, this.outbox.resolve(id));
  }

  /** The view without one entry, for checking a replacement of that entry's write. */
  stateWithout(entryId: number): ViewState {
    return this.build(entryId);
  }

  private build(skip?: number): ViewState {
    const state = new ViewState({ accounts: this.store.accounts.list(), categories: this.store.categories.list() }, this.learned());
    for (const e of this.outbox.all()) if (e.id !== skip) layEntry(state, e);
    return state;
  }

  pendingCars(): Set<number> {
    return this.state().pendingCars;
  }
}
