import { createPinia, setActivePinia } from 'pinia';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useConnectionBadge } from '../../src-renderer/src/composables/connection-badge';
import { useAccountsStore } from '../../src-renderer/src/stores/accounts';
import { useCarsStore } from '../../src-renderer/src/stores/cars';
import { useCategoriesStore } from '../../src-renderer/src/stores/categories';
import { useConnectionStore } from '../../src-renderer/src/stores/connection';
import { useCoreEventsStore } from '../../src-renderer/src/stores/core-events';
import { useDataVersionsStore } from '../../src-renderer/src/stores/data-versions';
import { useOutboxStore } from '../../src-renderer/src/stores/outbox';
import { usePasswordPromptStore } from '../../src-renderer/src/stores/password-prompt';
import { usePreferencesStore, systemLanguage } from '../../src-renderer/src/stores/preferences';
import { MAX_ROWS, PAGE_SIZE, useRegisterStore } from '../../src-renderer/src/stores/register';
import { useStatusStore } from '../../src-renderer/src/stores/status';
import { useSyncStore } from '../../src-renderer/src/stores/sync';
import { TOAST_MS, useToastsStore } from '../../src-renderer/src/stores/toasts';
import {
  AppError,
  DATA_TABLES,
  DEFAULT_PREFERENCES,
  type AccountsView,
  type InputOf,
  type OutboxEntryView,
  type Preferences,
  type RefuelingView,
  type RegisterPage,
  type RegisterRow,
  type SyncSummary,
} from '../../src-shared/app-api';
import { readBothLanguages } from '../support/messages';
import { turns, until } from '../support/until';
import { account, deferred, refueling, standIn, status } from './stand-in';

beforeAll(readBothLanguages);

const summary = (over: Partial<SyncSummary> = {}): SyncSummary => ({
  startedAt: '2026-11-21T10:00:00Z',
  finishedAt: '2026-11-21T10:00:05Z',
  first: false,
  pushed: 2,
  refused: 0,
  waiting: 0,
  conflicts: 0,
  unknown: 0,
  undecidable: 0,
  pulled: { accounts: 3, transactions: 10, templates: 1, categories: 4, refuelings: 2 },
  received: { accounts: 0, transactions: 3, templates: 0, categories: 0, refuelings: 0 },
  error: null,
  errorCode: null,
  ...over,
});

const prefs = (over: Partial<Preferences> = {}): Preferences => ({ ...DEFAULT_PREFERENCES, ...over });

beforeEach(() => setActivePinia(createPinia()));
afterEach(() => vi.useRealTimers());

