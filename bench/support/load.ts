/**
 * The load of a measurement, from outside the servers: wrk (C, wrk.ts) where it is installed, else the
 * Node generator (load-generator.ts, a process of its own). `--generator=wrk|node` chooses; a round whose
 * generator was the limit says so and is not counted (`counted`).
 */
import { fork } from 'node:child_process';
import { join } from 'node:path';
import type { LoadJob, LoadResult } from './load-generator';
import { findWrk, runWrk } from './wrk';

export interface Generator {
  name: 'wrk' | 'node';
  /** wrk's path (name 'wrk'). */
  path?: string;
}

/** `--generator=wrk|node`; by default wrk where it is installed, else the Node generator. */
export function generatorOf(args: string[]): Generator {
  const asked = args.find((a) => a.startsWith('--generator='))?.slice('--generator='.length);
  if (asked !== undefined && asked !== 'wrk' && asked !== 'node') throw new Error('--generator must be wrk or node');
  const wrk = findWrk();
  if (asked === 'wrk' && wrk === undefined) throw new Error('--generator=wrk: wrk is not installed (Debian/Ubuntu: apt-get install wrk).');
  return asked === 'node' || wrk === undefined ? { name: 'node' } : { name: 'wrk', path: wrk };
}

/** What the benchmark says of its generator before the rounds. */
export function generatorNote(generator: Generator): string {
  return generator.name === 'wrk'
    ? `load by wrk (${generator.path}, C, one thread per instance measured)`
    : 'load by the Node generator (wrk is not installed, or --generator=node): a bare server may outrun it, and such rounds are not counted';
}

/** The Node generator in a process of its own. */
function nodeLoad(job: LoadJob): Promise<LoadResult> {
  const child = fork(join(import.meta.dirname, 'load-generator.ts'), [], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('message', (m) => resolve(m as LoadResult));
    child.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`load generator exited with ${code}`))));
    child.send(job);
  });
}

export function load(job: LoadJob, generator: Generator): Promise<LoadResult> {
  return generator.name === 'wrk' ? runWrk(generator.path!, job) : nodeLoad(job);
}

/** Whether a round counts: its generator was not the limit, and something was answered in its window. */
export const counted = (r: LoadResult) => !r.generatorLimited && r.requests > 0;

/** The generator's CPU (in cores) and, when it was the limit, that the round does not count. */
export function generatorText(r: LoadResult): string {
  const why = r.generatorLimited ? ' GENERATOR-BOUND, not counted' : r.requests === 0 ? ' NOTHING ANSWERED in the window, not counted' : '';
  return `${r.generator} cpu ${(r.generatorCpu * 100).toFixed(0)}%${why}`;
}

/** The CPU per request of the servers and, where there is one, of PostgreSQL. */
export function cpuText(r: LoadResult): string {
  const us = (v: number | null) => (v === null ? 'n/a' : `${v.toFixed(0)} us`);
  const share = r.serverCpu === null ? '' : ` (${(r.serverCpu * 100).toFixed(0)}%)`;
  const database = r.databaseCpuUsPerRequest === null ? '' : `  postgres ${us(r.databaseCpuUsPerRequest)}/req`;
  return `server ${us(r.serverCpuUsPerRequest)}/req${share}${database}`;
}
