/** Accounts with balances: the list the Accounts screen shows and every account for pickers and names. */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { AccountEditInput, AccountInput, AccountView, AccountsView, TransferInput, WriteResult } from '../../../src-shared/app-api';
import { api } from '../api';
import { i18n } from '../i18n';
import { canWriteTo, groupAccounts } from '../logic/accounts';
import { createLoader, write } from './loader';

export const useAccountsStore = defineStore('accounts', () => {
  /** Show hidden and inactive accounts on the Accounts screen. */
  const showAll = ref(false);
  const view = ref<AccountsView | null>(null);
  const all = ref<AccountView[]>([]);

  const loader = createLoader(
    () =>
      Promise.all([
        api().listAccounts({ includeHidden: showAll.value, includeInactive: showAll.value }),
        api().listAccounts({ includeHidden: true, includeInactive: true }),
      ]),
    ([listed, every]) => {
      view.value = listed;
      all.value = every.accounts;
    },
  );

  const byId = computed(() => new Map(all.value.map((a) => [a.id, a])));
  const groups = computed(() => groupAccounts(view.value?.accounts ?? []));
  /** How many accounts the toggle hides. */
  const hiddenCount = computed(() => all.value.filter((a) => a.isHidden || !a.isActive).length);
  /** Accounts a write may use (read-only ones cannot be picked), in the service's order. */
  const writable = computed(() => all.value.filter(canWriteTo));

  async function setShowAll(value: boolean): Promise<void> {
    showAll.value = value;
    await loader.load();
  }

  // A write changes the accounts table (a transfer the transactions too): the screens showing them read
  // again on the core's data-changed event, this store's list with them.
  const add = (input: AccountInput): Promise<WriteResult> => write(() => api().addAccount(input));
  const edit = (input: AccountEditInput): Promise<WriteResult> => write(() => api().editAccount(input));
  /** Queues a transfer; both accounts' balances change at once (marked pending). */
  const transfer = (input: TransferInput): Promise<WriteResult> => write(() => api().transfer(input));

  /** An account's name; one not in the local copy is named as unknown, never by its number. */
  function nameOf(id: number): string {
    return byId.value.get(id)?.name ?? i18n.global.t('names.unknownAccount');
  }

  return {
    showAll,
    view,
    all,
    byId,
    nameOf,
    groups,
    hiddenCount,
    writable,
    loading: loader.loading,
    loaded: loader.loaded,
    error: loader.error,
    load: loader.load,
    setShowAll,
    add,
    edit,
    transfer,
  };
});
