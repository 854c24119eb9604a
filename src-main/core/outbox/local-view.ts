/**
 * What the screens see: the server copy with every queued write laid over it, in outbox order.
 * Nothing here is stored twice: the view is a function of the server copy and the outbox, so a sync
 * that replaces the server copy, a discarded write or a crash can never leave a stale local change
 * behind. The state is cached and recomputed when the local copy changed (in this process or another).
 */
import { add, negate, parseDecimal, formatDecimal, ZERO, type Decimal } from '../../../src-shared/money';
import type { AccountRow, CategoryRow, RefuelingRow, TransactionRow } from '../store/rows';
import type { Store } from '../store/store';
import { EDITS, type AnyEntry, type OutboxEntry } from './entries';
import type { Outbox } from './outbox';

export interface ViewAccount extends AccountRow {
  /** The balance the service last reported; `balance` is shown, with pending transfers laid over it. */
  serverBalance: string;
  pending: boolean;
  local: boolean;
}

export interface ViewCategory extends CategoryRow {
  pending: boolean;
  local: boolean;
}

export interface ViewRefueling extends RefuelingRow {
  pending: boolean;
  local: boolean;
}

export interface PendingTransaction extends TransactionRow {
  entryId: number;
}

/** Facts read back from the service's answers, used to show pending writes the way it will record them. */
export interface LearnedFacts {
  /** The transaction Type the service gave the last transfer. */
  transferType: number | null;
  /** Whether the service books the source side of a transfer as a negative amount. */
  sourceNegative: boolean | null;
  /** The permission the service gave the creator of a new account. */
  ownerPermission: number | null;
}
export const LEARNED_KEY = 'learned';
/** The transaction Type of a transfer (service-decisions.md), until the service is seen to use another. */
const DEFAULT_TRANSFER_TYPE = 3;

/** What the local copy has learned so far; nothing before the first answers. */
export function learnedFacts(store: Store): LearnedFacts {
  return store.getSetting<LearnedFacts>(LEARNED_KEY) ?? { transferType: null, sourceNegative: null, ownerPermission: null };
}

/** The transaction Type transfers get: the one the service was seen to give them, else the documented one. */
export const transferTypeOf = (learned: LearnedFacts): number => learned.transferType ?? DEFAULT_TRANSFER_TYPE;
const DEFAULT_OWNER_PERMISSION = 3;

type RefuelingFields = Omit<RefuelingRow, 'id' | 'userCreatedId'>;

export class ViewState {
  readonly accounts = new Map<number, ViewAccount>();
  readonly categories = new Map<number, ViewCategory>();
  readonly pendingTransactions = new Map<number, PendingTransaction[]>();
  readonly refuelingCreates = new Map<number, ViewRefueling>();
  readonly refuelingEdits = new Map<number, Partial<RefuelingFields>>();
  readonly pendingCars = new Set<number>();
  private readonly deltas = new Map<number, Decimal>();

  constructor(
    server: { accounts: AccountRow[]; categories: CategoryRow[] },
    private readonly learned: LearnedFacts,
  ) {
    for (const a of server.accounts) this.accounts.set(a.id, { ...a, serverBalance: a.balance, pending: false, local: false });
    for (const c of server.categories) this.categories.set(c.id, { ...c, pending: false, local: false });
  }