describe("status, sync and the core's events", () => {
  it('reads the status, follows sync events and moves the versions of the tables a change names', async () => {
    const s = standIn({ getStatus: async () => status() });
    const events = useCoreEventsStore();
    const store = useStatusStore();
    const sync = useSyncStore();
    const data = useDataVersionsStore();
    await events.start();
    await events.start();
    expect(s.listeners.size).toBe(1);
    expect(store.status?.configured).toBe(true);
    expect(sync.syncing).toBe(false);

    s.emit({ type: 'sync-started' });
    expect(sync.syncing).toBe(true);
    s.emit({ type: 'sync-progress', phase: 'pull', done: 2, total: 5 });
    expect(sync.progress).toEqual({ phase: 'pull', done: 2, total: 5 });
    s.emit({ type: 'sync-finished', summary: summary() });
    expect(sync.syncing).toBe(false);
    expect(sync.summary?.pushed).toBe(2);
    expect(store.status?.lastSyncAt).toBe('2026-11-21T10:00:05Z');

    s.emit({
      type: 'data-changed',
      status: status({
        lastSyncAt: '2026-11-21T10:00:05Z',
        outbox: { pending: 2, unknown: 0, undecidable: 0, refused: 1, conflicts: 1, blocked: 0 },
      }),
      tables: ['refuelings', 'outbox'],
    });
    // Only the tables the change touched move: screens showing others do not read again.
    expect(data.versions).toEqual({
      accounts: 0,
      transactions: 0,
      templates: 0,
      categories: 0,
      cars: 0,
      refuelings: 1,
      outbox: 1,
      preferences: 0,
      budgets: 0,
      carCosts: 0,
    });
    expect(data.reportedSync).toBe('2026-11-21T10:00:05Z');
    expect(store.queued).toBe(4);
    expect(store.attention).toBe(2);
    events.stop();
    expect(s.listeners.size).toBe(0);
  });

  it('derives the badge from the last exchange and the sync running now; a failed sync moves neither the last sync nor the last success', async () => {
    const connected = {
      outcome: 'connected' as const,
      at: '2026-11-21T09:00:00Z',
      via: 'sync' as const,
      lastSuccessAt: '2026-11-21T09:00:00Z',
      error: null,
    };
    const s = standIn({ getStatus: async () => status({ lastSyncAt: '2026-11-21T09:00:00Z', exchange: connected }) });
    await useCoreEventsStore().start();
    const store = useStatusStore();
    const badge = useConnectionBadge();
    expect(badge.value?.kind).toBe('connected');
    s.emit({ type: 'sync-started' });
    expect(badge.value?.kind).toBe('syncing');
    s.emit({
      type: 'sync-waiting',
      until: Date.parse('2026-11-21T10:00:01Z'),
      cause: 'network',
      httpStatus: null,
      reason: 'refused',
      attempt: 1,
    });
    expect(badge.value).toMatchObject({ kind: 'unreachable', lastSuccessAt: '2026-11-21T09:00:00Z' });
    // The service refused the credentials: the badge says so at once, before the core's status arrives.
    s.emit({
      type: 'sync-finished',
      summary: summary({ pushed: 0, received: null, pulled: null, error: { code: 'credentialsRefused', params: {} }, errorCode: 'auth' }),
    });
    expect(badge.value).toMatchObject({
      kind: 'credentials-refused',
      at: '2026-11-21T10:00:05Z',
      lastSuccessAt: '2026-11-21T09:00:00Z',
      error: { code: 'credentialsRefused' },
    });
    expect(store.status?.lastSyncAt).toBe('2026-11-21T09:00:00Z');
    // A cancelled sync decided nothing about the service.
    s.emit({
      type: 'sync-finished',
      summary: summary({ error: { code: 'syncCancelled', params: { waiting: 0 } }, errorCode: 'cancelled' }),
    });
    expect(badge.value?.kind).toBe('credentials-refused');
    // Nor did a sync that failed on this side (a bug): the core records no exchange for it either.
    s.emit({ type: 'sync-finished', summary: summary({ error: { code: 'syncUnexpected', params: {} }, errorCode: 'service' }) });
    expect(badge.value?.kind).toBe('credentials-refused');
    s.emit({ type: 'sync-finished', summary: summary() });
    expect(badge.value).toMatchObject({ kind: 'connected', lastSuccessAt: '2026-11-21T10:00:05Z' });
  });

  it("runs one sync at a time and keeps its summary; what it changed moves only with the core's change", async () => {
    const running = deferred<SyncSummary>();
    const s = standIn({ getStatus: async () => status(), sync: () => running.promise });
    await useCoreEventsStore().start();
    const store = useSyncStore();
    const data = useDataVersionsStore();
    const first = store.sync();
    expect(store.syncing).toBe(true);
    expect(await store.sync()).toBeNull();
    running.resolve(summary({ refused: 1 }));
    expect((await first)?.refused).toBe(1);
    expect(s.api.sync).toHaveBeenCalledTimes(1);
    expect(s.api.getStatus).toHaveBeenCalledTimes(2);
    expect(store.syncing).toBe(false);
    // The answer moves no table: the core's data-changed names those the sync changed.
    expect(data.versions).toEqual(Object.fromEntries(DATA_TABLES.map((t) => [t, 0])));
    s.emit({ type: 'data-changed', status: status(), tables: ['transactions', 'accounts'] });
    expect(data.versions).toMatchObject({ transactions: 1, accounts: 1, refuelings: 0, cars: 0 });
    store.dismissSummary();
    expect(store.summary).toBeNull();
  });

  it('keeps the reason a sync could not run, but not a sync already running elsewhere', async () => {
    let refusal: AppError = new AppError('syncRunning');
    standIn({ getStatus: async () => status(), sync: async () => Promise.reject(refusal) });
    await useCoreEventsStore().start();
    const store = useSyncStore();
    expect(await store.sync()).toBeNull();
    expect(store.syncError).toBeNull();
    refusal = new AppError('notConnected');
    expect(await store.sync()).toBeNull();
    expect(store.syncError?.kind).toBe('not-connected');
    expect(store.syncing).toBe(false);
  });

  it('asks for the password where none is kept, and its answer syncs with it', async () => {
    const kept = status();
    const s = standIn({
      getStatus: async () => ({ ...kept, connection: { ...kept.connection!, rememberPassword: false } }),
      sync: async () => summary(),
    });
    await useCoreEventsStore().start();
    const store = useSyncStore();
    const prompt = usePasswordPromptStore();
    expect(await store.sync()).toBeNull();
    expect(prompt.reason).toBe('needed');
    expect(s.api.sync).not.toHaveBeenCalled();
    await store.answerPassword('secret');
    expect(prompt.reason).toBeNull();
    expect(s.api.sync).toHaveBeenCalledWith({ password: 'secret' });
    await store.answerPassword(null);
    expect(s.api.sync).toHaveBeenCalledTimes(1);
  });

  it('asks for setup only until the user connects or chooses to work offline', async () => {
    standIn({
      getStatus: async () => status({ configured: false, connection: null }),
      workOffline: async () => status({ configured: false, workingOffline: true, connection: null }),
    });
    const store = useStatusStore();
    expect(store.needsSetup).toBe(false);
    await useCoreEventsStore().start();
    expect(store.needsSetup).toBe(true);
    await useConnectionStore().workOffline();
    expect(store.needsSetup).toBe(false);
  });

  it('hands a refused connect back as an AppError with its field', async () => {
    standIn({ connect: async () => Promise.reject({ code: 'required', params: {}, field: 'baseUrl' }) });
    const error = await useConnectionStore()
      .connect({ baseUrl: ' ', clientKey: 'k', login: 'l', password: 'p' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).field).toBe('baseUrl');
    expect((error as AppError).kind).toBe('invalid-input');
  });
});

