import { resolve } from 'node:path';
import vue from '@vitejs/plugin-vue';
import { defineConfig } from 'electron-vite';
import { compileHints } from './scripts/compile-hints';
import { precompiledMessages } from './scripts/precompiled-messages';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // better-sqlite3 and the other runtime packages load from node_modules, not from the bundle.
      externalizeDeps: true,
      rollupOptions: { input: { index: resolve(root, 'src-main/electron/main.ts') } },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: true,
      rollupOptions: {
        input: { index: resolve(root, 'src-preload/index.ts') },
        // A sandboxed preload cannot load ES modules.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    plugins: [vue(), precompiledMessages(), compileHints()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      rollupOptions: { input: { index: resolve(root, 'src-renderer/index.html') } },
    },
  },
});
