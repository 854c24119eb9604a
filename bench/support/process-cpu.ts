/** CPU time of processes, as the benchmarks measure the servers', the load generator's and PostgreSQL's (Linux /proc). */
import { readFileSync, readdirSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times: 100 on every Linux this runs on (USER_HZ). */
export const CLOCK_TICKS = 100;

/** The fields of /proc/<pid>/stat after the command name (which is in parentheses and may hold spaces); null when unreadable. */
function statFields(pid: number | string): string[] | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return null;
  }
}

/** User plus system CPU seconds of a process so far, from /proc/<pid>/stat; null when it cannot be read. */
export function processCpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  const fields = statFields(pid);
  // Fields 14 and 15 of stat (utime, stime), counted from the state (field 3) here.
  return fields === null ? null : (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** The CPU seconds of several processes together; null when any cannot be read. */
export function processesCpuSeconds(pids: readonly number[]): number | null {
  let sum = 0;
  for (const pid of pids) {
    const seconds = processCpuSeconds(pid);
    if (seconds === null) return null;
    sum += seconds;
  }
  return sum;
}

/**
 * The CPU seconds of a process and its children (PostgreSQL's postmaster and its backends, checkpointer,
 * WAL writer...): its own, its children's that have ended (cutime, cstime), and every live child's with
 * theirs. Null when the root cannot be read.
 */
export function processTreeCpuSeconds(rootPid: number | undefined): number | null {
  if (rootPid === undefined) return null;
  const root = statFields(rootPid);
  if (root === null) return null;
  const ticks = (f: string[]) => Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
  let sum = ticks(root);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    // Field 4 of stat is the parent's pid.
    if (fields !== null && Number(fields[1]) === rootPid) sum += ticks(fields);
  }
  return sum / CLOCK_TICKS;
}
