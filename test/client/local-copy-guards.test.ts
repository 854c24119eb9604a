/**
 * The local copy named for what it is, and kept its owner's:
 * - `recover` replaces only a damaged copy: a healthy one is left as it is (and says so), a folder, another
 *   program's file or random bytes are "not a local copy";
 * - the copy, its -wal and -shm, the safety copies and the log are 0600, their folders 0700, and a copy found
 *   wider is tightened when it is opened (POSIX; on Windows the profile's ACLs do this);
 * - a read-only copy (its file, or its folder) is read as usual, and every write says the copy is read-only;
 * - a copy damaged past the pages read at opening makes `sync` say it is damaged and offer `recover`, which
 *   then works; `diagnostics` says when nothing has been logged yet.
 * Read-only is made with `chattr +i` under root, whom chmod does not stop (test/support/read-only.ts).
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_EXIT } from '../../src-main/cli/exit-codes';
import { createAppCore } from '../../src-main/core/app/app-core';
import { openRecoverableCore } from '../../src-main/core/app/recoverable-core';
import { openAppLog } from '../../src-main/core/log/app-log';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { listSafetyCopies, safetyCopyDir, Store } from '../../src-main/core/store';
import { expectCliFailure, runCliOn } from '../support/cli';
import { tempDir } from '../support/client';
import { makeReadOnly, readOnlyWorks } from '../support/read-only';
import { seedTestUser, startTestService, type TestService } from '../support/service';

const tmp = tempDir('bookkeeping-guards-');
let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

const modeOf = (path: string) => statSync(path).mode & 0o777;
let n = 0;

/** A local copy connected to its own user, synced, with two accounts; the command line on it. */
async function connectedCopy() {
  const credentials = { clientKey: 'guards', login: `guard${process.pid}x${++n}`, password: 'password' };
  seedTestUser(service.dataFile, credentials);
  const dir = tmp.file(`copy${n}`);
  mkdirSync(dir);
  const data = join(dir, 'L.sqlite');
  const env = { BOOKKEEPING_PASSWORD: credentials.password, BOOKKEEPING_CLIENT_KEY: credentials.clientKey };
  const cli = (args: string[]) => runCliOn(data, args, { env });
  expect((await cli(['connect', '--url', service.url, '--login', credentials.login])).code).toBe(0);
  for (const name of ['Main', 'Savings']) {
    expect((await cli(['add-account', '--name', name, '--currency', '203', '--type', '1'])).code).toBe(0);
  }
  expect((await cli(['car', 'add', '3', 'Octavia'])).code).toBe(0);
  expect((await cli(['sync'])).code).toBe(SYNC_EXIT.delivered);
  return { dir, data, cli };
}

