/**
 * The local data file is recognised before anything is written: another program's SQLite database
 * (a browser's history in WAL mode) or a file that is no database is refused with a clear message and
 * left exactly as it was, byte for byte, with no -wal, -shm or journal file beside it; even a read-only
 * command of the CLI refuses it. A copy made before the app stamped its files is still recognised, and
 * stamped.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_COMMAND_NAMES } from '../../src-main/cli/cli';
import { Store } from '../../src-main/core/store';
import { APPLICATION_ID, inspectLocalFile } from '../../src-main/core/store/local-file';
import { expectCliFailure, runCliOn } from '../support/cli';
import { tempDir } from '../support/client';

const tmp = tempDir('bookkeeping-local-file-');
const run = promisify(execFile);
const ROOT = join(import.meta.dirname, '..', '..');
afterAll(() => tmp.remove());

const digest = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');
const beside = () => readdirSync(tmp.dir).sort();

/** A browser-like history database in WAL mode, closed cleanly (so no -wal is left by its owner). */
function foreignDatabase(name: string, applicationId = 0): string {
  const file = tmp.file(name);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  if (applicationId) db.pragma(`application_id = ${applicationId}`);
  db.exec("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT); INSERT INTO moz_places (url) VALUES ('https://example.com/');");
  db.pragma('user_version = 74');
  db.close();
  return file;
}

describe('the local data file', () => {
  it("another program's SQLite database is refused, byte for byte untouched, with no file beside it, also by a read-only CLI command", async () => {
    for (const [name, id] of [
      ['places.sqlite', 0],
      ['stamped-by-another.sqlite', 0x5a5a5a5a],
    ] as const) {
      const file = foreignDatabase(name, id);
      const before = digest(file);
      const files = beside();
      expect(() => new Store(file)).toThrow(
        id
          ? /is another program's database \(application id 0x5a5a5a5a\)/
          : /is another program's SQLite database, not a local copy of this app; nothing was changed/,
      );
      expect(() => new Store(file)).toThrow(
        expect.objectContaining({ code: 'localFileForeign', params: { file, applicationId: id ? '5a5a5a5a' : '' } }),
      );
      const status = await runCliOn(file, ['status']);
      expectCliFailure(status, /not a local copy of this app; nothing was changed\.$/);
      expect(digest(file)).toBe(before);
      expect(beside()).toEqual(files);
    }
  });

  it('every CLI command, and the browser shell, refuse a foreign database and a random binary file, leaving bytes and folder as they were', async () => {
    const foreign = foreignDatabase('history.sqlite');
    const binary = tmp.file('random.bin');
    writeFileSync(binary, randomBytes(64 * 1024));
    for (const file of [foreign, binary]) {
      const before = digest(file);
      const files = beside();
      for (const command of CLI_COMMAND_NAMES) {
        const r = await runCliOn(file, [command]);
        expect(r.code, `${command} on ${file}`).toBe(1);
        expect(r.err, command).toMatch(/not a local copy of this app; nothing was changed\.$|is not a SQLite database/);
      }
      const shell = await run(
        process.execPath,
        ['--import', 'tsx', join(ROOT, 'src-main/web-shell/main.ts'), '--data', file, '--port', '0'],
        {
          cwd: ROOT,
          env: { PATH: process.env.PATH ?? '', HOME: tmp.file('shell-home') },
        },
      ).then(
        () => ({ code: 0, stderr: '' }),
        (e: { code: number; stderr: string }) => e,
      );
      expect(shell.code).toBe(1);
      expect(shell.stderr).toMatch(/The browser shell could not start: .*(not a local copy of this app|is not a SQLite database)/);
      expect(digest(file)).toBe(before);
      expect(beside()).toEqual(files);
    }
  }, 120_000);

  it('a file that is no database is refused and left as it was', async () => {
    const file = tmp.file('notes.txt');
    writeFileSync(file, 'groceries: milk, bread\n'.repeat(20));
    const files = beside();
    expect(() => new Store(file)).toThrow('is not a SQLite database, so it is not a local copy of this app; nothing was changed');
    expectCliFailure(await runCliOn(file, ['accounts']), /is not a SQLite database/);
    expect(readFileSync(file, 'utf8')).toBe('groceries: milk, bread\n'.repeat(20));
    expect(beside()).toEqual(files);
    expect(() => new Store(file)).toThrow(expect.objectContaining({ code: 'localFileNotSqlite', params: { file } }));
    expect(() => inspectLocalFile(tmp.dir)).toThrow(/is a folder/);
    expect(() => inspectLocalFile(tmp.dir)).toThrow(expect.objectContaining({ code: 'localFileIsFolder' }));
  });

  it('a new file is made and stamped; a copy from before the stamp is recognised by its tables and stamped', () => {
    const file = tmp.file('fresh.sqlite');
    expect(inspectLocalFile(file)).toBe('new');
    new Store(file).close();
    expect(inspectLocalFile(file)).toBe('ours');

    const old = tmp.file('unstamped.sqlite');
    new Store(old).close();
    const db = new Database(old);
    db.pragma('application_id = 0');
    db.close();
    expect(inspectLocalFile(old)).toBe('unstamped');
    const store = new Store(old);
    expect(store.db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    store.close();
    expect(inspectLocalFile(old)).toBe('ours');
  });
});
