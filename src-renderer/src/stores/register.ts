/**
 * The register on screen: a window of consecutive rows of one account's history (or of all accounts of a
 * currency), newest first, read from the core a page at a time by keyset (register-pages.ts). Scrolling
 * extends the window at either end; the far end is let go beyond MAX_ROWS, so that a decade of rows never
 * sits in memory. A jump (to a date, the newest, the oldest) replaces the window. `start` is the window's
 * place in the whole register, so the screen can say "rows 4,201-4,230 of 100,000".
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { InputOf } from '../../../src-shared/app-api';
import { createRegisterPages } from './register-pages';
import { clearWindow } from './register-window';

export { MAX_ROWS } from './register-window';
export const PAGE_SIZE = 100;

export interface RegisterScope {
  accountId?: number;
  currency?: number;
}

const sameScope = (a: RegisterScope | null, b: RegisterScope) => a !== null && a.accountId === b.accountId && a.currency === b.currency;

export const useRegisterStore = defineStore('register', () => {
  const scope = ref<RegisterScope | null>(null);
  const text = ref('');
  const pages = createRegisterPages((extra): InputOf<'listRegister'> => {
    const q = text.value.trim();
    return { ...scope.value, limit: PAGE_SIZE, ...(q ? { text: q } : {}), ...extra };
  });
  const { shown } = pages;

  /**
   * Shows an account's (or all accounts') register from its newest row; opening the same one again reads
   * again where it was (the day of its first row), keeping the text filter.
   */
  async function open(next: RegisterScope): Promise<void> {
    if (sameScope(scope.value, next) && shown.rows.value.length > 0) return refresh();
    scope.value = { ...next };
    text.value = '';
    clearWindow(shown);
    await pages.newest();
  }

  /** Reads the window again after the local data changed, from the day of its first row. */
  function refresh(): Promise<void> {
    const first = shown.rows.value[0];
    if (!first || shown.start.value === 0) return pages.newest();
    return pages.jump(first.paymentDate.slice(0, 10));
  }

  async function setText(next: string): Promise<void> {
    text.value = next;
    await pages.newest();
  }

  const { newest, oldest, jump, older, newer, loading, error } = pages;
  return { scope, text, ...shown, loading, error, open, refresh, setText, newest, oldest, jump, older, newer };
});
