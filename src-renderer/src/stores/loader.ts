/** The loading state every store shares: latest request wins, errors kept as AppError for the screen. */
import { ref } from 'vue';
import type { AppError } from '../../../src-shared/app-api';
import { toAppError } from '../api';

export function createLoader<T>(fetch: () => Promise<T>, apply: (value: T) => void) {
  const loading = ref(false);
  const loaded = ref(false);
  const error = ref<AppError | null>(null);
  let latest = 0;
  /** The newest load in flight or done. */
  let newest: Promise<void> = Promise.resolve();

  async function run(mine: number): Promise<void> {
    try {
      const value = await fetch();
      if (mine !== latest) return;
      apply(value);
      error.value = null;
      loaded.value = true;
    } catch (e) {
      if (mine === latest) error.value = toAppError(e);
    } finally {
      if (mine === latest) loading.value = false;
    }
  }

  /**
   * Loads again. Settles once data at least as new as the call is shown (or the newest load failed): an
   * answer overtaken by a newer load is dropped, and the caller waits for that newer one instead.
   */
  async function load(): Promise<void> {
    loading.value = true;
    let mine = run(++latest);
    newest = mine;
    await mine;
    while (newest !== mine) {
      mine = newest;
      await mine;
    }
  }

  return { loading, loaded, error, load };
}

/** Runs a write and hands any failure back as an AppError, so forms can show it next to the field. */
export async function write<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    throw toAppError(e);
  }
}
