/**
 * A restore killed at any point (kill -9, 24 times at random moments) leaves the local copy whole: the
 * old copy or the restored one, never a mix, and it opens. The restore replaces every table in one
 * SQLite transaction; the safety copy made first is written aside and renamed, so a cut one is never
 * listed.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore } from '../../src-main/core/app/app-core';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { listSafetyCopies } from '../../src-main/core/store';
import { Store } from '../../src-main/core/store/store';
import { dataOnly, dumpLocal, tempDir } from '../support/client';
import { seededRandom } from '../support/fault-proxy';
import { killAfter } from '../support/kill';
import { testSeed } from '../support/seed';

const tmp = tempDir('bookkeeping-restore-kill-');
let childScript = '';
const oldFile = tmp.file('old.sqlite');
const backupFile = tmp.file('backup.b64');
let oldDump: Record<string, unknown[]>;
let newDump: Record<string, unknown[]>;

/** A local copy with `n` accounts and as many transfers queued offline, named by `tag`. */
async function localCopy(file: string, tag: string, n: number): Promise<void> {
  const core = createAppCore({ dataFile: file, secrets: new MemorySecretStore(), timeZone: 'Europe/Prague' });
  await core.workOffline();
  for (let i = 0; i < n; i++) {
    await core.addAccount({
      name: `${tag} ${i}`,
      description: `${tag} account`,
      currency: 203,
      type: 1,
      isActive: true,
      isHidden: false,
      locked: false,
      ord: i,
    });
  }
  await core.close();
}

beforeAll(async () => {
  const out = join(import.meta.dirname, '../../test-output');
  mkdirSync(out, { recursive: true });
  childScript = join(out, 'restore-child.cjs');
  await build({
    entryPoints: [join(import.meta.dirname, 'restore-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    external: ['better-sqlite3', 'pino', 'hash-wasm', 'undici'],
    outfile: childScript,
    logLevel: 'silent',
  });
  await localCopy(oldFile, 'old', 300);
  const source = tmp.file('source.sqlite');
  await localCopy(source, 'new', 600);
  const core = createAppCore({ dataFile: source, secrets: new MemorySecretStore(), timeZone: 'Europe/Prague' });
  writeFileSync(backupFile, Buffer.from((await core.createBackup()).data, 'base64'));
  await core.close();
  oldDump = dataOnly(dumpLocal(oldFile));
  // The restored copy, as a restore that ran to its end leaves it.
  const whole = tmp.file('whole.sqlite');
  copyFileSync(oldFile, whole);
  await runChild(whole, null);
  newDump = dataOnly(dumpLocal(whole));
}, 60_000);
afterAll(() => tmp.remove());

/** Runs the child on `file`; kills it `killAfterMs` after it said go (null: lets it finish). Resolves with whether it finished. */
function runChild(file: string, killAfterMs: number | null): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childScript, file, backupFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let killing = false;
    child.stderr.on('data', (c) => (err += c));
    child.stdout.on('data', (c) => {
      out += c;
      if (killAfterMs !== null && out.startsWith('go\n') && !killing) {
        killing = true;
        killAfter(child, killAfterMs);
      }
    });
    child.on('close', (code, signal) => {
      if (signal === 'SIGKILL') return resolve(out.includes('done'));
      if (code !== 0) return reject(new Error(`the restore child failed: ${err}`));
      resolve(true);
    });
  });
}

/** Which copy a dump is: 'old', 'new', or 'mixed'. */
function which(dump: Record<string, unknown[]>): 'old' | 'new' | 'mixed' {
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  const strip = (d: Record<string, unknown[]>) => ({
    ...d,
    settings: (d.settings as { key: string }[]).filter((r) => !['copyId', 'restoredAt'].includes(r.key)),
  });
  if (same(strip(dump), strip(oldDump))) return 'old';
  if (same(strip(dump), strip(newDump))) return 'new';
  return 'mixed';
}

describe('a restore killed half-way', () => {
  it('leaves the old copy or the restored one, never a mix, 24 times at random moments', async () => {
    expect(which(newDump)).toBe('new');
    expect(which(oldDump)).toBe('old');
    const random = seededRandom(testSeed('RESTORE_KILL_SEED', 20261125));
    const seen = { old: 0, new: 0, mixed: 0 };
    for (let i = 0; i < 24; i++) {
      const file = tmp.file(`run-${i}.sqlite`);
      copyFileSync(oldFile, file);
      await runChild(file, Math.floor(random() * 30));
      const state = which(dataOnly(dumpLocal(file)));
      seen[state]++;
      // It opens, and a safety copy cut short is not listed.
      new Store(file).close();
      for (const copy of listSafetyCopies(file)) new Store(copy.file, { noSafetyCopies: true }).close();
    }
    console.log(`restore kills: ${JSON.stringify(seen)}`);
    expect(seen.mixed).toBe(0);
    expect(seen.old + seen.new).toBe(24);
  }, 120_000);
});
