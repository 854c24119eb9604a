/**
 * The rows of the register on screen: a window of consecutive rows, newest first, with its place in the
 * whole register (`start`), and how a page read from the core joins it: in its place, below it (older
 * rows), or above it (newer ones). The far end is let go beyond MAX_ROWS.
 */
import { computed, ref, shallowRef } from 'vue';
import type { RegisterPage, RegisterRow } from '../../../src-shared/app-api';

/** Rows kept at most; scrolling past them lets the far end go. */
export const MAX_ROWS = 1500;

export type RegisterWindow = ReturnType<typeof createRegisterWindow>;

export function createRegisterWindow() {
  const start = ref(0);
  return {
    // The rows are data as the core gave them, never changed in place: no deep reactivity over thousands of them.
    rows: shallowRef<readonly RegisterRow[]>([]),
    /** The register's index of rows[0]. */
    start,
    total: ref(0),
    moreOlder: ref(false),
    moreNewer: computed(() => start.value > 0),
    currency: ref<number | null>(null),
    balance: ref<string | null>(null),
    accountIds: ref<number[]>([]),
    loaded: ref(false),
    /** Counts the windows shown from scratch (a jump, the newest, the oldest), and where the screen should look: its first row or its last. */
    replaced: ref(0),
    anchor: ref<'first' | 'last'>('first'),
  };
}

/** What every page says of the register as a whole. */
function accept(w: RegisterWindow, page: RegisterPage): void {
  w.currency.value = page.currency;
  w.balance.value = page.balance;
  w.accountIds.value = page.accountIds;
  if (page.total !== null) w.total.value = page.total;
  w.loaded.value = true;
}

/** A page read with counts (where it sits in the register) in place of the window. */
export function replaceWith(w: RegisterWindow, page: RegisterPage, direction: 'older' | 'newer'): void {
  accept(w, page);
  w.rows.value = page.rows;
  w.start.value = page.position ?? 0;
  // A page read from the oldest end has nothing older; one read towards the old end may have more.
  w.moreOlder.value = direction === 'older' ? page.more : false;
  w.anchor.value = direction === 'older' ? 'first' : 'last';
  w.replaced.value++;
}

/** Older rows below the window, letting rows go at the top if too many. */
export function appendOlder(w: RegisterWindow, page: RegisterPage): void {
  accept(w, page);
  const next = [...w.rows.value, ...page.rows];
  const drop = Math.max(0, next.length - MAX_ROWS);
  w.rows.value = next.slice(drop);
  w.start.value += drop;
  w.moreOlder.value = page.more;
}

/** Newer rows above the window, letting rows go at the bottom if too many. */
export function prependNewer(w: RegisterWindow, page: RegisterPage): void {
  accept(w, page);
  const next = [...page.rows, ...w.rows.value];
  const keep = Math.min(next.length, MAX_ROWS);
  if (keep < next.length) w.moreOlder.value = true;
  w.rows.value = next.slice(0, keep);
  // The register may have changed meanwhile: what lies before is what the page says.
  w.start.value = page.more ? Math.max(1, w.start.value - page.rows.length) : 0;
}

/** Nothing shown yet (another register opened). */
export function clearWindow(w: RegisterWindow): void {
  w.rows.value = [];
  w.start.value = 0;
  w.total.value = 0;
  w.loaded.value = false;
}