describe('preferences store', () => {
  it('speaks the system language during the first run and stores it when the run is done', async () => {
    const s = standIn({
      getStatus: async () => status({ configured: false, connection: null }),
      getPreferences: async () => prefs({ language: 'en' }),
      setPreferences: async (p: Partial<Preferences>) => prefs(p),
    });
    await useCoreEventsStore().start();
    const store = usePreferencesStore();
    await store.load();
    expect(store.language).toBe(systemLanguage([]));
    await store.setLanguage('cs');
    expect(store.language).toBe('cs');
    expect(s.api.setPreferences).not.toHaveBeenCalled();
    await store.rememberFirstRunLanguage('cs');
    expect(s.api.setPreferences).toHaveBeenCalledWith({ language: 'cs' });
  });

  it('follows the stored language after the first run', async () => {
    const s = standIn({
      getStatus: async () => status(),
      getPreferences: async () => prefs({ language: 'en', theme: 'dark' }),
      setPreferences: async () => prefs({ language: 'cs' }),
    });
    await useCoreEventsStore().start();
    const store = usePreferencesStore();
    await store.load();
    expect(store.language).toBe('en');
    expect(store.theme).toBe('dark');
    await store.setLanguage('cs');
    expect(s.api.setPreferences).toHaveBeenCalledWith({ language: 'cs' });
    expect(store.language).toBe('cs');
  });

  it('picks Czech for a Czech or Slovak system, else English', () => {
    expect(systemLanguage(['cs-CZ', 'en'])).toBe('cs');
    expect(systemLanguage(['sk'])).toBe('cs');
    expect(systemLanguage(['de-DE', 'en-GB'])).toBe('en');
    expect(systemLanguage(['fr'])).toBe('en');
  });
});

