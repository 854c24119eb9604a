/**
 * Group commit: the writes of one turn of the event loop share one transaction, each in a savepoint of
 * its own; each settles only once the group is committed; a failing write fails alone; a failing commit
 * fails every write of its group; reads never see what is not committed, and those of one turn share one
 * snapshot.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { RuleError, TEST_HASH_PARAMS, addUser } from '../../src-service';
import { ServingStore } from '../../src-service/store/sqlite/serving';

const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-group-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;

function setup(): { file: string; store: ServingStore; userId: number; other: Database.Database } {
  const file = join(dir, `g${++n}.sqlite`);
  const userId = addUser(file, 'ann', 'ann-secret', { hashParams: TEST_HASH_PARAMS });
  const store = ServingStore.open(file);
  return { file, store, userId, other: new Database(file, { readonly: true }) };
}

const fields = (name: string) => ({ name, description: '', currency: 203, type: 1, is_active: 1, is_hidden: 0, locked: 0, ord: 0 });
const names = (db: Database.Database) => db.prepare('SELECT name FROM accounts ORDER BY id').pluck().all();

describe('group commit', () => {
  it('commits the writes of one turn together, and settles each only after the commit', async () => {
    const { store, userId, other } = setup();
    const commits = store.commits;
    const writes = ['a', 'b', 'c'].map((name) => store.write((s) => s.accounts.insert(userId, fields(name))));
    // Not yet committed: another connection and the service's own reads see none of them.
    expect(names(other)).toEqual([]);
    expect(store.read((s) => s.accounts.listFor(userId))).toEqual([]);
    let settled = 0;
    for (const w of writes) void w.then(() => (settled += 1));
    await Promise.resolve();
    expect(settled).toBe(0);
    const ids = await Promise.all(writes);
    expect(store.commits).toBe(commits + 1);
    expect(names(other)).toEqual(['a', 'b', 'c']);
    expect(store.read((s) => s.accounts.listFor(userId).map((a) => a.id))).toEqual(ids);
    await store.close();
    other.close();
  });

  it('fails a failing write alone: its changes are undone, the others of its group are kept', async () => {
    const { store, userId, other } = setup();
    const first = store.write((s) => s.accounts.insert(userId, fields('first')));
    const failing = store.write((s) => {
      s.accounts.insert(userId, fields('half-done'));
      throw new RuleError('refused halfway');
    });
    const broken = store.write((s) => s.accounts.insert(userId, { ...fields('bad type'), type: Number.NaN }));
    const last = store.write((s) => s.accounts.insert(userId, fields('last')));
    await expect(failing).rejects.toThrow('refused halfway');
    await expect(broken).rejects.toThrow();
    await Promise.all([first, last]);
    expect(names(other)).toEqual(['first', 'last']);
    await store.close();
    other.close();
  });

  it('fails every write of the group when the commit itself fails, and nothing of it is in the file', async () => {
    const { store, userId, other } = setup();
    const good = store.write((s) => s.accounts.insert(userId, fields('good')));
    // A foreign key checked only at COMMIT: the commit of the whole group fails.
    const poison = store.write((s) => {
      s.db.pragma('defer_foreign_keys = ON');
      return s.accounts.insert(userId + 1000, fields('orphan'));
    });
    await expect(good).rejects.toThrow(/FOREIGN KEY/);
    await expect(poison).rejects.toThrow(/FOREIGN KEY/);
    expect(names(other)).toEqual([]);
    // The next turn starts a new group that commits as usual.
    await store.write((s) => s.accounts.insert(userId, fields('after')));
    expect(names(other)).toEqual(['after']);
    await store.close();
    other.close();
  });

  it('reads of one turn share a snapshot: on the writer between groups, on the reader while one is open', async () => {
    const { file, store, userId, other } = setup();
    await store.write((s) => s.accounts.insert(userId, fields('before')));
    const seen = () => store.read((s) => s.accounts.listFor(userId).map((a) => a.name));
    // A read between groups (on the writer's connection), then a write in the same turn: the write's
    // group begins all the same, and the reads after it in the turn see only what is committed.
    expect(seen()).toEqual(['before']);
    const written = store.write((s) => s.accounts.insert(userId, fields('pending')));
    expect(seen()).toEqual(['before']);
    await written;
    expect(seen()).toEqual(['before', 'pending']);
    // A commit of another process within the turn is not in the turn's snapshot; from the next turn on it is.
    expect(seen()).toEqual(['before', 'pending']);
    const admin = new Database(file);
    admin.prepare("UPDATE accounts SET name = 'renamed' WHERE name = 'before'").run();
    admin.close();
    expect(seen()).toEqual(['before', 'pending']);
    await new Promise((resolve) => setImmediate(resolve));
    expect(seen()).toEqual(['renamed', 'pending']);
    expect(names(other)).toEqual(['renamed', 'pending']);
    await store.close();
    other.close();
  });

  it('starts a new group in every turn, and commits what is pending when closed', async () => {
    const { store, userId, other } = setup();
    const commits = store.commits;
    await store.write((s) => s.accounts.insert(userId, fields('one')));
    await store.write((s) => s.accounts.insert(userId, fields('two')));
    expect(store.commits).toBe(commits + 2);
    void store.write((s) => s.accounts.insert(userId, fields('three')));
    const closing = store.close();
    await expect(store.write((s) => s.accounts.insert(userId, fields('four')))).rejects.toThrow(/closed/);
    await closing;
    expect(names(other)).toEqual(['one', 'two', 'three']);
    other.close();
  });
});
