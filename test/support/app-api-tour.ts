/**
 * A tour of every method of the app API through one edge (IPC or the browser shell), against a real
 * core and a real service: each call gets valid input, and its answer is checked for what that method
 * must return. The edge tests assert that the tour reached every method of the table.
 */
import { expect } from 'vitest';
import type {
  AccountsView,
  AppMethod,
  AppStatus,
  CallOutcome,
  CarCheck,
  CarFetch,
  CarIdSeen,
  CarView,
  CategoryTreeView,
  ConnectionReport,
  OutboxEntryDetail,
  OutboxEntryView,
  Preferences,
  ReachabilityCheck,
  RefuelingView,
  SyncSummary,
  TemplateView,
  TransactionPage,
  TransferCheck,
  WriteResult,
} from '../../src-shared/app-api';
import { errorKind } from '../../src-shared/app-api';
import type { TestService } from './service';
import { tourBudgets } from './tour-budgets';
import { tourCarCosts } from './tour-car-costs';
import { tourFiles } from './tour-files';
import { tourInsights } from './tour-insights';

export type EdgeCall = (method: string, input?: unknown) => Promise<CallOutcome<unknown>>;
/** Calls a method through the edge, fails on an error answer and records the method as reached. */
export type TourCall = <T>(method: AppMethod, input?: unknown) => Promise<T>;

