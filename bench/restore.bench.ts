/**
 * The memory a restore takes in the browser shell: a backup of a large local copy (400,000 transactions
 * over ten years on 10 accounts: about 143 MiB) restored through the shell's HTTP route as the renderer
 * sends it, into a shell of its own process (test/support/shell-process.ts). Prints the file's size, the
 * shell's RSS when idle and its peak RSS (the kernel's high-water mark, as `/usr/bin/time -v` shows it),
 * and the peak above idle as a multiple of the file; exits with 1 when that is 2x or more (the issue's
 * target). The restored copy is checked: its transactions are all there.
 *
 * Options: --transactions=<n> (default 400000).
 */
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAppCore } from '../src-main/core/app/app-core';
import { MemorySecretStore } from '../src-main/core/secrets';
import { HTTP_TOKEN_HEADER, type CallOutcome, type RestoreResult } from '../src-shared/app-api';
import { fillLargeCopy } from '../test/support/large-copy';
import type { ShellProcessMemory, ShellProcessReady } from '../test/support/shell-process';

/** The target: the peak above the idle shell under twice the file's size. */
const TARGET_RATIO = 2;
const MIB = 2 ** 20;

function option(args: string[], name: string, fallback: number): number {
  const given = args.find((a) => a.startsWith(`--${name}=`));
  const n = given === undefined ? fallback : Number(given.slice(name.length + 3));
  if (!Number.isInteger(n) || n < 1000) throw new Error(`--${name} must be a whole number of at least 1000`);
  return n;
}

/** A backup of a local copy of `transactions` transactions, made by the app core as the Backup screen makes it. */
async function largeBackup(dir: string, transactions: number): Promise<Uint8Array<ArrayBuffer>> {
  const source = join(dir, 'source.sqlite');
  fillLargeCopy(source, { transactions, accounts: 10, years: 10, firstYear: 2016 });
  const core = createAppCore({ dataFile: source, secrets: new MemorySecretStore(), timeZone: 'Europe/Prague', log: () => undefined });
  try {
    return new Uint8Array(Buffer.from((await core.createBackup()).data, 'base64'));
  } finally {
    await core.close();
  }
}

export async function run(args: string[]): Promise<void> {
  const transactions = option(args, 'transactions', 400_000);
  const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-restore-bench-'));
  try {
    console.log(`\nPreparing a backup of ${transactions.toLocaleString('en')} transactions...`);
    const backup = await largeBackup(dir, transactions);
    rmSync(join(dir, 'source.sqlite'), { force: true });
    // The shell needs a renderer to serve; the restore needs none of it.
    writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head></head><body></body></html>');
    const shell = fork(join(import.meta.dirname, '../test/support/shell-process.ts'), [join(dir, 'local.sqlite'), dir], {
      execArgv: ['--import', 'tsx'],
    });
    const next = <T>() =>
      new Promise<T>((resolve, reject) => {
        shell.once('message', (m) => resolve(m as T));
        shell.once('exit', (code) => reject(new Error(`The shell exited with ${code}.`)));
      });
    try {
      const { origin, token } = await next<ShellProcessReady>();
      shell.send('memory');
      const idle = await next<ShellProcessMemory>();
      const res = await fetch(`${origin}/api/restoreBackup`, {
        method: 'POST',
        headers: { 'content-type': 'application/octet-stream', [HTTP_TOKEN_HEADER]: token, origin },
        body: backup,
      });
      const outcome = (await res.json()) as CallOutcome<RestoreResult>;
      if (!outcome.ok) throw new Error(`The restore failed: ${outcome.error.code}`);
      if (outcome.value.counts.transactions !== transactions) {
        throw new Error(`The restore holds ${outcome.value.counts.transactions} transactions, not ${transactions}.`);
      }
      shell.send('memory');
      const after = await next<ShellProcessMemory>();
      const ratio = (after.maxRss - idle.rss) / backup.length;
      const mib = (n: number) => `${(n / MIB).toFixed(0)} MiB`;
      console.log(
        `backup ${(backup.length / MIB).toFixed(1)} MiB; the shell: idle ${mib(idle.rss)}, peak ${mib(after.maxRss)} during the restore`,
      );
      console.log(`peak above idle: ${mib(after.maxRss - idle.rss)} = ${ratio.toFixed(2)}x the backup (target: under ${TARGET_RATIO}x)`);
      if (ratio >= TARGET_RATIO) process.exitCode = 1;
    } finally {
      shell.disconnect();
      shell.kill();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
