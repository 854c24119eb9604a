/** The loading state every store shares: latest request wins, errors kept as AppError for the screen. */
import { ref } from 'vue';
import type { AppError } from '../../../src-shared/app-api';
import { toAppError } from '../api';

export function createLoader<T>(fetch: () => Promise<T>, apply: (value: T) => void) {
  const loading = ref(false);
  const loaded = ref(false);
  const error = ref<AppError | null>(null);
  let latest = 0;

  async function load(): Promise<void> {
    const mine = ++latest;
    loading.value = true;
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
