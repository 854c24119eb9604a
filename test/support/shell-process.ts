/**
 * The browser shell in a process of its own (forked with `--import tsx`), for what only a process shows:
 * its memory (the restore test runs it with a small heap; the restore benchmark reads its RSS). Arguments:
 * the local copy and the renderer folder. It sends `{ origin, token }` once it listens, and answers each
 * message with its memory: `{ rss, maxRss }` in bytes (maxRss: the peak so far, as the kernel counts it).
 */
import { readFileSync } from 'node:fs';
import { createAppCore } from '../../src-main/core/app/app-core';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { startWebShell } from '../../src-main/web-shell/server';

export interface ShellProcessReady {
  origin: string;
  token: string;
}

export interface ShellProcessMemory {
  rss: number;
  maxRss: number;
}

/**
 * The peak RSS of this process: Linux's VmHWM, the high-water mark of this program's own memory. getrusage's
 * maxRSS (the fallback elsewhere) also counts the parent's memory at the fork, which a large parent makes
 * larger than anything this process did.
 */
function peakRss(): number {
  try {
    const kib = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1];
    if (kib !== undefined) return Number(kib) * 1024;
  } catch {
    // Not Linux.
  }
  return process.resourceUsage().maxRSS * 1024;
}

const [dataFile, rendererDir] = process.argv.slice(2) as [string, string];
const core = createAppCore({ dataFile, secrets: new MemorySecretStore(), timeZone: 'Europe/Prague', log: (m, e) => console.error(m, e) });
const shell = await startWebShell({ core, rendererDir, log: (m, e) => console.error(m, e) });
process.on('message', () => {
  const memory: ShellProcessMemory = { rss: process.memoryUsage().rss, maxRss: peakRss() };
  process.send!(memory);
});
process.once('disconnect', () => {
  void shell.close().then(() => core.close());
});
const ready: ShellProcessReady = { origin: shell.origin, token: shell.token };
process.send!(ready);
