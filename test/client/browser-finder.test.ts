/**
 * The browser finder and the rule for outside programs, each case in a child process with a clean
 * environment (no PATH but the test's, a HOME of its own): a fake browser on PATH is found, CHROMIUM_PATH
 * wins (and naming nothing is an error, not a skip), Playwright's cache is searched; nothing found is a
 * skip outside CI and a failure with CI=true. And a whole vitest run of a browser test file with no
 * browser to find: exit 0 with the skip line, non-zero in CI.
 */
import { execFile } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/client';

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
const tmp = tempDir('bookkeeping-finder-');
afterAll(() => tmp.remove());

function fakeProgram(file: string): string {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(file, '#!/bin/sh\necho fake browser\n');
  chmodSync(file, 0o755);
  return file;
}

const SCRIPT = `
const { findBrowser } = await import('./test/support/browser-finder.ts');
const { needTool } = await import('./test/support/external-tools.ts');
let found;
try { found = findBrowser(); } catch (e) { console.log(JSON.stringify({ error: e.message })); process.exit(0); }
try {
  console.log(JSON.stringify({ found, ok: needTool(found !== null, { tool: 'a Chromium-family browser', howToGet: 'get one.' }, 'test/e2e/example.test.ts') }));
} catch (e) { console.log(JSON.stringify({ found, failed: e.message })); }
`;

/** The finder in a child process with exactly `env` (and nothing of this process's). */
async function finder(
  env: Record<string, string>,
): Promise<{ found?: { path: string; source: string } | null; ok?: boolean; failed?: string; error?: string }> {
  const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', SCRIPT], { cwd: ROOT, env });
  return JSON.parse(stdout.trim().split('\n').pop()!);
}

describe.skipIf(process.platform === 'win32')('the browser finder', () => {
  const home = tmp.file('home');
  const bin = tmp.file('bin');
  const empty = tmp.file('empty-bin');
  mkdirSync(home, { recursive: true });
  mkdirSync(empty, { recursive: true });
  const onPath = fakeProgram(join(bin, 'chromium-browser'));
  const elsewhere = fakeProgram(tmp.file('elsewhere/my-chrome'));

  it('finds a browser on PATH; CHROMIUM_PATH wins; a CHROMIUM_PATH that names nothing is an error', async () => {
    expect(await finder({ PATH: bin, HOME: home })).toEqual({ found: { path: onPath, source: 'PATH' }, ok: true });
    expect(await finder({ PATH: bin, HOME: home, CHROMIUM_PATH: elsewhere })).toEqual({
      found: { path: elsewhere, source: 'CHROMIUM_PATH' },
      ok: true,
    });
    expect(await finder({ PATH: bin, HOME: home, CHROMIUM_PATH: tmp.file('nowhere') })).toEqual({
      error: expect.stringMatching(/^CHROMIUM_PATH is .*nowhere, which is not a program/),
    });
  });

  it.skipIf(process.platform !== 'linux')("finds a Chromium in Playwright's cache, the newest revision first", async () => {
    const cacheHome = tmp.file('cache-home');
    fakeProgram(join(cacheHome, '.cache/ms-playwright/chromium-1100/chrome-linux/chrome'));
    const newest = fakeProgram(join(cacheHome, '.cache/ms-playwright/chromium-1200/chrome-linux/chrome'));
    expect(await finder({ PATH: empty, HOME: cacheHome })).toEqual({ found: { path: newest, source: 'Playwright cache' }, ok: true });
  });

  it('nothing found: a skip outside CI (recorded for the end of the run), a failure with CI=true', async () => {
    const skips = tmp.file('skips');
    mkdirSync(skips, { recursive: true });
    expect(await finder({ PATH: empty, HOME: home, BOOKKEEPING_TEST_SKIPS: skips })).toEqual({ found: null, ok: false });
    expect(JSON.parse(readFileSync(join(skips, 'skips.jsonl'), 'utf8'))).toEqual({
      tool: 'a Chromium-family browser',
      howToGet: 'get one.',
      file: 'test/e2e/example.test.ts',
    });
    expect(await finder({ PATH: empty, HOME: home, CI: 'true' })).toEqual({
      found: null,
      failed: 'test/e2e/example.test.ts needs a Chromium-family browser, and CI runs every test: get one.',
    });
  });

  it('a whole run of a browser test file with no browser to find: exit 0 and the skip line; with CI=true it fails', async () => {
    const vitest = [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', 'test/e2e/web-shell-load.test.ts'];
    const env = { PATH: empty, HOME: home, NO_COLOR: '1' };
    const skipped = await run(process.execPath, vitest, { cwd: ROOT, env });
    expect(skipped.stdout).toContain(
      'Skipped 1 test file that need a Chromium-family browser (none found): test/e2e/web-shell-load.test.ts. To run them, install one',
    );
    const failed = await run(process.execPath, vitest, { cwd: ROOT, env: { ...env, CI: 'true' } }).then(
      () => null,
      (e: { code: number; stdout: string; stderr: string }) => e,
    );
    expect(failed?.code).not.toBe(0);
    expect(`${failed?.stdout}${failed?.stderr}`).toContain('needs a Chromium-family browser, and CI runs every test');
  }, 60_000);
});
