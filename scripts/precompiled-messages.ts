/**
 * The renderer's messages compiled when the app is built, not when a screen first shows them. vue-i18n compiles a
 * message string on its first use: a screen's first visit compiled all of its messages in the task that mounts it
 * (its tokenizer was the largest item of the car screen's first visit at 1,000,000 transactions, and all 1,178
 * Czech messages take 66-100 ms). In the build, i18n/en.ts and cs.ts become the ASTs vue-i18n runs directly (its
 * "AST case (passed from bundler)"); `npm run dev` keeps the strings, compiled as before.
 */
import { baseCompile, type CompileError } from '@intlify/message-compiler';
import type { Plugin } from 'vite';
import cs from '../src-renderer/src/i18n/cs';
import en from '../src-renderer/src/i18n/en';

interface MessageTree {
  [key: string]: MessageTree | string;
}

const LOCALES: Record<'en' | 'cs', MessageTree> = { en, cs };
const LOCALE_MODULE = /[\\/]src-renderer[\\/]src[\\/]i18n[\\/](en|cs)\.ts$/;

/** One message as vue-i18n's AST, its `cacheKey` the locale and the message's path (so it is made a function once). */
function compiled(message: string, cacheKey: string): object {
  const { ast } = baseCompile(message, {
    jit: true,
    minify: true,
    location: false,
    onError: (e: CompileError) => {
      throw new Error(`The message ${cacheKey} does not compile: ${e.message}`);
    },
  });
  return { ...ast, cacheKey };
}

/** Every message of a tree compiled, the tree's shape kept. */
export function compiledMessages(tree: MessageTree, locale: string, path: readonly string[] = []): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(tree).map(([key, value]) => {
      const at = [...path, key];
      return [key, typeof value === 'string' ? compiled(value, `${locale}:${at.join('.')}`) : compiledMessages(value, locale, at)];
    }),
  );
}

/**
 * The Vite plugin, in a build only: the two locale modules loaded as their compiled messages, and vue-i18n's
 * compiler left out of the app (no message reaches it as a string: 36 KB less to load at start).
 */
export function precompiledMessages(): Plugin {
  return {
    name: 'precompiled-messages',
    apply: 'build',
    enforce: 'pre',
    config: () => ({ define: { __INTLIFY_DROP_MESSAGE_COMPILER__: 'true' } }),
    load(id) {
      const locale = LOCALE_MODULE.exec(id)?.[1] as keyof typeof LOCALES | undefined;
      // As JSON text: V8 reads a JSON.parse of a string faster than the same object written as code.
      return locale && `export default JSON.parse(${JSON.stringify(JSON.stringify(compiledMessages(LOCALES[locale], locale)))});\n`;
    },
  };
}
