/** One account's transactions from the local history, newest first, a page at a time, with search. */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { TransactionPage } from '../../../src-shared/app-api';
import { api } from '../api';
import { createLoader } from './loader';

export const PAGE_SIZE = 50;

export const useTransactionsStore = defineStore('transactions', () => {
  const accountId = ref<number | null>(null);
  const search = ref('');
  const offset = ref(0);
  const page = ref<TransactionPage | null>(null);

  const loader = createLoader(
    async () => {
      if (accountId.value === null) return null;
      const query = search.value.trim();
      return api().listTransactions({ accountId: accountId.value, offset: offset.value, limit: PAGE_SIZE, ...(query ? { search: query } : {}) });
    },
    (p) => (page.value = p),
  );

  const total = computed(() => page.value?.total ?? 0);
  const pageCount = computed(() => Math.max(1, Math.ceil(total.value / PAGE_SIZE)));
  const pageIndex = computed(() => Math.floor(offset.value / PAGE_SIZE));
  const hasPrevious = computed(() => offset.value > 0);
  const hasNext = computed(() => offset.value + PAGE_SIZE < total.value);
  /** 1-based positions of the first and last item shown. */
  const range = computed(() => {
    const count = page.value?.items.length ?? 0;
    return count === 0 ? null : { from: offset.value + 1, to: offset.value + count };
  });

  /**
   * Reads the page shown again. When the history has shrunk below it (pending writes discarded while an
   * old page was open), it shows the last page there is rather than an empty one.
   */
  async function load(): Promise<void> {
    await loader.load();
    const p = page.value;
    if (p && p.items.length === 0 && offset.value > 0 && p.total > 0) {
      offset.value = (pageCount.value - 1) * PAGE_SIZE;
      await loader.load();
    }
  }

  /** Shows an account from its newest transactions; reopening the same account keeps page and search. */
  async function open(id: number): Promise<void> {
    if (accountId.value !== id) {
      accountId.value = id;
      search.value = '';
      offset.value = 0;
      page.value = null;
    }
    await load();
  }

  async function setSearch(text: string): Promise<void> {
    search.value = text;
    offset.value = 0;
    await loader.load();
  }

  async function goToPage(index: number): Promise<void> {
    const clamped = Math.min(Math.max(index, 0), pageCount.value - 1);
    offset.value = clamped * PAGE_SIZE;
    await load();
  }

  return {
    accountId,
    search,
    offset,
    page,
    total,
    pageCount,
    pageIndex,
    hasPrevious,
    hasNext,
    range,
    loading: loader.loading,
    error: loader.error,
    load,
    open,
    setSearch,
    goToPage,
    next: () => goToPage(pageIndex.value + 1),
    previous: () => goToPage(pageIndex.value - 1),
  };
});
