/**
 * The browser's ICU data, initialised off the page's thread before the first screen formats a number.
 *
 * The page's first Intl object (any of them) took 20-30 ms on the page's thread at opening, inside the task
 * that mounts the accounts (their balances are the first numbers formatted), which made that task a long one.
 * The initialisation is the process's, not the thread's: a worker that makes a few formats first leaves the
 * page's first ones at well under a millisecond (measured in Chromium: 18-28 ms without, 0.1-0.6 ms after).
 */

/** How long the opening waits for the worker at most: past this the page formats without it (as before). */
const AT_MOST_MS = 300;

/**
 * Starts the worker; resolves when it is done, failed (a page where workers are not allowed) or took longer
 * than AT_MOST_MS. Never rejects: the warm-up only saves time.
 */
export function warmIntl(): Promise<void> {
  return new Promise((resolve) => {
    let worker: Worker;
    try {
      worker = new Worker(new URL('./intl-warm.worker.ts', import.meta.url));
    } catch {
      resolve();
      return;
    }
    const done = () => {
      clearTimeout(timer);
      worker.terminate();
      resolve();
    };
    const timer = setTimeout(done, AT_MOST_MS);
    worker.onmessage = done;
    worker.onerror = done;
  });
}