describe('accounts store', () => {
  const view = (accounts: ReturnType<typeof account>[]): AccountsView => ({ accounts, totals: [] });

  it('lists what the toggle shows and keeps every account for pickers', async () => {
    const all = [
      account({ id: 1, name: 'Wallet' }),
      account({ id: 2, isHidden: true }),
      account({ id: 3, permission: 1 }),
      account({ id: 4, isActive: false }),
    ];
    const s = standIn({
      listAccounts: async (input: { includeHidden?: boolean }) =>
        view(input.includeHidden ? all : all.filter((a) => !a.isHidden && a.isActive)),
    });
    const store = useAccountsStore();
    await store.load();
    expect(s.api.listAccounts).toHaveBeenCalledWith({ includeHidden: false, includeInactive: false });
    expect(store.view?.accounts.map((a) => a.id)).toEqual([1, 3]);
    expect(store.all).toHaveLength(4);
    expect(store.hiddenCount).toBe(2);
    expect(store.writable.map((a) => a.id)).toEqual([1, 2, 4]);
    expect(store.byId.get(1)?.name).toBe('Wallet');
    await store.setShowAll(true);
    expect(store.view?.accounts).toHaveLength(4);
  });

  it('a load overtaken by a newer one settles only once the newer one is shown, never on the older data', async () => {
    const answers = [deferred<AccountsView>(), deferred<AccountsView>()];
    let call = 0;
    // Each load reads the list twice (what the screen shows, and every account for the pickers).
    standIn({ listAccounts: () => answers[Math.floor(call++ / 2)]!.promise });
    const store = useAccountsStore();
    const older = store.load();
    const newer = store.load();
    let olderDone = false;
    void older.then(() => (olderDone = true));
    answers[0]!.resolve(view([]));
    await turns();
    // The older answer is dropped, and whoever waited for it waits for the newer one.
    expect(olderDone).toBe(false);
    expect(store.view).toBeNull();
    answers[1]!.resolve(view([account({ id: 7 })]));
    await older;
    expect(store.view?.accounts.map((a) => a.id)).toEqual([7]);
    await newer;
  });

  it("leaves reading again after a write to the screens (on the core's change) and hands failures back as AppError", async () => {
    let added = false;
    const s = standIn({
      listAccounts: async () => view(added ? [account({ id: -1, local: true, pending: true })] : []),
      addAccount: async () => {
        added = true;
        return { outboxId: 1, id: -1 };
      },
      editAccount: async () => Promise.reject({ code: 'accountMissing', params: { id: 9 } }),
    });
    const store = useAccountsStore();
    await store.load();
    expect(
      await store.add({ name: 'New', description: '', currency: 203, type: 1, isActive: true, isHidden: false, locked: false, ord: 1 }),
    ).toEqual({ outboxId: 1, id: -1 });
    await expect(
      store.edit({ id: 9, name: 'x', description: '', type: 1, isActive: true, isHidden: false, locked: false, ord: 0 }),
    ).rejects.toMatchObject({ kind: 'not-found' });
    // The one load (the list shown, and every account): the screens showing accounts read again on the core's change.
    expect(s.api.listAccounts).toHaveBeenCalledTimes(2);
    expect(store.all).toEqual([]);
  });

  it('keeps the error of a failed load for the screen', async () => {
    standIn({ listAccounts: async () => Promise.reject(new AppError('bug', { log: '' })) });
    const store = useAccountsStore();
    await store.load();
    expect(store.error?.kind).toBe('internal');
    expect(store.loading).toBe(false);
  });
});