  /** Lays one queued write over the view. Writes that refer to a record the view lacks change nothing of it. */
  apply(entry: AnyEntry): void {
    switch (entry.kind) {
      case 'addAccount': {
        const i = entry.input;
        const id = entry.createdIds[0]!;
        this.accounts.set(id, {
          id,
          name: i.name,
          description: i.description,
          type: i.type,
          currency: i.currency,
          isActive: i.isActive,
          locked: i.locked,
          isHidden: i.isHidden,
          ord: i.ord,
          permission: this.learned.ownerPermission ?? DEFAULT_OWNER_PERMISSION,
          balance: '0',
          serverBalance: '0',
          pending: true,
          local: true,
        });
        return;
      }
      case 'editAccount':
        layEdit(this.accounts.get(entry.input.id), entry);
        return;
      case 'transfer': {
        const i = entry.input;
        const amount = parseDecimal(i.amount)!;
        const sourceNegative = this.learned.sourceNegative ?? true;
        const sides: [number, Decimal, number][] = [
          [i.sourceId, sourceNegative ? negate(amount) : amount, entry.createdIds[0]!],
          [i.targetId, sourceNegative ? amount : negate(amount), entry.createdIds[1]!],
        ];
        for (const [accountId, signed, id] of sides) {
          const a = this.accounts.get(accountId);
          if (!a) continue;
          a.pending = true;
          this.deltas.set(accountId, add(this.deltas.get(accountId) ?? ZERO, signed));
          a.balance = formatDecimal(add(parseDecimal(a.serverBalance)!, this.deltas.get(accountId)!));
          const list = this.pendingTransactions.get(accountId) ?? [];
          list.push({
            key: `pending:${id}`,
            id,
            entryId: entry.id,
            accountId,
            paymentDate: i.paymentDate,
            type: transferTypeOf(this.learned),
            amount: formatDecimal(signed),
            description: i.description,
            categoryId: i.categoryId,
            userId: 0,
            userCreatedId: 0,
          });
          this.pendingTransactions.set(accountId, list);
        }
        return;
      }
      case 'addCategory': {
        const id = entry.createdIds[0]!;
        const siblings = [...this.categories.values()].filter((c) => c.parentId === entry.input.parentId);
        const position = siblings.reduce((max, c) => Math.max(max, c.position + 1), 0);
        this.categories.set(id, { id, name: entry.input.name, parentId: entry.input.parentId, position, pending: true, local: true });
        return;
      }
      case 'renameCategory':
        layEdit(this.categories.get(entry.input.id), entry);
        return;
      case 'addRefueling': {
        const id = entry.createdIds[0]!;
        this.refuelingCreates.set(id, { ...entry.input, id, userCreatedId: 0, pending: true, local: true });
        this.pendingCars.add(entry.input.carId);
        return;
      }
      case 'editRefueling': {
        const changes = changedFields(entry) as Partial<RefuelingFields>;
        const id = entry.input.id;
        const created = this.refuelingCreates.get(id);
        if (created) {
          this.pendingCars.add(created.carId);
          Object.assign(created, changes);
        } else {
          this.refuelingEdits.set(id, { ...this.refuelingEdits.get(id), ...changes });
        }
        this.pendingCars.add(entry.input.carId);
        return;
      }
    }
  }
}

/** Lays an edit's changed fields over the record it edits, if the view has that record. */
function layEdit(record: { pending: boolean } | undefined, entry: AnyEntry): void {
  if (!record) return;
  Object.assign(record, changedFields(entry));
  record.pending = true;
}

/** The fields an edit changes: those the user set to something other than the record as it was. */
export function changedFields(entry: AnyEntry): Record<string, unknown> {
  if (!(entry.kind in EDITS)) return {};
  const fields = EDITS[entry.kind as keyof typeof EDITS].fields as readonly string[];
  const input = entry.input as unknown as Record<string, unknown>;
  const base = entry.base ?? {};
  const out: Record<string, unknown> = {};
  for (const f of fields) if (!Object.hasOwn(base, f) || base[f] !== input[f]) out[f] = input[f];
  return out;
}

/** One refueling as a view state shows it (a pending new one, or a stored one with pending edits). */
export function refuelingIn(state: ViewState, store: Store, id: number): ViewRefueling | null {
  const created = state.refuelingCreates.get(id);
  if (created) return { ...created };
  const r = store.refueling(id);
  if (!r) return null;
  const edit = state.refuelingEdits.get(id);
  return { ...r, ...edit, pending: edit !== undefined, local: false };
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
      this.cached.apply(entry as AnyEntry);
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
    for (const r of this.store.refuelings(carId)) {
      seen.add(r.id);
      const edit = state.refuelingEdits.get(r.id);
      const row: ViewRefueling = { ...r, ...edit, pending: edit !== undefined, local: false };
      if (row.carId === carId) out.push(row);
    }
    // An edit may have moved a refueling here from another car.
    for (const [id, edit] of state.refuelingEdits) {
      if (edit.carId !== carId || seen.has(id)) continue;
      const r = this.store.refueling(id);
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
    const state = new ViewState({ accounts: this.store.accounts(), categories: this.store.categories() }, this.learned());
    for (const e of this.outbox.all()) if (e.id !== skip) state.apply(e);
    return state;
  }

  pendingCars(): Set<number> {
    return this.state().pendingCars;
  }
}
