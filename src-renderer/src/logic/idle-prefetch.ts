/**
 * Screens' chunks read ahead in idle time. Every screen but the first is a chunk read when first opened; its
 * first opening then also fetched, compiled and ran that chunk (and the charts' library, a third of a megabyte)
 * in the task that mounts the screen. Once the first screen is shown, each chunk is loaded in an idle period of
 * its own, one after the other, so that one load runs at a time and the page stays free for the user meanwhile;
 * a screen opened later finds its chunk ready. A load that fails is left alone: the screen's own load, when it
 * is opened, tries again and shows its failure there.
 */

/** Loads a chunk (a dynamic import). */
export type ChunkLoader = () => Promise<unknown>;

/** Runs `work` when the page is idle (requestIdleCallback where there is one). */
export type WhenIdle = (work: () => void) => void;

/** How long a page that is never idle (busy, or without requestIdleCallback) waits before the next load anyway. */
const AT_THE_LATEST_MS = 2000;

export const browserIdle: WhenIdle = (work) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(work, { timeout: AT_THE_LATEST_MS });
  else setTimeout(work, 50);
};

export interface PrefetchOptions {
  whenIdle?: WhenIdle;
  /**
   * Whether a load may start now; an idle period in which it may not is passed over. The app's: no call to the
   * core awaited (the shell serves the chunks and answers the calls alike: the first screen's answers go first).
   */
  ready?: () => boolean;
}

/** Loads each of `loaders` in turn, each in an idle period of its own; settles when all have been tried. */
export async function prefetchWhenIdle(loaders: readonly ChunkLoader[], options: PrefetchOptions = {}): Promise<void> {
  const { whenIdle = browserIdle, ready = () => true } = options;
  for (const load of loaders) {
    do await new Promise<void>((resolve) => whenIdle(resolve));
    while (!ready());
    try {
      await load();
    } catch {
      // Left to the screen's own load when it is opened (it tries again and shows why it cannot).
    }
  }
}
