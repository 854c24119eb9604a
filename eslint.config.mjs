/**
 * Lint: the architecture's layers as import rules, type-aware checks where they pay, the Vue style guide,
 * and the house rules (eslint-rules/). Formatting is prettier's (`npm run lint` runs both); import cycles
 * are dependency-cruiser's (.dependency-cruiser.cjs), which counts type imports too.
 *
 * The layers (see ARCHITECTURE.md):
 *   src-shared    runs everywhere: no Node built-in, no Node-only package, nothing of another layer
 *   src-node      Node-only code the command lines and the service share: src-shared and Node, nothing else of ours
 *   src-renderer  the screens: src-shared and itself (the app is reached through the bridge)
 *   src-preload   exposes the app API: electron and src-shared
 *   src-main/core plain TypeScript: no Electron, no Vue, no edge (electron/, web-shell/, cli/, app-bridge/)
 *   src-main, src-service never import each other
 * Tests and benchmarks may import anything.
 */
import { builtinModules } from 'node:module';
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import importX from 'eslint-plugin-import-x';
import vue from 'eslint-plugin-vue';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import house from './eslint-rules/index.mjs';

const NODE_ONLY_PACKAGES = ['better-sqlite3', 'pg', 'pg-connection-string', 'pgpass', 'pino', 'undici', 'hash-wasm', 'saxes-node'];
const builtins = builtinModules.filter((m) => !m.startsWith('_')).join('|');

/** An import path pattern and why it is refused where the rule applies. */
const nodeBuiltins = { regex: `^(node:.*|(${builtins})(/.*)?)$`, message: 'No Node built-in in this layer: it runs in the browser too.' };
const folder = (names, message) => ({ regex: `(^|/)(${names})(/|$)`, message });
const packages = (names, message) => ({ regex: `^(${names.join('|')})(/.*)?$`, message });

/** A layer: the files it holds and the imports refused there. */
const layer = (files, ...patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });

const TYPE_AWARE = ['src-*/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts'];

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'release/**', 'node_modules/**', '.electron-native/**', 'test-output/**', 'test/fixtures/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...vue.configs['flat/recommended'],
  {
    files: ['**/*.vue'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.vue'] } },
    // Props are typed (defineProps<...>()): an optional one is undefined unless given, which its type says.
    rules: { 'vue/require-default-prop': 'off' },
  },
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    plugins: { house, 'import-x': importX },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'import-x/no-duplicates': 'error',
      'import-x/order': [
        'error',
        { groups: ['builtin', 'external', 'parent', 'sibling', 'index'], alphabetize: { order: 'asc', caseInsensitive: true } },
      ],
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // A variable a closure reads before its one assignment (a server its own handlers ask about) stays a let.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
    },
  },
  {
    files: TYPE_AWARE,
    languageOptions: { parserOptions: { project: ['./tsconfig.json', './tsconfig.web.json'], tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false, attributes: false } }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
    },
  },
  { files: ['src-renderer/**', 'test/renderer/**'], languageOptions: { globals: { ...globals.browser } } },
  // A reader should not have to scroll through a function. Migrations and the demo data are lists of steps and
  // rows, read top to bottom; a test file's describe() is a list of cases.
  {
    files: ['src-*/**/*.{ts,vue}'],
    ignores: ['src-main/core/store/migrations.ts', 'src-service/store/*/migrations.ts', 'src-service/admin/demo.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 100 }] },
  },

  layer(
    ['src-shared/**'],
    folder('src-(main|service|renderer|preload|node)', 'src-shared is below every other layer.'),
    nodeBuiltins,
    packages(
      [...NODE_ONLY_PACKAGES, 'electron', 'vue', 'pinia', 'vue-router', 'vue-i18n'],
      'src-shared runs in the service, the core and the browser alike.',
    ),
  ),
  layer(
    ['src-node/**'],
    folder('src-(main|service|renderer|preload)', 'src-node is shared by the command lines and the service: it knows neither.'),
    packages(['electron', 'vue', 'pinia'], 'src-node is plain Node.'),
  ),
  layer(
    ['src-renderer/**'],
    folder('src-(main|service|preload|node)', 'The renderer reaches the app only through src-shared and its bridge (src/api/bridge.ts).'),
    nodeBuiltins,
    packages([...NODE_ONLY_PACKAGES, 'electron'], 'The renderer runs in a sandboxed page.'),
  ),
  layer(
    ['src-preload/**'],
    folder('src-(main|service|renderer|node)', 'The preload exposes exactly the app API of src-shared.'),
    nodeBuiltins,
  ),
  layer(
    ['src-main/core/**'],
    packages(
      ['electron', 'vue', 'pinia', 'vue-router', 'vue-i18n'],
      'The core is plain TypeScript, run by the desktop app, the browser shell and the command line alike.',
    ),
    { regex: String.raw`^\.\.?/(.*/)?(electron|web-shell|app-bridge|cli)(/|$)`, message: 'The core knows no edge: the edges call it.' },
    folder('src-(service|renderer|preload)', 'src-main and src-service never import each other.'),
  ),
  layer(
    ['src-main/!(core)/**', 'src-main/*.ts'],
    folder('src-(service|renderer|preload)', 'src-main and src-service never import each other.'),
  ),
  layer(
    ['src-service/**'],
    folder('src-(main|renderer|preload)', 'src-main and src-service never import each other.'),
    packages(['electron', 'vue', 'pinia', 'vue-router', 'vue-i18n'], 'The service is plain Node.'),
  ),

  // The house rules, where they hold.
  { files: ['src-main/**/*.ts'], ignores: ['src-main/core/store/**'], rules: { 'house/no-sql-outside-store': 'error' } },
  { files: ['test/**/*.test.ts'], rules: { 'house/no-clock-in-tests': 'error', 'house/no-sleep-in-tests': 'error' } },
  prettier,
  // After prettier's config, which turns it off: a body prettier put on a line of its own gets braces, so
  // that an if that reads as one line is one line (compatible with prettier in this form).
  { rules: { curly: ['error', 'multi-line'] } },
);
