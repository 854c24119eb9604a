/** Runs the command line for tests (in-process, or in a child process), capturing its output and exit code. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
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

/**
 * One command line in a child process, for what only a fresh process reads (NODE_EXTRA_CA_CERTS) or
 * does (exit codes of main). Proxy settings of this machine are left out, so that loopback stays direct.
 */
export async function spawnCliOn(data: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const root = join(import.meta.dirname, '../..');
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^(https?_proxy|no_proxy|all_proxy)$/i.test(name)));
  const child = spawn(process.execPath, ['--import', 'tsx', join(root, 'src-main/cli/main.ts'), ...args, '--data', data], {
    cwd: root,
    env: { ...inherited, ...env, TZ: TEST_TIME_ZONE },
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (err += c));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code: code ?? -1, out: out.trimEnd(), err: err.trimEnd(), json: () => JSON.parse(out) };
}
