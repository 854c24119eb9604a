// @vitest-environment happy-dom
/**
 * Only the screens showing a table read it again, when the core says that table changed: after a sync,
 * the tables its data-changed names (a sync that brought only refuelings leaves the accounts screen as it
 * is); after a write, its tables (the store does not read again by itself). A screen whose tables the first
 * sync left alone says it is empty once the core has said what the sync changed, not that the sync still runs.
 */
import { flushPromises, mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { i18n } from '../../src-renderer/src/i18n';
import { useAccountsStore } from '../../src-renderer/src/stores/accounts';
import { useCoreEventsStore } from '../../src-renderer/src/stores/core-events';
import { useSyncStore } from '../../src-renderer/src/stores/sync';
import AccountsView from '../../src-renderer/src/views/AccountsView.vue';
import type { AccountView, AppStatus, DataTable, SyncSummary } from '../../src-shared/app-api';
import { readBothLanguages } from '../support/messages';
import { account, standIn, status, type StandIn } from './stand-in';

beforeAll(readBothLanguages);

let pinia: ReturnType<typeof createPinia>;
beforeEach(() => {
  pinia = createPinia();
  setActivePinia(pinia);
  i18n.global.locale.value = 'en';
});

const SYNCED_AT = '2026-11-21T10:00:05';
const none = { accounts: 0, transactions: 0, templates: 0, categories: 0, refuelings: 0 };
const summary = (received: Partial<typeof none>): SyncSummary => ({
  startedAt: '2026-11-21T10:00:00',
  finishedAt: SYNCED_AT,
  first: false,
  pushed: 0,
  refused: 0,
  conflicts: 0,
  unknown: 0,
  undecidable: 0,
  waiting: 0,
  pulled: { ...none, ...received },
  received: { ...none, ...received },
  error: null,
  errorCode: null,
});

/**
 * The app API of a core with these accounts, whose sync reports as the core does: started, finished,
 * then data-changed with the tables it changed (and the status the core then has), before it answers.
 */
function core(accounts: AccountView[], before: AppStatus, synced: { received: Partial<typeof none>; tables: DataTable[] }): StandIn {
  const after = { ...before, lastSyncAt: SYNCED_AT };
  const s: StandIn = standIn({
    getStatus: async () => before,
    listAccounts: async () => ({ accounts, totals: [] }),
    addAccount: async () => ({ outboxId: 1, id: -1 }),
    sync: async () => {
      s.emit({ type: 'sync-started' });
      s.emit({ type: 'sync-finished', summary: summary(synced.received) });
      s.emit({ type: 'data-changed', status: after, tables: synced.tables });
      return summary(synced.received);
    },
  });
  return s;
}

async function accountsScreen() {
  await useCoreEventsStore().start();
  const w = mount(AccountsView, { global: { plugins: [pinia, i18n], stubs: { RouterLink: true, AccountDialog: true } } });
  await flushPromises();
  return w;
}

describe('the screens read again only what changed', () => {
  it('a sync that brought only refuelings leaves the accounts screen as it is; one that names the accounts reads them', async () => {
    const s = core([account({ id: 1, name: 'Wallet' })], status({ lastSyncAt: '2026-11-20T08:00:00' }), {
      received: { refuelings: 1 },
      tables: ['refuelings', 'cars'],
    });
    const w = await accountsScreen();
    // The screen's one load reads the accounts twice (the list shown, and every account for the pickers).
    expect(s.api.listAccounts).toHaveBeenCalledTimes(2);
    expect(w.find('[data-account-id="1"]').exists()).toBe(true);

    expect(await useSyncStore().sync()).toMatchObject({ received: { refuelings: 1 } });
    await flushPromises();
    expect(s.api.listAccounts).toHaveBeenCalledTimes(2);

    s.emit({ type: 'data-changed', status: status({ lastSyncAt: SYNCED_AT }), tables: ['transactions', 'accounts'] });
    await flushPromises();
    expect(s.api.listAccounts).toHaveBeenCalledTimes(4);
    w.unmount();
  });

  it("a write does not read again by itself: the screen does, on the core's change", async () => {
    const s = core([], status({ lastSyncAt: '2026-11-20T08:00:00' }), { received: {}, tables: [] });
    const w = await accountsScreen();
    await useAccountsStore().add({
      name: 'New',
      description: '',
      currency: 203,
      type: 1,
      isActive: true,
      isHidden: false,
      locked: false,
      ord: 1,
    });
    expect(s.api.listAccounts).toHaveBeenCalledTimes(2);
    s.emit({ type: 'data-changed', status: status({ lastSyncAt: '2026-11-20T08:00:00' }), tables: ['accounts', 'outbox'] });
    await flushPromises();
    expect(s.api.listAccounts).toHaveBeenCalledTimes(4);
    w.unmount();
  });

  it('after a first sync that brought no accounts, the accounts screen says it has none instead of waiting for the sync', async () => {
    const s = core([], status({ lastSyncAt: null }), { received: { categories: 2 }, tables: ['categories'] });
    const w = await accountsScreen();
    expect(w.find('[data-testid=first-sync]').exists()).toBe(false);
    s.emit({ type: 'sync-started' });
    await flushPromises();
    expect(w.find('[data-testid=first-sync]').exists()).toBe(true);
    // Finished, but the core has not yet said what the sync changed: the accounts may still be on their way.
    s.emit({ type: 'sync-finished', summary: summary({ categories: 2 }) });
    await flushPromises();
    expect(w.find('[data-testid=first-sync]').exists()).toBe(true);
    s.emit({ type: 'data-changed', status: status({ lastSyncAt: SYNCED_AT }), tables: ['categories'] });
    await flushPromises();
    expect(w.find('[data-testid=first-sync]').exists()).toBe(false);
    expect(w.text()).toContain('No accounts yet');
    expect(s.api.listAccounts).toHaveBeenCalledTimes(2);
    w.unmount();
  });

  it('a first sync that brought accounts shows its progress until the screen has read them', async () => {
    const s = core([], status({ lastSyncAt: null }), { received: { accounts: 1 }, tables: ['accounts'] });
    const w = await accountsScreen();
    s.emit({ type: 'sync-started' });
    s.emit({ type: 'sync-finished', summary: summary({ accounts: 1 }) });
    s.emit({ type: 'data-changed', status: status({ lastSyncAt: SYNCED_AT }), tables: ['accounts'] });
    // The screen reads again; until its answer is in, the sync's data is on its way.
    await w.vm.$nextTick();
    expect(w.find('[data-testid=first-sync]').exists()).toBe(true);
    await flushPromises();
    expect(s.api.listAccounts).toHaveBeenCalledTimes(4);
    expect(w.find('[data-testid=first-sync]').exists()).toBe(false);
    w.unmount();
  });
});