export async function tourEveryMethod(call: EdgeCall, service: TestService): Promise<Set<AppMethod>> {
  const reached = new Set<AppMethod>();
  const ok: TourCall = async <T>(method: AppMethod, input?: unknown): Promise<T> => {
    const outcome = await call(method, input);
    if (!outcome.ok) throw new Error(`${method} failed: ${outcome.error.code} ${JSON.stringify(outcome.error.params)}`);
    reached.add(method);
    return outcome.value as T;
  };

  const first = await ok<AppStatus>('getStatus');
  expect(first.configured).toBe(false);
  expect((await ok<AppStatus>('workOffline')).workingOffline).toBe(true);

  const report = await ok<ConnectionReport>('testConnection', { baseUrl: service.url, clientKey: 'demo', login: 'demo', password: 'demo' });
  expect(report).toMatchObject({ ok: true, state: 'connected' });
  expect(report.namespace).toBe(service.namespace);
  expect(report.operations).toHaveLength(15);

  const connected = await ok<AppStatus>('connect', { baseUrl: service.url, clientKey: 'demo', login: 'demo', password: 'demo' });
  expect(connected.configured).toBe(true);
  expect(connected.connection?.login).toBe('demo');
  expect(JSON.stringify(connected)).not.toContain('"demo","password"');

  // Whether the service answers: asked of it (the core's first check), no sync.
  expect(await ok<ReachabilityCheck>('checkReachability')).toMatchObject({ checked: true, outcome: 'connected' });

  const prefs = await ok<Preferences>('setPreferences', { theme: 'dark', language: 'en' });
  expect(prefs.theme).toBe('dark');
  expect((await ok<Preferences>('getPreferences')).language).toBe('en');

  const pulled = await ok<SyncSummary>('sync');
  expect(pulled.error).toBeNull();
  expect(pulled.pulled?.accounts).toBeGreaterThan(3);

  const { accounts, totals } = await ok<AccountsView>('listAccounts', { includeHidden: true, includeInactive: true });
  expect(totals.length).toBeGreaterThanOrEqual(2);
  const czk = accounts.filter((a) => a.currency === 203 && a.writable);
  expect(czk.length).toBeGreaterThanOrEqual(2);
  const [from, to] = czk as [(typeof czk)[0], (typeof czk)[0]];

  const page = await ok<TransactionPage>('listTransactions', { accountId: from.id, limit: 10 });
  expect(page.items).toHaveLength(10);
  expect(page.total).toBeGreaterThanOrEqual(10);

  expect((await ok<TemplateView[]>('listTemplates')).length).toBeGreaterThan(0);
  const tree = await ok<CategoryTreeView>('getCategoryTree');
  expect(tree.all.length).toBeGreaterThan(0);

  await ok<CarView[]>('saveCar', { carId: 1, name: 'Octavia' });
  expect((await ok<CarView[]>('listCars')).find((c) => c.carId === 1)?.name).toBe('Octavia');
  await ok<CarView[]>('saveCar', { carId: 77, name: 'Spare' });
  // A car added by its number: what the service has of it, read at once (car 1's are left to the sync below).
  expect(await ok<CarFetch>('fetchCarRefuelings', { carId: 77 })).toEqual({ carId: 77, refuelings: 0, problem: null });
  expect((await ok<CarView[]>('removeCar', { carId: 77 })).some((c) => c.carId === 77)).toBe(false);
  // Naming a car by its number: those seen here, and one checked with the service.
  expect((await ok<CarIdSeen[]>('listCarIdsSeen')).find((c) => c.carId === 1)).toMatchObject({ name: 'Octavia' });
  expect(await ok<CarCheck>('checkCarId', { carId: 1 })).toMatchObject({
    carId: 1,
    name: 'Octavia',
    problem: null,
    service: { refuelings: expect.any(Number) },
  });
  await tourCarCosts(ok, 1);

  const transfer = {
    sourceId: from.id,
    targetId: to.id,
    amount: '0.3',
    paymentDate: '2026-11-21T10:00',
    categoryId: 0,
    description: 'Tour',
  };
  expect((await ok<TransferCheck>('checkTransfer', transfer)).problems).toEqual([]);
  expect((await ok<TransferCheck>('checkTransfer', { ...transfer, targetId: from.id })).problems.map((p) => p.code)).toContain(
    'same-account',
  );
  await ok<WriteResult>('transfer', transfer);

  const added = await ok<WriteResult>('addAccount', {
    name: 'Tour account',
    description: '',
    currency: 203,
    type: 1,
    isActive: true,
    isHidden: false,
    locked: false,
    ord: 99,
  });
  expect(added.id).toBeLessThan(0);
  await ok<WriteResult>('editAccount', {
    id: added.id,
    name: 'Tour account 2',
    description: 'x',
    type: 2,
    isActive: true,
    isHidden: false,
    locked: false,
    ord: 99,
  });
  const category = await ok<WriteResult>('addCategory', { name: 'Tour category', parentId: 0 });
  await ok<WriteResult>('renameCategory', { id: category.id, name: 'Tour category 2' });
  const refuel = {
    carId: 1,
    dateOfPurchase: '2026-11-21T08:00',
    tachometer: 999_000,
    liter: '40.5',
    price: '1620.5',
    currency: 203,
    rate: '1',
    description: 'Tour',
  };
  const refueling = await ok<WriteResult>('addRefueling', refuel);
  await ok<WriteResult>('editRefueling', { ...refuel, id: refueling.id, liter: '41' });
  const pendingFuel = (await ok<RefuelingView[]>('listRefuelings', { carId: 1 })).find((r) => r.id === refueling.id);
  expect(pendingFuel).toMatchObject({ liter: '41', pending: true });

  await tourInsights(ok, { carId: 1, refuelingId: refueling.id, accountId: from.id });
  await tourBudgets(ok);
  await tourFiles(ok, { carId: 1 });

  const outbox = await ok<OutboxEntryView[]>('listOutbox');
  expect(outbox.length).toBeGreaterThanOrEqual(4);
  const transferEntry = outbox.find((e) => e.kind === 'transfer')!;
  const detail = await ok<OutboxEntryDetail>('getOutboxEntry', { id: transferEntry.id });
  expect(detail.entry.id).toBe(transferEntry.id);
  expect(detail.fields).toContainEqual({ field: 'amount', base: null, mine: transfer.amount, theirs: null, conflict: false });
  await ok<OutboxEntryView[]>('updateOutbox', { id: transferEntry.id, input: { ...transfer, amount: '0.4' } });
  await ok<OutboxEntryView[]>('retryOutbox', { id: transferEntry.id });
  const afterDiscard = await ok<OutboxEntryView[]>('discardOutbox', { id: transferEntry.id });
  expect(afterDiscard.some((e) => e.id === transferEntry.id)).toBe(false);

  // A conflict needs an edit changed on both sides: the tour only checks the method answers through the edge.
  const conflict = await call('resolveConflict', { id: outbox[0]!.id, choices: {} });
  expect(conflict.ok ? 'ok' : errorKind(conflict.error.code)).toMatch(/^(ok|rule|not-found)$/);
  reached.add('resolveConflict');

  // The local copy opened: there is nothing to recover, and the edge says so.
  const recover = await call('recoverLocalCopy', { from: 'safety-copy' });
  expect(recover.ok ? 'ok' : recover.error.code).toBe('nothingToRecover');
  reached.add('recoverLocalCopy');

  const summary = await ok<SyncSummary>('sync');
  expect(summary.error).toBeNull();
  expect(summary.pushed).toBeGreaterThanOrEqual(4);
  expect((await ok<AppStatus>('getStatus')).outbox.pending).toBe(0);
  // With no sync running there is nothing to cancel: the edge still answers, and says so.
  expect(await ok<{ cancelled: boolean }>('cancelSync')).toEqual({ cancelled: false });
  const diagnostics = await ok<{ text: string; logFile: string | null }>('getDiagnostics');
  expect(diagnostics.text).toMatch(/^Bookkeeping /);
  expect(diagnostics.text).toContain('Last sync: {');
  return reached;
}
