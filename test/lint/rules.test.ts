/**
 * The linter holds the layers and the house rules: each rule refuses what it is there to refuse and lets
 * through what the layer may do. Linted as text under a path of the layer (no type information: the layer
 * rules and the house rules' text checks need none), with only the rule under test running.
 */
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

async function findings(rule: string, filePath: string, code: string): Promise<string[]> {
  const eslint = new ESLint({
    cwd: process.cwd(),
    overrideConfig: { languageOptions: { parserOptions: { project: null } } },
    ruleFilter: ({ ruleId }) => ruleId === rule,
  });
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

const importOf = (path: string) => `import * as m from '${path}';\nexport const x = m;\n`;

describe('the layers (no-restricted-imports)', () => {
  const refused: [file: string, path: string, reason: RegExp][] = [
    ['src-renderer/src/views/Probe.ts', '../../../src-main/core/store/store', /only through src-shared and its bridge/],
    ['src-renderer/src/views/Probe.ts', 'node:fs', /No Node built-in/],
    ['src-renderer/src/views/Probe.ts', 'undici', /sandboxed page/],
    ['src-shared/money/probe.ts', 'node:crypto', /No Node built-in/],
    ['src-shared/money/probe.ts', '../../src-main/core/app/app-core', /below every other layer/],
    ['src-shared/money/probe.ts', 'better-sqlite3', /runs in the service, the core and the browser/],
    ['src-main/core/app/probe.ts', 'electron', /plain TypeScript/],
    ['src-main/core/app/probe.ts', '../../web-shell/server', /knows no edge/],
    ['src-main/core/app/probe.ts', '../../../src-service/service', /never import each other/],
    ['src-service/server/probe.ts', '../../src-main/core/store/store', /never import each other/],
    ['src-node/cli/probe.ts', '../../src-main/core/app/app-core', /knows neither/],
    ['src-preload/probe.ts', '../src-main/core/app/app-core', /exactly the app API/],
  ];
  it.each(refused)('%s may not import %s', async (file, path, reason) => {
    const found = await findings('no-restricted-imports', file, importOf(path));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(reason);
  });

  const allowed: [file: string, path: string][] = [
    ['src-renderer/src/views/Probe.ts', '../../../src-shared/money'],
    ['src-main/core/app/probe.ts', 'node:fs'],
    ['src-main/core/app/probe.ts', '../store/store'],
    ['src-main/electron/probe.ts', 'electron'],
    ['src-service/server/probe.ts', '../../src-shared/wire/bindings'],
    ['test/client/probe.test.ts', '../../src-main/core/app/app-core'],
  ];
  it.each(allowed)('%s may import %s', async (file, path) => {
    expect(await findings('no-restricted-imports', file, importOf(path))).toEqual([]);
  });
});

describe('the house rules', () => {
  it('no SQL text in src-main outside its store folder', async () => {
    const code = "export const q = 'SELECT id FROM accounts WHERE id = ?';\n";
    expect(await findings('house/no-sql-outside-store', 'src-main/core/insights/probe.ts', code)).toHaveLength(1);
    expect(await findings('house/no-sql-outside-store', 'src-main/core/store/probe.ts', code)).toEqual([]);
    expect(await findings('house/no-sql-outside-store', 'src-main/core/insights/probe.ts', "export const w = 'Select a file';\n")).toEqual(
      [],
    );
  });

  it('no clock read in a test, which may still make dates', async () => {
    const code = 'const started = Date.now();\nexport const d = new Date(started);\n';
    expect(await findings('house/no-clock-in-tests', 'test/client/probe.test.ts', code)).toHaveLength(1);
    expect(await findings('house/no-clock-in-tests', 'test/client/probe.test.ts', 'export const d = new Date();\n')).toEqual([]);
    expect(await findings('house/no-clock-in-tests', 'bench/probe.bench.ts', code)).toEqual([]);
  });

  it('no fixed sleep in a test', async () => {
    const sleeps = [
      'await new Promise((r) => setTimeout(r, 20));\n',
      "import { setTimeout as sleep } from 'node:timers/promises';\nawait sleep(5);\n",
    ];
    for (const code of sleeps) expect(await findings('house/no-sleep-in-tests', 'test/sync/probe.test.ts', code)).not.toEqual([]);
    expect(await findings('house/no-sleep-in-tests', 'test/support/probe.ts', sleeps[0]!)).toEqual([]);
  });
});
