/**
 * The service's command line run as a separate process, the way an operator runs it: one command with
 * its output and exit code, or `serve` kept running once it says where it listens.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import type { Target } from './http';

export const SERVICE_CLI = join(import.meta.dirname, '../../src-service/cli.ts');

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** One command (of another checkout's `cli` when given); the operator's secrets and database unset unless `env` gives them. */
export function serviceCli(args: string[], env: Record<string, string> = {}, cli = SERVICE_CLI): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, ...args], {
      env: {
        ...process.env,
        BOOKKEEPING_PASSWORD: undefined,
        BOOKKEEPING_CLIENT_KEY: undefined,
        BOOKKEEPING_DATABASE_URL: undefined,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface Serving {
  child: ChildProcess;
  target: Target;
  exited: Promise<void>;
}

/**
 * `serve` with `args` (where the data is, and more) on a free port, once it says where it listens; `cli`
 * is another checkout's command line (a benchmark's baseline).
 */
export function serveProcess(args: string[], timeZone = 'Europe/Prague', cli = SERVICE_CLI): Promise<Serving> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', cli, 'serve', ...args, '--port', '0', '--time-zone', timeZone], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    child.stdout.on('data', (c: Buffer) => {
      stdout += c;
      const m = /listening on (\S+)\/API\/APIservice\.asmx\n/.exec(stdout);
      if (m) resolve({ child, exited, target: { url: m[1]!, namespace: 'http://tempuri.org/' } });
    });
    child.once('exit', (code) => reject(new Error(`serve ended (${code}) before listening: ${stderr}`)));
  });
}

/** Stops a `serve` with SIGTERM and waits for its end. */
export async function stopServing(serving: Serving): Promise<void> {
  serving.child.kill('SIGTERM');
  await serving.exited;
}
