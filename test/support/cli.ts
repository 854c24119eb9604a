/** Runs the command line in-process for tests, capturing its output and exit code. */
import { expect } from 'vitest';
import { runCli, type CliIo } from '../../src-main/cli/cli';
import { TEST_SYNC_TUNING } from './client';
import { TEST_TIME_ZONE } from './service';

export interface CliRun {
  code: number;
  out: string;
  err: string;
  json: () => any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One command line on the local copy `data`. */
export async function runCliOn(data: string, args: string[], io: Partial<Pick<CliIo, 'env' | 'prompt'>> = {}): Promise<CliRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli([...args, '--data', data], {
    stdout: (t) => out.push(t),
    stderr: (t) => err.push(t),
    env: io.env ?? {},
    ...(io.prompt ? { prompt: io.prompt } : {}),
    core: { timeZone: TEST_TIME_ZONE, timeoutMs: 3000, sync: TEST_SYNC_TUNING },
  });
  return { code, out: out.join('\n'), err: err.join('\n'), json: () => JSON.parse(out.join('\n')) };
}

/** Exit code 1 with one line on stderr that says why. */
export function expectCliFailure(r: CliRun, pattern: RegExp): void {
  expect(r.code).toBe(1);
  expect(r.err.split('\n')).toHaveLength(1);
  expect(r.err).toMatch(/^error: /);
  expect(r.err).toMatch(pattern);
}
