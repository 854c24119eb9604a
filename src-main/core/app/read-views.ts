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
import { add, divideRounded, formatDecimal, normalize, parseDecimal, ZERO, type Decimal } from '../../../src-shared/money';
import { ACCOUNT, type AccountLocals } from '../../../src-shared/records/account';
import { CATEGORY, type CategoryLocals } from '../../../src-shared/records/category';
import { pick, type MarkedRecord } from '../../../src-shared/records/fields';
import { REFUELING, type RefuelingLocals } from '../../../src-shared/records/refueling';
import { TEMPLATE } from '../../../src-shared/records/template';
import { TRANSACTION } from '../../../src-shared/records/transaction';
import { analyzeDependencies, effectiveStatuses } from '../outbox/dependencies';
import type { AnyEntry } from '../outbox/entries';
import type { LocalView } from '../outbox/local-view';
import type { PendingTransaction, ViewAccount, ViewRefueling } from '../outbox/view-state';
import type { CategoryRow, TransactionRow } from '../store/rows';
import type { Store } from '../store/store';
import { textQuery } from '../store/text-search';
import { mergeSorted } from '../util/merge-sorted';
import { canWrite, WRITE_KINDS } from '../write-kinds';

/** An account with every field of its table (the marks kept here included) and what the screens need beside. */
export function accountView(a: ViewAccount, locals: ReadonlyMap<number, AccountLocals>): AccountView {
  return {
    ...pick(a, ACCOUNT.stored),
    ...(locals.get(a.id) ?? ACCOUNT.localDefaults),
    serverBalance: a.serverBalance,
    pending: a.pending,
    local: a.local,
    writable: canWrite(a.permission) && a.isActive && !a.locked,
  };
}

export function accountsView(store: Store, view: LocalView, options: { includeHidden?: boolean; includeInactive?: boolean }): AccountsView {
  const locals = store.locals(ACCOUNT);
  const accounts = view
    .accounts()
    .filter((a) => (options.includeHidden || !a.isHidden) && (options.includeInactive || a.isActive))
    .map((a) => accountView(a, locals));
  const totals = new Map<number, { total: Decimal; accounts: number; pending: boolean }>();
  for (const a of accounts) {
    const t = totals.get(a.currency) ?? { total: ZERO, accounts: 0, pending: false };
    totals.set(a.currency, { total: add(t.total, parseDecimal(a.balance)!), accounts: t.accounts + 1, pending: t.pending || a.pending });
  }
  const list: CurrencyTotal[] = [...totals].map(([currency, t]) => ({
    currency,
    total: formatDecimal(t.total),
    accounts: t.accounts,
    pending: t.pending,
  }));
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
  if (ap && bp) return b.pendingEntry - a.pendingEntry;
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
  const names = new Map(view.categories().map((c) => [c.id, c.name]));
  // The register's search: accents and case folded, through the text index (store/text-search.ts).
  const text = textQuery(q.search, names);
  const pending: Listed[] = view
    .pendingTransactions(q.accountId)
    .filter((t) => !text || text.matches(t))
    .map((t) => ({ ...t, pendingEntry: t.entryId }))
    .sort(newestFirst);
  const storedTotal = store.countTransactions(q.accountId, text);
  const total = storedTotal + pending.length;

  const s0 = Math.min(Math.max(0, q.offset - pending.length), storedTotal);
  const stored: Listed[] = store.transactions(q.accountId, s0, q.limit + pending.length, text);
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
  const items = merged.slice(q.offset - start, q.offset - start + q.limit).map((t): TransactionView => ({
    ...pick(t, TRANSACTION.stored),
    categoryName: names.get(t.categoryId) ?? null,
    pending: t.pendingEntry !== undefined,
  }));
  return { items, total, offset: q.offset, limit: q.limit };
}

// ---- templates, categories, cars ------------------------------------------------------------------

/** A template's fields the screens show (who made it is the service's business). */
const TEMPLATE_SHOWN = TEMPLATE.stored.filter(
  (k): k is Exclude<typeof k, 'userId' | 'userCreatedId'> => k !== 'userId' && k !== 'userCreatedId',
);

