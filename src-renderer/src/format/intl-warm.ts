/**
 * The browser's ICU data, initialised off the page's thread before the first screen formats a number.
 *
 * The page's first Intl object (any of them) initialises ICU: 18-28 ms on the page's thread (measured in a bare
 * Chromium page), at opening the count format's task (12-20 ms of CPU in the traces, beside the tasks that mount
 * the accounts). The initialisation is the process's, not the thread's: after a worker has made a few formats,
 * the page's first one takes 0.1-0.6 ms, and the count format's task no longer shows in the opening's profile.
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
