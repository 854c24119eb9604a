/**
 * kill -9 of the service under a write load, with group commit: the service runs as its own process
 * (`serve`, as an operator runs it), many clients write at once (transfers, new accounts, refuelings,
 * each marked with a text of its own), and the process is killed (SIGKILL) once a number of writes drawn
 * from the seed has been answered, with others in flight. After each kill the data file holds every write
 * that was answered, exactly once and as answered; a write that was not answered is there whole or not at
 * all (never half a transfer, never twice); every balance is the exact sum of its account's transactions;
 * and the service starts again on the file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_HASH_PARAMS, addAccount, addClient, addUser } from '../../src-service';
import { seededRandom } from '../../src-service/admin/seeded-random';
import type { Credentials } from '../../src-shared/catalog';
import { call } from '../support/http';
import { testSeed } from '../support/seed';
import { serveProcess, type Serving } from '../support/service-cli';
import { settles } from '../support/until';
import { WRITE_KINDS, checkWrites, writeOne, type Sent } from '../support/write-load';

const KILLS = Number(process.env.SERVICE_CRASH_KILLS ?? 4);
const SEED = testSeed('SERVICE_CRASH_SEED', 604417);
const CLIENTS = 24;
const USER: Credentials = { clientKey: 'crash-key', login: 'crash', password: 'crash-password' };

const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-service-crash-'));
const file = join(dir, 'books.sqlite');
let accounts: number[] = [];

beforeAll(() => {
  addClient(file, USER.clientKey);
  addUser(file, USER.login, USER.password, { hashParams: TEST_HASH_PARAMS });
  accounts = [1, 2, 3, 4].map((i) => addAccount(file, USER.login, { name: `Start ${i}`, currency: 203 }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `serve` on the file, once it says where it listens. */
const serve = () => serveProcess(['--data', file]);

/**
 * Writes from CLIENTS clients at once until the service is gone: SIGKILL once a number of writes drawn
 * from the seed has been answered, with the other clients' writes in flight. (Counted in answers, not in
 * time, the kill falls at the same point of the load however busy the machine is.)
 */
async function loadAndKill(serving: Serving, round: number, random: () => number): Promise<Sent[]> {
  const sent: Sent[] = [];
  const killAt = 40 + Math.floor(random() * 400);
  let answered = 0;
  let alive = true;
  const client = async (c: number) => {
    for (let i = 0; alive; i++) {
      const entry: Sent = { kind: WRITE_KINDS[Math.floor(random() * WRITE_KINDS.length)]!, marker: `k${round}-c${c}-w${i}` };
      sent.push(entry);
      try {
        await writeOne(serving.target, USER, accounts, random, entry);
        if (++answered === killAt) {
          alive = false;
          serving.child.kill('SIGKILL');
        }
      } catch {
        // Refused connections and cut answers after the kill: this write's fate is unknown.
        if (!alive) return;
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
  await settles(`the service to be killed after ${killAt} answered writes`, serving.exited, { deadlineMs: 25_000 });
  await Promise.all(clients);
  return sent;
}

/** The file after a kill: intact, and holding what was answered (see checkWrites). */
async function check(sent: Sent[]): Promise<{ answered: number; unanswered: number }> {
  const db = new Database(file);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    return await checkWrites(async <R>(query: string, params: unknown[] = []) => db.prepare(query).all(...params) as R[], sent);
  } finally {
    db.close();
  }
}

describe('kill -9 of the service under a write load, with group commit', () => {
  it(`keeps every answered write, once, and no half of any (${KILLS} kills, seed ${SEED})`, async () => {
    const random = seededRandom(SEED);
    let answered = 0;
    let unanswered = 0;
    for (let round = 1; round <= KILLS; round++) {
      const sent = await loadAndKill(await serve(), round, random);
      const counts = await check(sent);
      answered += counts.answered;
      unanswered += counts.unanswered;
    }
    // The kills fell among writes: many answered, and some cut off in flight. Not one per kill: on a busy machine
    // the other clients' answers can come with the killing one, and a kill then finds no write in flight (a full
    // CI run saw 2 in 4 kills).
    expect(answered).toBeGreaterThan(KILLS * 20);
    expect(unanswered).toBeGreaterThan(0);
    // And the file serves again.
    const serving = await serve();
    try {
      const list = await call(serving.target, 'soap12', 'AccountListWithAmount2', USER, {});
      expect(list.length).toBeGreaterThan(accounts.length);
    } finally {
      serving.child.kill('SIGTERM');
      await serving.exited;
    }
  }, 120_000);
});
