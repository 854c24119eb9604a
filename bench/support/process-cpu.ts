/** CPU time of a process, as the benchmarks measure the server's (Linux /proc). */
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times: 100 on every Linux this runs on (USER_HZ). */
const CLOCK_TICKS = 100;

/** User plus system CPU seconds of a process so far, from /proc/<pid>/stat; null when it cannot be read. */
export function processCpuSeconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (2nd field) is in parentheses and may hold spaces: count fields after it.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}
