/**
 * Requests for one window of data, one at a time: an extension waits for the one before it; a
 * replacement starts at once, and whatever is on its way is for a window no longer shown, so its answer
 * is dropped (each replacement starts a new generation).
 */
import { ref } from 'vue';
import type { AppError } from '../../../src-shared/app-api';
import { toAppError } from '../api';

export function createRequestQueue() {
  const loading = ref(false);
  const error = ref<AppError | null>(null);
  /** Bumped by every replacement: answers to older requests are dropped. */
  let generation = 0;
  let queue: Promise<unknown> = Promise.resolve();

  /** Runs `work`, given its generation; an answer it gets is to be used only while `current(mine)`. */
  function run(work: (mine: number) => Promise<void>, replaces: boolean): Promise<void> {
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
    const next = replaces ? go() : queue.then(go);
    queue = next;
    return next;
  }

  /** Whether an answer of this generation is still for the window shown. */
  const current = (mine: number) => mine === generation;

  return { loading, error, run, current };
}