describe('recover replaces only a damaged copy', () => {
  it('restore; add-category X; recover: refused, X still queued, nothing moved aside', async () => {
    const { dir, data, cli } = await connectedCopy();
    const B = join(dir, 'B.sqlite');
    expect((await cli(['backup', '--to', B])).code).toBe(0);
    expect((await cli(['restore', '--from', B])).code).toBe(0);
    expect((await cli(['add-category', 'X'])).code).toBe(0);
    const before = readdirSync(dir).sort();
    expectCliFailure(await cli(['recover']), /there is nothing to recover, and nothing was changed/);
    expect(readdirSync(dir).sort()).toEqual(before);
    expect((await cli(['outbox', '--json'])).json()).toMatchObject([{ kind: 'addCategory', input: { name: 'X' } }]);
    // The browser shell's core answers the same.
    const core = openRecoverableCore({ dataFile: data, secrets: new MemorySecretStore(), log: () => undefined });
    try {
      await expect(core.recoverLocalCopy({ from: 'safety-copy' })).rejects.toMatchObject({ code: 'nothingToRecover' });
      await expect(core.recoverLocalCopy({ from: 'empty' })).rejects.toMatchObject({ code: 'nothingToRecover' });
    } finally {
      await core.close();
    }
  });

  it('a folder, random bytes and another program\'s database are "not a local copy", left as they were', async () => {
    const folder = tmp.file('a-folder');
    mkdirSync(folder);
    expectCliFailure(await runCliOn(folder, ['recover']), /is a folder; give the local data file's path/);
    const random = tmp.file('random.bin');
    writeFileSync(random, randomBytes(10_000));
    expectCliFailure(
      await runCliOn(random, ['recover']),
      /is not a SQLite database, so it is not a local copy of this app; nothing was changed/,
    );
    const Database = (await import('better-sqlite3')).default;
    const foreign = tmp.file('places.sqlite');
    const db = new Database(foreign);
    db.exec('CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT)');
    db.close();
    const bytes = readFileSync(foreign);
    expectCliFailure(
      await runCliOn(foreign, ['recover']),
      /another program's SQLite database, not a local copy of this app; nothing was changed/,
    );
    expect(readFileSync(foreign).equals(bytes)).toBe(true);
    expect(existsSync(`${foreign}-wal`)).toBe(false);
  });
});

describe.skipIf(process.platform === 'win32')("files the app makes are its owner's alone (POSIX modes)", () => {
  it('a new copy, its -wal and -shm, its safety copies and their folder, and the log', async () => {
    const dir = tmp.file('modes');
    mkdirSync(dir);
    const data = join(dir, 'new.sqlite');
    const store = new Store(data);
    store.settings.set('copyId', 'modes');
    expect(modeOf(data)).toBe(0o600);
    expect(modeOf(`${data}-wal`)).toBe(0o600);
    expect(modeOf(`${data}-shm`)).toBe(0o600);
    const copy = store.keepSafetyCopy('daily');
    store.close();
    expect(modeOf(safetyCopyDir(data))).toBe(0o700);
    expect(modeOf(copy)).toBe(0o600);
    const log = openAppLog(join(dir, 'logs', 'app.log'));
    log.info('hello');
    log.close();
    expect(modeOf(join(dir, 'logs'))).toBe(0o700);
    expect(modeOf(join(dir, 'logs', 'app.log'))).toBe(0o600);
    // A backup made through the core: its temporary file beside the copy is owner-only too, and gone after.
    const core = createAppCore({ dataFile: data, secrets: new MemorySecretStore() });
    await core.createBackup();
    await core.close();
    expect(readdirSync(dir).filter((f) => f.includes('backup-'))).toEqual([]);
  });

  it("an existing copy with wider modes, and its safety copies' folder, are tightened when opened", async () => {
    const dir = tmp.file('wide');
    mkdirSync(dir);
    const data = join(dir, 'wide.sqlite');
    const store = new Store(data);
    store.keepSafetyCopy('daily');
    store.close();
    chmodSync(data, 0o644);
    chmodSync(safetyCopyDir(data), 0o755);
    new Store(data).close();
    expect(modeOf(data)).toBe(0o600);
    // The folder is tightened at the next safety copy made into it.
    const again = new Store(data, { now: () => new Date(Date.now() + 2 * 86_400_000) });
    await again.dailyCopy;
    again.close();
    expect(modeOf(safetyCopyDir(data))).toBe(0o700);
    expect(listSafetyCopies(data).map((c) => c.reason)).toEqual(['daily', 'daily']);
  });
});

describe.skipIf(!readOnlyWorks())('a read-only copy', () => {
  it('a read-only file: reads work, every write, sync, restore and import say the copy is read-only', async () => {
    const { dir, data, cli } = await connectedCopy();
    const B = join(dir, 'B.sqlite');
    expect((await cli(['backup', '--to', B])).code).toBe(0);
    const csv = join(dir, 'fuel.csv');
    writeFileSync(csv, 'date,odometer,liters,price\n2026-01-20 07:45,10650,38.5,1540\n');
    const undo = makeReadOnly(data);
    try {
      const accounts = await cli(['accounts', '--json']);
      expect(accounts.code, accounts.err).toBe(0);
      expect(
        accounts
          .json()
          .accounts.map((a: { name: string }) => a.name)
          .sort(),
      ).toEqual(['Main', 'Savings']);
      const readOnly =
        /The local copy .*L\.sqlite is read-only \(the file or its folder cannot be written\): it can be read, but nothing can be changed/;
      for (const args of [
        ['add-category', 'X'],
        ['add-account', '--name', 'X', '--currency', '203', '--type', '1'],
        ['refuel', '--car', '3', '--liter', '30', '--price', '900', '--tachometer', '500', '--currency', 'CZK'],
        ['sync'],
        ['restore', '--from', B],
        ['import-refuelings', '--car', '3', '--file', csv, '--currency', 'CZK'],
      ]) {
        expectCliFailure(await cli(args), readOnly);
      }
      // A backup is a read: it works.
      expect((await cli(['backup', '--to', join(dir, 'B2.sqlite')])).code).toBe(0);
    } finally {
      undo();
    }
  });

  it("a read-only folder: reads work (no WAL switch), writes say read-only, and the browser shell's core starts", async () => {
    const { dir, data, cli } = await connectedCopy();
    const undo = makeReadOnly(dir);
    try {
      const accounts = await cli(['accounts']);
      expect(accounts.code, accounts.err).toBe(0);
      expect(accounts.out).toMatch(/Main/);
      expectCliFailure(await cli(['add-category', 'X']), /is read-only/);
      const core = openRecoverableCore({ dataFile: data, secrets: new MemorySecretStore(), log: () => undefined });
      try {
        expect((await core.getStatus()).damaged).toBeNull();
        expect((await core.listAccounts({})).accounts).toHaveLength(2);
        await expect(core.addCategory({ name: 'X', parentId: 0 })).rejects.toMatchObject({ code: 'localCopyReadOnly' });
      } finally {
        await core.close();
      }
      expect(readdirSync(dir).filter((f) => f.endsWith('-wal') || f.endsWith('-shm'))).toEqual([]);
    } finally {
      undo();
    }
  });

  it('the browser shell starts on a copy in a read-only folder', async () => {
    const { dir, data } = await connectedCopy();
    const home = tmp.file('shell-home');
    mkdirSync(home, { recursive: true });
    const undo = makeReadOnly(dir);
    const root = join(import.meta.dirname, '../..');
    const shell = spawn(process.execPath, ['--import', 'tsx', join(root, 'src-main/web-shell/main.ts'), '--data', data, '--port', '0'], {
      cwd: root,
      env: { PATH: process.env.PATH ?? '', HOME: home },
    });
    try {
      let out = '';
      let err = '';
      shell.stderr.on('data', (c) => (err += c));
      const started = await new Promise<boolean>((resolve) => {
        shell.stdout.on('data', (c) => {
          out += c;
          if (out.includes('Bookkeeping is open at')) resolve(true);
        });
        shell.on('exit', () => resolve(false));
      });
      expect(started, err).toBe(true);
    } finally {
      shell.kill();
      undo();
    }
  });

  it('recover of a damaged copy in a read-only folder says the folder is read-only, and changes nothing', async () => {
    const dir = tmp.file('ro-damaged');
    mkdirSync(dir);
    const data = join(dir, 'L.sqlite');
    const store = new Store(data);
    store.keepSafetyCopy('daily');
    store.close();
    const fd = openSync(data, 'r+');
    writeSync(fd, Buffer.alloc(4096, 0xa5), 0, 4096, 100);
    closeSync(fd);
    const before = readdirSync(dir).sort();
    const undo = makeReadOnly(dir);
    try {
      expectCliFailure(await runCliOn(data, ['recover']), /L\.sqlite is read-only/);
    } finally {
      undo();
    }
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});

/** The command line run as another local user (`runuser -u nobody`, as root can), in a process of its own. */
function asNobody(data: string, args: string[]): { code: number; out: string; err: string } {
  const root = join(import.meta.dirname, '../..');
  const r = spawnSync(
    'runuser',
    [
      '-u',
      'nobody',
      '--',
      'env',
      'HOME=/tmp',
      process.execPath,
      '--import',
      'tsx',
      join(root, 'src-main/cli/main.ts'),
      ...args,
      '--data',
      data,
    ],
    {
      cwd: root,
      encoding: 'utf8',
    },
  );
  return { code: r.status ?? -1, out: r.stdout.trim(), err: r.stderr.trim() };
}
const canSwitchUser = process.getuid?.() === 0 && spawnSync('runuser', ['-u', 'nobody', '--', 'true']).status === 0;

describe.skipIf(!canSwitchUser)('another local user', () => {
  it('cannot read a copy the app made (0600): told it cannot be read; one left readable (0644) by an older version is read-only to them', async () => {
    const dir = tmp.file('shared');
    mkdirSync(dir);
    chmodSync(tmp.dir, 0o755);
    chmodSync(dir, 0o755);
    const data = join(dir, 'L.sqlite');
    const store = new Store(data);
    store.upsertAccount({
      id: 1,
      name: 'Private',
      description: '',
      type: 1,
      currency: 203,
      isActive: true,
      locked: false,
      isHidden: false,
      ord: 1,
      permission: 3,
      balance: '10',
    });
    store.close();
    const unreadable = asNobody(data, ['accounts']);
    expect(unreadable.code).toBe(1);
    expect(unreadable.err).toBe(`error: ${data} cannot be read (EACCES).`);
    const backup = join(dir, 'B.sqlite');
    expect((await runCliOn(data, ['backup', '--to', backup])).code).toBe(0);
    chmodSync(backup, 0o644);
    chmodSync(data, 0o644);
    const accounts = asNobody(data, ['accounts']);
    expect(accounts.code, accounts.err).toBe(0);
    expect(accounts.out).toMatch(/Private/);
    for (const args of [
      ['add-category', 'X'],
      ['restore', '--from', backup],
    ]) {
      const r = asNobody(data, args);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/is read-only \(the file or its folder cannot be written\)/);
    }
  });
});

describe('safety copies that cannot be made', () => {
  it('never keep the copy from opening: the failure is logged; a safety-copy folder another user owns is refused', async () => {
    const dir = tmp.file('no-copies');
    mkdirSync(dir);
    const data = join(dir, 'L.sqlite');
    new Store(data).close();
    // Planted where the safety copies go: a file, then (as root can) a folder of another user.
    writeFileSync(safetyCopyDir(data), 'not a folder');
    const logged: string[] = [];
    const core = createAppCore({ dataFile: data, secrets: new MemorySecretStore(), log: (message) => logged.push(message) });
    expect((await core.getStatus()).damaged).toBeNull();
    await core.close();
    expect(logged).toEqual(['The daily safety copy could not be made']);
    rmSync(safetyCopyDir(data));
    if (process.getuid?.() === 0) {
      mkdirSync(safetyCopyDir(data), { mode: 0o777 });
      chownSync(safetyCopyDir(data), 4242, 4242);
      const store = new Store(data);
      await store.dailyCopy;
      expect(store.safetyCopyFailure).toMatchObject({ name: 'NotOwnFolder' });
      store.close();
      expect(readdirSync(safetyCopyDir(data))).toEqual([]);
    }
  });
});

describe('a copy damaged past the pages read at opening', () => {
  it('sync says the copy is damaged and offers recover, which brings back the newest safety copy', async () => {
    const { data, cli } = await connectedCopy();
    const store = new Store(data);
    store.keepSafetyCopy('daily');
    store.close();
    // Noise over the accounts table's first page: opening (the schema, the settings) reads fine, the sync's pull does not.
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(data, { readonly: true });
    const page = db.pragma('page_size', { simple: true }) as number;
    const root = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'accounts'").pluck().get() as number;
    db.close();
    expect(root).toBeGreaterThan(1);
    const fd = openSync(data, 'r+');
    writeSync(fd, Buffer.alloc(page, 0x5a), 0, page, (root - 1) * page);
    closeSync(fd);
    expect((await cli(['status'])).code).toBe(0);
    const sync = await cli(['sync']);
    expectCliFailure(sync, /is damaged and cannot be used\. Recover it from its newest safety copy .* with the command line's "recover"/);
    expect(readFileSync(`${data}.log`, 'utf8')).toMatch(/The local copy is damaged/);
    const recovered = await cli(['recover', '--json']);
    expect(recovered.code, recovered.err).toBe(0);
    expect(readFileSync(`${data}.log`, 'utf8')).toMatch(/recovered from a safety copy/);
    expect((await cli(['sync'])).code).toBe(SYNC_EXIT.delivered);
  });
});

describe('diagnostics', () => {
  it('says when nothing has been logged yet, and names the log once there is one', async () => {
    const data = tmp.file('diagnostics.sqlite');
    const first = await runCliOn(data, ['diagnostics']);
    expect(first.code).toBe(0);
    expect(first.out).toMatch(/^Log: nothing logged yet \(it will be written to .*diagnostics\.sqlite\.log\)$/m);
    expect(existsSync(`${data}.log`)).toBe(false);
    const log = openAppLog(`${data}.log`);
    log.info('something');
    log.close();
    const second = await runCliOn(data, ['diagnostics', '--json']);
    expect(second.json()).toMatchObject({ logFile: `${data}.log` });
  });
});
