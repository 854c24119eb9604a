/**
 * The app API's read views, built from the local view (server copy with the outbox laid over it).
 * Sums are exact decimals; transaction pages merge pending transfers into the stored history without
 * reading more of it than the page needs.
 */
import type {
  AccountView,
  AccountsView,
  CarView,
  CategoryNode,
  CategoryTreeView,
  CurrencyTotal,
  OutboxEntryView,
  RefuelingView,
  TemplateView,
  TransactionPage,
  TransactionView,
} from '../../../src-shared/app-api';
import { REFUELING_LOCAL_DEFAULTS, REFUELING_WIRE_FIELDS, type RefuelingLocals, type RefuelingValues } from '../../../src-shared/records/refueling';
import { add, divideRounded, formatDecimal, normalize, parseDecimal, ZERO, type Decimal } from '../../../src-shared/money';
import { analyzeDependencies, effectiveStatuses } from '../outbox/dependencies';
import type { AnyEntry } from '../outbox/entries';
import type { LocalView } from '../outbox/local-view';
import type { PendingTransaction, ViewAccount, ViewRefueling } from '../outbox/view-state';
import { canWrite } from '../write-kinds';
import { mergeSorted } from '../util/merge-sorted';
import type { TransactionRow } from '../store/rows';
import type { Store } from '../store/store';

export function accountView(a: ViewAccount): AccountView {
  return {
    id: a.id,
    name: a.name,
    description: a.description,
    type: a.type,
    currency: a.currency,
    isActive: a.isActive,
    locked: a.locked,
    isHidden: a.isHidden,
    ord: a.ord,
    permission: a.permission,
    balance: a.balance,
    serverBalance: a.serverBalance,
    pending: a.pending,
    local: a.local,
    writable: canWrite(a.permission) && a.isActive && !a.locked,
  };
}

export function accountsView(view: LocalView, options: { includeHidden?: boolean; includeInactive?: boolean }): AccountsView {
  const accounts = view
    .accounts()
    .filter((a) => (options.includeHidden || !a.isHidden) && (options.includeInactive || a.isActive))
    .map(accountView);
  const totals = new Map<number, { total: Decimal; accounts: number; pending: boolean }>();
  for (const a of accounts) {
    const t = totals.get(a.currency) ?? { total: ZERO, accounts: 0, pending: false };
    totals.set(a.currency, { total: add(t.total, parseDecimal(a.balance)!), accounts: t.accounts + 1, pending: t.pending || a.pending });
  }
  const list: CurrencyTotal[] = [...totals].map(([currency, t]) => ({ currency, total: formatDecimal(t.total), accounts: t.accounts, pending: t.pending }));
  return { accounts, totals: list.sort((a, b) => a.currency - b.currency) };
}

// ---- transactions ----------------------------------------------------------------------------

type Listed = (TransactionRow & { pendingEntry?: undefined }) | (PendingTransaction & { pendingEntry: number });

/** Newest first: by date; on one date pending ones first (newest write first), then by id. */
function newestFirst(a: Listed, b: Listed): number {
  if (a.paymentDate !== b.paymentDate) return a.paymentDate < b.paymentDate ? 1 : -1;
  const ap = a.pendingEntry !== undefined;
  const bp = b.pendingEntry !== undefined;
  if (ap !== bp) return ap ? -1 : 1;
  if (ap && bp) return b.pendingEntry! - a.pendingEntry!;
  return (b.id ?? -Infinity) - (a.id ?? -Infinity) || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0);
}

export interface TransactionQuery {
  accountId: number;
  offset: number;
  limit: number;
  search?: string;
}

/**
 * One page of an account's history, pending transfers included. Only the stored rows that can fall
 * on the page are read: the page starts at most `pending.length` rows before `offset` in the stored list.
 */
export function transactionPage(store: Store, view: LocalView, q: TransactionQuery): TransactionPage {
  const search = q.search?.trim() || undefined;
  const names = new Map(view.categories().map((c) => [c.id, c.name]));
  const needle = search?.toLowerCase();
  const pending: Listed[] = view
    .pendingTransactions(q.accountId)
    .filter((t) => !needle || t.description.toLowerCase().includes(needle) || t.amount.includes(needle) || (names.get(t.categoryId) ?? '').toLowerCase().includes(needle))
    .map((t) => ({ ...t, pendingEntry: t.entryId }))
    .sort(newestFirst);
  const storedTotal = store.countTransactions(q.accountId, search);
  const total = storedTotal + pending.length;

  const s0 = Math.min(Math.max(0, q.offset - pending.length), storedTotal);
  const stored: Listed[] = store.transactions(q.accountId, s0, q.limit + pending.length, search);
  let merged: Listed[];
  let start: number;
  if (s0 === 0) {
    merged = mergeSorted(stored, pending, newestFirst);
    start = 0;
  } else {
    const first = stored[0];
    const k = first ? pending.filter((p) => newestFirst(p, first) < 0).length : pending.length;
    merged = mergeSorted(stored, pending.slice(k), newestFirst);
    start = s0 + k;
  }
  const items = merged.slice(q.offset - start, q.offset - start + q.limit).map(
    (t): TransactionView => ({
      id: t.id,
      accountId: t.accountId,
      paymentDate: t.paymentDate,
      type: t.type,
      amount: t.amount,
      description: t.description,
      categoryId: t.categoryId,
      categoryName: names.get(t.categoryId) ?? null,
      userId: t.userId,
      userCreatedId: t.userCreatedId,
      pending: t.pendingEntry !== undefined,
    }),
  );
  return { items, total, offset: q.offset, limit: q.limit };
}