describe('register store', () => {
  /** A register of `n` rows, newest first (row k on day 2026-01-01 minus k/10 days), read by keyset like the core. */
  function fakeRegister(n: number) {
    const day = (k: number) => new Date(Date.UTC(2026, 0, 1) - Math.floor(k / 10) * 86_400_000).toISOString().slice(0, 10);
    const all: RegisterRow[] = Array.from({ length: n }, (_, k) => ({
      key: `id:${n - k}`,
      id: n - k,
      accountId: 1,
      accountName: 'A',
      paymentDate: `${day(k)}T10:00:00`,
      type: 2,
      amount: '-1',
      description: `row ${k}`,
      categoryId: 0,
      categoryName: null,
      pending: false,
      outboxId: null,
      balance: String(k - n),
      transfer: false,
      counterpart: null,
    }));
    const listRegister = async (i: InputOf<'listRegister'>): Promise<RegisterPage> => {
      const limit = i.limit ?? 100;
      const at = i.after ? all.findIndex((r) => r.key === i.after!.key) : -1;
      let from: number;
      let rows: RegisterRow[];
      let more: boolean;
      if (i.at !== undefined) {
        from = all.findIndex((r) => r.paymentDate.slice(0, 10) <= i.at!);
        if (from < 0) from = all.length;
        rows = all.slice(from, from + limit);
        more = from + limit < all.length;
      } else if ((i.direction ?? 'older') === 'older') {
        from = at + 1;
        rows = all.slice(from, from + limit);
        more = from + limit < all.length;
      } else {
        const end = i.after ? at : all.length;
        from = Math.max(0, end - limit);
        rows = all.slice(from, end);
        more = from > 0;
      }
      return {
        rows,
        more,
        total: i.counts ? all.length : null,
        position: i.counts ? from : null,
        currency: 203,
        balance: '0',
        accountIds: [1],
      };
    };
    return { all, listRegister };
  }

  it('opens at the newest rows and extends the window both ways by keyset, letting the far end go', async () => {
    const r = fakeRegister(2000);
    const s = standIn({ listRegister: r.listRegister });
    const store = useRegisterStore();
    await store.open({ accountId: 1 });
    expect(s.api.listRegister).toHaveBeenLastCalledWith({ accountId: 1, limit: PAGE_SIZE, counts: true });
    expect(store).toMatchObject({ start: 0, total: 2000, moreOlder: true, moreNewer: false, anchor: 'first' });
    for (let k = 0; k < 20; k++) await store.older();
    // Everything read is consecutive and the window holds at most MAX_ROWS rows.
    expect(store.rows).toHaveLength(MAX_ROWS);
    expect(store.start).toBe(2000 - MAX_ROWS);
    expect(store.rows.map((x) => x.key)).toEqual(r.all.slice(store.start, store.start + MAX_ROWS).map((x) => x.key));
    expect(store.moreOlder).toBe(false);
    await store.newer();
    expect(store.start).toBe(2000 - MAX_ROWS - PAGE_SIZE);
    expect(store.rows.map((x) => x.key)).toEqual(r.all.slice(store.start, store.start + store.rows.length).map((x) => x.key));
    expect(store.moreOlder).toBe(true);
    while (store.moreNewer) await store.newer();
    expect(store.rows[0]!.key).toBe(r.all[0]!.key);
  });

  it('jumps to a date, the oldest and the newest rows, each a new window with its place in the register', async () => {
    const r = fakeRegister(500);
    standIn({ listRegister: r.listRegister });
    const store = useRegisterStore();
    await store.open({ accountId: 1 });
    const replaced = store.replaced;
    await store.jump('2025-12-20');
    expect(store.start).toBe(r.all.findIndex((x) => x.paymentDate < '2025-12-21'));
    expect(store.rows[0]!.paymentDate.slice(0, 10)).toBe('2025-12-20');
    expect(store).toMatchObject({ anchor: 'first', moreNewer: true, moreOlder: true });
    await store.oldest();
    expect(store).toMatchObject({ start: 400, anchor: 'last', moreOlder: false });
    expect(store.rows.at(-1)!.key).toBe(r.all.at(-1)!.key);
    await store.newest();
    expect(store).toMatchObject({ start: 0, anchor: 'first', replaced: replaced + 3 });
    // Before the oldest row there is nothing to show but the oldest rows.
    await store.jump('1999-01-01');
    expect(store).toMatchObject({ start: 400, anchor: 'last' });
  });

  it('drops answers to requests the window was replaced after, and reads the same register again where it was', async () => {
    const r = fakeRegister(500);
    const slow = deferred<RegisterPage>();
    let calls = 0;
    standIn({ listRegister: (i: InputOf<'listRegister'>) => (++calls === 2 ? slow.promise : r.listRegister(i)) });
    const store = useRegisterStore();
    await store.open({ accountId: 1 });
    const stale = store.jump('2025-12-01');
    await until('the jump to ask for its rows', () => calls === 2);
    // The jump's answer is still on its way when the newest rows are asked for.
    const fresh = store.newest();
    slow.resolve(await r.listRegister({ accountId: 1, at: '2025-12-01', counts: true }));
    await Promise.all([stale, fresh]);
    expect(store.start).toBe(0);
    expect(store.rows[0]!.key).toBe(r.all[0]!.key);
    // The same account again (after a data change): from the day of the window's first row.
    await store.jump('2025-11-15');
    const first = store.rows[0]!.paymentDate;
    await store.open({ accountId: 1 });
    expect(store.rows[0]!.paymentDate).toBe(first);
    await store.setText('fuel');
    expect(store.text).toBe('fuel');
    // Another account: from its newest row, without the text.
    await store.open({ accountId: 2 });
    expect(store.text).toBe('');
    expect(store.start).toBe(0);
  });
});

