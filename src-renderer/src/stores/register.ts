/**
 * The register on screen: a window of consecutive rows of one account's history (or of all accounts of a
 * currency), newest first, read from the core a page at a time by keyset. Scrolling extends the window
 * at either end; the far end is let go beyond MAX_ROWS, so that a decade of rows never sits in memory.
 * A jump (to a date, the newest, the oldest) replaces the window. `start` is the window's place in the
 * whole register, so the screen can say "rows 4,201-4,230 of 100,000".
 */
import { defineStore } from 'pinia';
import { computed, ref, shallowRef } from 'vue';
import type { AppError, InputOf, RegisterCursor, RegisterPage, RegisterRow } from '../../../src-shared/app-api';
import { api, toAppError } from '../api';

export const PAGE_SIZE = 100;
/** Rows kept at most; scrolling past them lets the far end go. */
export const MAX_ROWS = 1500;

export interface RegisterScope {
  accountId?: number;
  currency?: number;
}

const cursorOf = (r: RegisterRow): RegisterCursor => ({ paymentDate: r.paymentDate, key: r.key, id: r.id, outboxId: r.outboxId });
const sameScope = (a: RegisterScope | null, b: RegisterScope) => a !== null && a.accountId === b.accountId && a.currency === b.currency;

export const useRegisterStore = defineStore('register', () => {
  const scope = ref<RegisterScope | null>(null);
  const text = ref('');
  // The rows are data as the core gave them, never changed in place: no deep reactivity over thousands of them.
  const rows = shallowRef<readonly RegisterRow[]>([]);
  /** The register's index of rows[0]. */
  const start = ref(0);
  const total = ref(0);
  const moreOlder = ref(false);
  const currency = ref<number | null>(null);
  const balance = ref<string | null>(null);
  const accountIds = ref<number[]>([]);
  const loading = ref(false);
  const loaded = ref(false);
  const error = ref<AppError | null>(null);
  /** Counts the windows shown from scratch (a jump, the newest, the oldest), and where the screen should look: its first row or its last. */
  const replaced = ref(0);
  const anchor = ref<'first' | 'last'>('first');
  /** Bumped by every change of what the window shows from scratch: answers to older requests are dropped. */
  let generation = 0;
  /** One request at a time: an extension waits for the one before it. */
  let queue: Promise<unknown> = Promise.resolve();

  const moreNewer = computed(() => start.value > 0);

  function input(extra: Partial<InputOf<'listRegister'>>): InputOf<'listRegister'> {
    const q = text.value.trim();
    return { ...scope.value, limit: PAGE_SIZE, ...(q ? { text: q } : {}), ...extra };
  }

  function accept(page: RegisterPage): void {
    currency.value = page.currency;
    balance.value = page.balance;
    accountIds.value = page.accountIds;
    if (page.total !== null) total.value = page.total;
    loaded.value = true;
    error.value = null;
  }

  /**
   * Runs `work`: an extension after the requests before it, a replacement at once (whatever is on its way
   * is for a window no longer shown). An answer is dropped if the window was replaced meanwhile.
   */
  function enqueue(work: (mine: number) => Promise<void>, replaces: boolean): Promise<void> {
    const mine = replaces ? ++generation : generation;
    const go = async () => {
      if (mine !== generation) return;
      loading.value = true;
      try {
        await work(mine);
      } catch (e) {
        if (mine === generation) error.value = toAppError(e);
      } finally {
        if (mine === generation) loading.value = false;
      }
    };
    const run = replaces ? go() : queue.then(go);
    queue = run;
    return run;
  }

  /** Replaces the window with a page read with counts (where it sits in the register). */
  function replace(extra: Partial<InputOf<'listRegister'>>): Promise<void> {
    return enqueue(async (mine) => {
      const page = await api().listRegister(input({ ...extra, counts: true }));
      if (mine !== generation) return;
      accept(page);
      rows.value = page.rows;
      const direction = extra.direction ?? 'older';
      start.value = page.position ?? 0;
      // A page read from the oldest end has nothing older; one read towards the old end may have more.
      moreOlder.value = direction === 'older' ? page.more : false;
      anchor.value = direction === 'older' ? 'first' : 'last';
      replaced.value++;
    }, true);
  }

  const newest = () => replace({});
  const oldest = () => replace({ direction: 'newer' });
  /** The rows of a day and older; before the oldest row, the oldest rows (there is nothing older to show). */
  async function jump(date: string): Promise<void> {
    await replace({ at: date });
    if (rows.value.length === 0 && total.value > 0) await oldest();
  }

  /** Reads the rows after the window's last one and appends them, letting rows go at the top if too many. */
  function older(): Promise<void> {
    return enqueue(async (mine) => {
      const last = rows.value.at(-1);
      if (!last || !moreOlder.value) return;
      const page = await api().listRegister(input({ after: cursorOf(last) }));
      if (mine !== generation) return;
      accept(page);
      const next = [...rows.value, ...page.rows];
      const drop = Math.max(0, next.length - MAX_ROWS);
      rows.value = next.slice(drop);
      start.value += drop;
      moreOlder.value = page.more;
    }, false);
  }

  /** Reads the rows before the window's first one and prepends them, letting rows go at the bottom if too many. */
  function newer(): Promise<void> {
    return enqueue(async (mine) => {
      const first = rows.value[0];
      if (!first || start.value === 0) return;
      const page = await api().listRegister(input({ direction: 'newer', after: cursorOf(first) }));
      if (mine !== generation) return;
      accept(page);
      const next = [...page.rows, ...rows.value];
      const keep = Math.min(next.length, MAX_ROWS);
      if (keep < next.length) moreOlder.value = true;
      rows.value = next.slice(0, keep);
      // The register may have changed meanwhile: what lies before is what the page says.
      start.value = page.more ? Math.max(1, start.value - page.rows.length) : 0;
    }, false);
  }

  /**
   * Shows an account's (or all accounts') register from its newest row; opening the same one again reads
   * again where it was (the day of its first row), keeping the text filter.
   */
  async function open(next: RegisterScope): Promise<void> {
    if (sameScope(scope.value, next) && rows.value.length > 0) return refresh();
    scope.value = { ...next };
    text.value = '';
    rows.value = [];
    start.value = 0;
    total.value = 0;
    loaded.value = false;
    await newest();
  }

  /** Reads the window again after the local data changed, from the day of its first row. */
  function refresh(): Promise<void> {
    const first = rows.value[0];
    if (!first || start.value === 0) return newest();
    return jump(first.paymentDate.slice(0, 10));
  }

  async function setText(next: string): Promise<void> {
    text.value = next;
    await newest();
  }

  return {
    scope,
    text,
    rows,
    start,
    total,
    moreOlder,
    moreNewer,
    currency,
    balance,
    accountIds,
    loading,
    loaded,
    error,
    replaced,
    anchor,
    open,
    refresh,
    setText,
    newest,
    oldest,
    jump,
    older,
    newer,
  };
});