// ---- templates, categories, cars ------------------------------------------------------------------

export function templatesView(store: Store, view: LocalView): TemplateView[] {
  const accounts = new Map(view.accounts().map((a) => [a.id, a.name]));
  const names = new Map(view.categories().map((c) => [c.id, c.name]));
  return store.templates().map((t) => ({
    id: t.id,
    accountId: t.accountId,
    accountName: accounts.get(t.accountId) ?? null,
    type: t.type,
    amount: t.amount,
    description: t.description,
    categoryId: t.categoryId,
    categoryName: names.get(t.categoryId) ?? null,
    ord: t.ord,
  }));
}

export function categoryTreeView(store: Store, view: LocalView): CategoryTreeView {
  const categories = view.categories().sort((a, b) => Number(a.local) - Number(b.local) || a.position - b.position || Math.abs(a.id) - Math.abs(b.id));
  const nodes = new Map<number, CategoryNode>(categories.map((c) => [c.id, { id: c.id, name: c.name, parentId: c.parentId, children: [], pending: c.pending }]));
  const all: CategoryNode[] = [];
  for (const c of categories) {
    const node = nodes.get(c.id)!;
    const parent = c.parentId === 0 ? undefined : nodes.get(c.parentId);
    if (parent) parent.children.push(node);
    else all.push(node);
  }
  const favorites = store.favorites().map((f): CategoryNode => {
    const c = nodes.get(f.id);
    return { id: f.id, name: c?.name ?? f.name, parentId: c?.parentId ?? 0, children: [], pending: c?.pending ?? false };
  });
  return { favorites, all };
}

export function carsView(store: Store, view: LocalView): CarView[] {
  const pendingCars = view.pendingCars();
  return store.cars().map((car) => {
    const list = view.refuelings(car.carId);
    const last = list[0];
    return {
      carId: car.carId,
      name: car.name,
      refuelings: list.length,
      lastTachometer: last?.tachometer ?? null,
      lastDate: last?.dateOfPurchase ?? null,
      lastCurrency: last?.currency ?? null,
      pending: pendingCars.has(car.carId),
    };
  });
}

/** price / liter to 3 decimals, half away from zero; null when liter is 0. */
export function pricePerLiter(price: string, liter: string): string | null {
  const q = divideRounded(parseDecimal(price)!, parseDecimal(liter)!, 3);
  return q === null ? null : formatDecimal(normalize(q));
}

/** A car's refuelings as the screens list them, pending ones and the local marks included. */
export function carRefuelingsView(store: Store, view: LocalView, carId: number): RefuelingView[] {
  const locals = store.refuelingLocals();
  return view.refuelings(carId).map((r) => refuelingView(r, locals));
}

/** A refueling with every field of its table: the service's, and the marks kept here. */
export function refuelingView(r: ViewRefueling, locals: ReadonlyMap<number, RefuelingLocals>): RefuelingView {
  const out: Record<string, unknown> = {};
  for (const k of REFUELING_WIRE_FIELDS) out[k] = r[k];
  Object.assign(out, locals.get(r.id) ?? REFUELING_LOCAL_DEFAULTS);
  return { ...(out as RefuelingValues), pricePerLiter: pricePerLiter(r.price, r.liter), pending: r.pending };
}

// ---- the outbox ---------------------------------------------------------------------------------

export function outboxView(entries: AnyEntry[]): OutboxEntryView[] {
  const deps = analyzeDependencies(entries);
  const statuses = effectiveStatuses(entries, deps);
  return entries.map((e) => {
    const s = statuses.get(e.id)!;
    const input = e.input as unknown as { id?: number };
    return {
      id: e.id,
      kind: e.kind,
      status: s.status,
      message: s.message,
      createdAt: e.createdAt,
      attempts: e.attempts,
      input: e.input,
      targetId: e.createdIds[0] ?? input.id ?? null,
      dependents: deps.get(e.id)!.dependents,
      conflicts: e.conflicts,
    };
  });
}