describe('categories, cars and outbox stores', () => {
  it('names categories by path, the tree read again by the screens after adding one', async () => {
    let tree = {
      favorites: [],
      all: [
        { id: 1, name: 'Car', parentId: 0, pending: false, children: [{ id: 2, name: 'Fuel', parentId: 1, pending: false, children: [] }] },
      ],
    };
    const s = standIn({
      getCategoryTree: async () => tree,
      addCategory: async (i: { name: string; parentId: number }) => {
        tree = { ...tree, all: [...tree.all, { id: -5, name: i.name, parentId: 0, pending: true, children: [] }] };
        return { outboxId: 3, id: -5 };
      },
    });
    const store = useCategoriesStore();
    await store.load();
    expect(store.pathOf(2)).toBe('Car › Fuel');
    expect(store.pathOf(0)).toBeNull();
    // A record's category: the tree's path first, then the name the record brought, else another user's: the service lists only the user's own categories (never its number).
    expect(store.label(2, 'Palivo')).toBe('Car › Fuel');
    expect(store.label(21, 'Domácnost')).toBe('Domácnost');
    expect(store.label(21, null)).toBe('Another user’s category');
    expect(store.label(0, 'ignored')).toBe('');
    await store.add('Home', 0);
    expect(s.api.addCategory).toHaveBeenCalledWith({ name: 'Home', parentId: 0 });
    expect(s.api.getCategoryTree).toHaveBeenCalledTimes(1);
    // What a screen showing categories does on the core's change.
    await store.load();
    expect(store.pathOf(-5)).toBe('Home');
  });

  it('names cars and accounts, never by their numbers: an unknown one as unknown, a number only between cars of one name', async () => {
    const car = (carId: number, name: string) => ({
      carId,
      name,
      refuelings: 0,
      lastTachometer: null,
      lastDate: null,
      lastCurrency: null,
      pending: false,
    });
    standIn({
      listCars: async () => [car(1, 'Octavia'), car(2, 'Fabia'), car(3, 'Fabia')],
      listAccounts: async () => ({ accounts: [account({ id: 4, name: 'Wallet' })], totals: [] }),
    });
    const cars = useCarsStore();
    await cars.load();
    expect(cars.carName(1)).toBe('Octavia');
    expect(cars.carName(23)).toBe('Unknown car');
    expect([1, 2, 3].map((id) => cars.carOption(id))).toEqual(['Octavia', 'Fabia (car 2)', 'Fabia (car 3)']);
    const accounts = useAccountsStore();
    await accounts.load();
    expect([accounts.nameOf(4), accounts.nameOf(21)]).toEqual(['Wallet', 'Unknown account']);
  });

  it('checks odometers against the car’s refuelings, and against the new one once the screens read again', async () => {
    const r = (id: number, tachometer: number, date: string) => refueling(id, tachometer, { dateOfPurchase: date });
    let list = [r(1, 1000, '2026-11-01T10:00:00')];
    standIn({
      listCars: async () => [
        {
          carId: 7,
          name: 'Octavia',
          refuelings: list.length,
          lastTachometer: list[0]!.tachometer,
          lastDate: null,
          lastCurrency: 203,
          pending: false,
        },
      ],
      listRefuelings: async () => list,
      addRefueling: async () => {
        list = [r(-1, 1500, '2026-11-21T10:00:00'), ...list];
        return { outboxId: 1, id: -1 };
      },
    });
    const store = useCarsStore();
    await store.load();
    expect(store.carName(7)).toBe('Octavia');
    expect(store.carName(8)).toBe('Unknown car');
    expect(store.checkOdometer(7, 900, '2026-11-21T10:00')).toEqual({ kind: 'not-increasing', previous: 1000 });
    await store.ensureRefuelings(7);
    await store.addRefueling({
      carId: 7,
      dateOfPurchase: '2026-11-21T10:00',
      tachometer: 1500,
      liter: '40',
      price: '1500',
      currency: 203,
      rate: '1',
      description: '',
    });
    // What the car screens do on the core's change: the car list again, the refuelings when next wanted.
    await store.load();
    await store.ensureRefuelings(7);
    expect(store.refuelings[7]?.map((x) => x.id)).toEqual([-1, 1]);
    expect(store.byId.get(7)?.lastTachometer).toBe(1500);
    expect(store.checkOdometer(7, 1400, '2026-11-22T10:00')).toEqual({ kind: 'not-increasing', previous: 1500 });
  });

  it("drops the refuelings it keeps for odometer checks when local data changes, except the open car's", async () => {
    const r = (id: number, carId: number, tachometer: number) => refueling(id, tachometer, { carId });
    let lists: Record<number, RefuelingView[]> = { 7: [r(-1, 7, 1000)], 8: [r(2, 8, 500)] };
    standIn({ listCars: async () => [], listRefuelings: async (i: { carId: number }) => lists[i.carId]! });
    const store = useCarsStore();
    await store.openCar(8);
    await store.ensureRefuelings(7);
    // A sync gives the refueling made offline its real id.
    lists = { 7: [r(11, 7, 1000)], 8: [r(2, 8, 500)] };
    await store.load();
    expect(store.refuelings[7]).toBeUndefined();
    expect(store.refuelings[8]).toHaveLength(1);
    expect((await store.ensureRefuelings(7)).map((x) => x.id)).toEqual([11]);
  });

  it("sends a refueling's marks with its write, in one call, and marks one partial on its own", async () => {
    let list: RefuelingView[] = [refueling(1, 1000)];
    let next = -1;
    const s = standIn({
      listCars: async () => [],
      listRefuelings: async () => list,
      addRefueling: async (i: { partial?: boolean }) => {
        const id = next--;
        list = [{ ...refueling(id, 1500 - id), partial: i.partial ?? false }, ...list];
        return { outboxId: -id, id };
      },
      editRefueling: async () => ({ outboxId: 2, id: 1 }),
      setRefuelingPartial: async (i: { id: number; partial: boolean }) =>
        (list = list.map((r) => (r.id === i.id ? { ...r, partial: i.partial } : r))),
    });
    const store = useCarsStore();
    const input = {
      carId: 7,
      dateOfPurchase: '2026-11-21T10:00',
      tachometer: 1500,
      liter: '20',
      price: '800',
      currency: 203,
      rate: '1',
      description: '',
    };
    await store.addRefueling({ ...input, partial: true });
    expect(s.api.addRefueling).toHaveBeenCalledWith({ ...input, partial: true });
    await store.ensureRefuelings(7);
    expect(store.refuelings[7]?.map((r) => [r.id, r.partial])).toEqual([
      [-1, true],
      [1, false],
    ]);
    await store.editRefueling({ ...input, id: 1, tachometer: 1000, partial: true });
    expect(s.api.editRefueling).toHaveBeenLastCalledWith({ ...input, id: 1, tachometer: 1000, partial: true });
    expect(s.api.setRefuelingPartial).not.toHaveBeenCalled();
    await store.setPartial(7, -1, false);
    expect(s.api.setRefuelingPartial).toHaveBeenCalledWith({ id: -1, partial: false });
    expect(store.refuelings[7]?.map((r) => [r.id, r.partial])).toEqual([
      [-1, false],
      [1, false],
    ]);
  });

  it('replaces the outbox with what each action returns', async () => {
    const e = (id: number, st: OutboxEntryView['status']): OutboxEntryView => ({
      id,
      kind: 'editAccount',
      status: st,
      message: null,
      createdAt: '',
      attempts: 1,
      input: { id: 1, name: 'x', description: '', type: 1, isActive: true, isHidden: false, locked: false, ord: 0 },
      targetId: 1,
      dependents: [],
      conflicts: [],
    });
    const s = standIn({
      listOutbox: async () => [e(1, 'refused'), e(2, 'conflict')],
      retryOutbox: async () => [e(1, 'pending'), e(2, 'conflict')],
      resolveConflict: async () => [e(1, 'pending'), e(2, 'pending')],
      discardOutbox: async () => [e(2, 'pending')],
      updateOutbox: async () =>
        Promise.reject({ code: 'invalid-input', message: 'input.input.name: must not be empty', field: 'input.input.name' }),
    });
    const store = useOutboxStore();
    await store.load();
    expect(store.groups.attention).toHaveLength(2);
    await store.retry(1);
    expect(store.groups.attention.map((x) => x.id)).toEqual([2]);
    await store.resolve(2, { name: 'mine' });
    expect(s.api.resolveConflict).toHaveBeenCalledWith({ id: 2, choices: { name: 'mine' } });
    expect(store.groups.attention).toHaveLength(0);
    await store.discard(1);
    expect(store.entries.map((x) => x.id)).toEqual([2]);
    await expect(store.update(2, { name: '' })).rejects.toBeInstanceOf(AppError);
    expect(store.entries.map((x) => x.id)).toEqual([2]);
  });
});

describe('toasts store', () => {
  it('lets confirmations fade and keeps errors until dismissed, at most four at once', () => {
    vi.useFakeTimers();
    const store = useToastsStore();
    store.push({ kind: 'success', text: 'ok' });
    const error = store.push({ kind: 'error', text: 'bad' });
    vi.advanceTimersByTime(TOAST_MS);
    expect(store.toasts.map((t) => t.text)).toEqual(['bad']);
    for (let i = 0; i < 5; i++) store.push({ kind: 'info', text: `n${i}` });
    expect(store.toasts).toHaveLength(4);
    store.dismiss(error);
    expect(store.toasts.some((t) => t.id === error)).toBe(false);
  });
});
