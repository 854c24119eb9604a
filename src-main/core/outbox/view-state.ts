/**
 * The state the screens see: the server copy with queued writes laid over it. Each write kind lays
 * itself (write-kinds/); this module holds the state and the few operations they share.
 */
import { add, formatDecimal, parseDecimal, ZERO, type Decimal } from '../../../src-shared/money';
import type { AccountRow, CategoryRow, RefuelingRow, TransactionRow } from '../store/rows';
import type { Store } from '../store/store';
import type { LearnedFacts } from './learned';

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

export type RefuelingFields = Omit<RefuelingRow, 'id' | 'userCreatedId'>;

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
    readonly learned: LearnedFacts,
  ) {
    for (const a of server.accounts) this.accounts.set(a.id, { ...a, serverBalance: a.balance, pending: false, local: false });
    for (const c of server.categories) this.categories.set(c.id, { ...c, pending: false, local: false });
  }

  /** Moves an account's shown balance by a pending amount and lists the pending transaction; false if the view lacks the account. */
  bookPending(transaction: PendingTransaction, signed: Decimal): boolean {
    const a = this.accounts.get(transaction.accountId);
    if (!a) return false;
    a.pending = true;
    const delta = add(this.deltas.get(a.id) ?? ZERO, signed);
    this.deltas.set(a.id, delta);
    a.balance = formatDecimal(add(parseDecimal(a.serverBalance)!, delta));
    const list = this.pendingTransactions.get(a.id) ?? [];
    list.push(transaction);
    this.pendingTransactions.set(a.id, list);
    return true;
  }
}

/** Lays an edit's changed fields over the record it edits, if the view has that record. */
export function layEdit(record: { pending: boolean } | undefined, changes: Record<string, unknown>): void {
  if (!record) return;
  Object.assign(record, changes);
  record.pending = true;
}

/** The fields an edit changes: those the user set to something other than the record as it was. */
export function changedFields(
  entry: { input: object; base: Record<string, unknown> | null },
  fields: readonly string[],
): Record<string, unknown> {
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
  const r = store.refuelings.get(id);
  if (!r) return null;
  const edit = state.refuelingEdits.get(id);
  return { ...r, ...edit, pending: edit !== undefined, local: false };
}