export function templatesView(store: Store, view: LocalView): TemplateView[] {
  const accounts = new Map(view.accounts().map((a) => [a.id, a.name]));
  const names = new Map(view.categories().map((c) => [c.id, c.name]));
  return store.templates().map((t) => ({
    ...pick(t, TEMPLATE_SHOWN),
    accountName: accounts.get(t.accountId) ?? null,
    categoryName: names.get(t.categoryId) ?? null,
  }));
}

/** A category's fields the tree shows (its place among its siblings is the tree's order), by its table. */
const CATEGORY_SHOWN = CATEGORY.stored.filter((k): k is Exclude<typeof k, 'position'> => k !== 'position');
const categoryNode = (c: Pick<CategoryRow, (typeof CATEGORY_SHOWN)[number]>, pending: boolean, locals: CategoryLocals): CategoryNode => ({
  ...pick(c, CATEGORY_SHOWN),
  ...locals,
  children: [],
  pending,
});

export function categoryTreeView(store: Store, view: LocalView): CategoryTreeView {
  const marks = store.locals(CATEGORY);
  const localsOf = (id: number): CategoryLocals => marks.get(id) ?? CATEGORY.localDefaults;
  const categories = view
    .categories()
    .sort((a, b) => Number(a.local) - Number(b.local) || a.position - b.position || Math.abs(a.id) - Math.abs(b.id));
  const nodes = new Map<number, CategoryNode>(categories.map((c) => [c.id, categoryNode(c, c.pending, localsOf(c.id))]));
  const all: CategoryNode[] = [];
  for (const c of categories) {
    const node = nodes.get(c.id)!;
    const parent = c.parentId === 0 ? undefined : nodes.get(c.parentId);
    if (parent) parent.children.push(node);
    else all.push(node);
  }
  // A favourite the tree does not hold (yet) is shown as the service named it, at the top level.
  const favorites = store.favorites().map((f): CategoryNode => {
    const c = categories.find((x) => x.id === f.id);
    return c ? categoryNode(c, c.pending, localsOf(c.id)) : categoryNode({ ...f, parentId: 0 }, false, localsOf(f.id));
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
  const locals = store.locals(REFUELING);
  return view.refuelings(carId).map((r) => refuelingView(r, locals));
}

/** A refueling with every field of its table: the service's, and the marks kept here. */
export function refuelingView(r: ViewRefueling, locals: ReadonlyMap<number, RefuelingLocals>): RefuelingView {
  return {
    ...pick(r, REFUELING.stored),
    ...(locals.get(r.id) ?? REFUELING.localDefaults),
    pricePerLiter: pricePerLiter(r.price, r.liter),
    pending: r.pending,
  };
}

// ---- the outbox ---------------------------------------------------------------------------------

/**
 * The outbox as the screens show it. With the store, a write whose record has marks shows them in its
 * input as they are now: they are set on the record, never queued, and the outbox editor edits them there.
 */
export function outboxView(entries: AnyEntry[], store?: Store): OutboxEntryView[] {
  const deps = analyzeDependencies(entries);
  const statuses = effectiveStatuses(entries, deps);
  const marksOf = new Map<MarkedRecord, ReadonlyMap<number, object>>();
  return entries.map((e) => {
    const s = statuses.get(e.id)!;
    const input = e.input as unknown as { id?: number };
    const targetId = e.createdIds[0] ?? input.id ?? null;
    const marks = WRITE_KINDS[e.kind].marks;
    let shown: object = e.input;
    if (marks && store && targetId !== null) {
      if (!marksOf.has(marks)) marksOf.set(marks, store.locals(marks));
      shown = { ...e.input, ...(marksOf.get(marks)!.get(targetId) ?? marks.localDefaults) };
    }
    return {
      id: e.id,
      kind: e.kind,
      status: s.status,
      message: s.message,
      createdAt: e.createdAt,
      attempts: e.attempts,
      input: shown,
      targetId,
      dependents: deps.get(e.id)!.dependents,
      conflicts: e.conflicts,
    };
  });
}
