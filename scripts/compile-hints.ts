/**
 * The renderer's scripts compiled whole when they load, off the page's thread, not function by function on the
 * page's thread the first time each runs. V8 compiles a function lazily on its first call; opening the app ran
 * Vue's mount, the router, the stores and the first screen for the first time in one task, whose lazy compiling
 * took 31-42 ms of the page's thread (traced at 1,000,000 transactions) and made it a long task. V8's explicit
 * compile hint (the magic comment `//# allFunctionsCalledOnLoad` at a script's top, Chromium 136 and later)
 * compiles every function of the file eagerly while the file streams in, on a background thread. Screens' chunks
 * get it too: idle time reads them ahead (logic/idle-prefetch.ts), so their first visit then compiles nothing.
 */
import type { Plugin, Rolldown } from 'vite';

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/** Every JavaScript chunk of `bundle` with the hint as its first line (a source map's lines shifted by one). */
export function addCompileHints(bundle: Rolldown.OutputBundle): void {
  for (const output of Object.values(bundle)) {
    if (output.type !== 'chunk' || output.code.startsWith(COMPILE_HINT)) continue;
    output.code = COMPILE_HINT + output.code;
    // A map's `mappings` has one `;`-separated group per generated line: an empty group for the new first line.
    const map = bundle[`${output.fileName}.map`];
    if (map?.type === 'asset' && typeof map.source === 'string') {
      const parsed = JSON.parse(map.source) as { mappings: string };
      map.source = JSON.stringify({ ...parsed, mappings: `;${parsed.mappings}` });
    }
  }
}

/** The Vite plugin, in a build only (the dev server serves modules one by one, compiled as V8 likes). */
export function compileHints(): Plugin {
  return {
    name: 'compile-hints',
    apply: 'build',
    // After Vite's own generateBundle, which puts the preload helper's `__vite__mapDeps` line at the top of a chunk.
    generateBundle: { order: 'post', handler: (_options, bundle) => addCompileHints(bundle) },
  };
}
