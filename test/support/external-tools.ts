/**
 * Programs outside Node that some tests need (a Chromium-family browser, openssl, later PostgreSQL):
 * found, or skipped with a reason outside CI, or required in CI. One rule for all of them:
 *
 * - found: the tests run;
 * - not found, CI unset (a developer's machine): the suites that need it are skipped, and the run ends
 *   with one line naming them and saying how to get the program (test/support/skip-reporter.ts);
 * - not found with CI=true: a failure, so that CI can never pass without them.
 */
import { appendFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where test files leave their skips for the reporter (set by it before the workers start). */
export const SKIP_DIR_ENV = 'BOOKKEEPING_TEST_SKIPS';

export interface ToolNeed {
  /** What is missing, in a few words: "a Chromium-family browser". */
  tool: string;
  /** How to get it. */
  howToGet: string;
}

export interface SkipRecord extends ToolNeed {
  /** The test file, relative to the project. */
  file: string;
}

const ROOT = join(import.meta.dirname, '..', '..');

/** Whether CI asked for every test to run: CI=true (or any value but "false"/"0"). */
export function inCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.CI;
  return v !== undefined && v !== '' && v !== 'false' && v !== '0';
}

/**
 * True when the tool was found. Otherwise, outside CI: records that `testFile` (its import.meta.url) was
 * skipped and returns false; in CI: throws, failing the file.
 */
export function needTool(found: boolean, need: ToolNeed, testFile: string, env: NodeJS.ProcessEnv = process.env): boolean {
  if (found) return true;
  const file = relative(ROOT, testFile.startsWith('file:') ? fileURLToPath(testFile) : testFile);
  if (inCi(env)) throw new Error(`${file} needs ${need.tool}, and CI runs every test: ${need.howToGet}`);
  const dir = env[SKIP_DIR_ENV];
  if (dir) appendFileSync(join(dir, 'skips.jsonl'), `${JSON.stringify({ ...need, file } satisfies SkipRecord)}\n`);
  return false;
}
