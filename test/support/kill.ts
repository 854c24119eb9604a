/**
 * The kills of the crash tests. A crash test varies the moment a process dies inside its work (between
 * statements, inside a transaction, with a request in flight): the delay before the kill is the behaviour
 * under test, drawn from the test's seed, not a wait for something to happen.
 */
import type { ChildProcess } from 'node:child_process';

/** SIGKILL to `child` `ms` milliseconds from now (at once for 0). */
export function killAfter(child: ChildProcess, ms: number): void {
  if (ms <= 0) child.kill('SIGKILL');
  else setTimeout(() => child.kill('SIGKILL'), ms);
}
