/**
 * Who holds the cross-process sync lock, and whether that process still lives. A PID alone can be
 * reused by an unrelated process after the holder died; with the process's start time (Linux:
 * /proc/<pid>/stat) the lock names exactly one process for the machine's life. A zombie (dead, not
 * yet reaped by its parent) holds nothing.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface LockHolder {
  pid: number;
  host: string;
  /** The process's start, in clock ticks since boot (Linux); absent where it cannot be read. */
  start?: string;
}

/** Field 22 (starttime) and field 3 (state) of /proc/<pid>/stat; null where there is no /proc. */
function procStat(pid: number): { start: string; state: string } | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count from its end.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: rest[0]!, start: rest[19]! };
  } catch {
    return null;
  }
}

/** This process, as a lock names it. */
export function currentHolder(): LockHolder {
  const start = procStat(process.pid)?.start;
  return { pid: process.pid, host: hostname(), ...(start ? { start } : {}) };
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether the process a lock names on this machine is still the one that took it and still runs. */
export function holderAlive(holder: LockHolder): boolean {
  if (!signalable(holder.pid)) return false;
  const stat = procStat(holder.pid);
  if (!stat) return process.platform !== 'linux';
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return holder.start === undefined || holder.start === stat.start;
}

export function isCurrent(holder: LockHolder): boolean {
  const me = currentHolder();
  return holder.pid === me.pid && holder.host === me.host;
}
