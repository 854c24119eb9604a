/**
 * kill -9 of the service under a write load, with group commit: the service runs as its own process
 * (`serve`, as an operator runs it), many clients write at once (transfers, new accounts, refuelings,
 * each marked with a text of its own), and the process is killed (SIGKILL) at a random moment. After
 * each kill the data file holds every write that was answered, exactly once and as answered; a write
 * that was not answered is there whole or not at all (never half a transfer, never twice); every balance
 * is the exact sum of its account's transactions; and the service starts again on the file.
 */
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_HASH_PARAMS, addAccount, addClient, addUser } from '../../src-service';
import { seededRandom } from '../../src-service/admin/seeded-random';
import type { Credentials } from '../../src-shared/catalog';
import { call, type Target } from '../support/http';

const KILLS = Number(process.env.SERVICE_CRASH_KILLS ?? 4);
const SEED = Number(process.env.SERVICE_CRASH_SEED ?? Date.now() % 1_000_000);
const CLIENTS = 24;
const CLI = join(import.meta.dirname, '../../src-service/cli.ts');
const USER: Credentials = { clientKey: 'crash-key', login: 'crash', password: 'crash-password' };
const NAMESPACE = 'http://tempuri.org/';

const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-service-crash-'));
const file = join(dir, 'books.sqlite');
let accounts: number[] = [];

beforeAll(() => {
  addClient(file, USER.clientKey);
  addUser(file, USER.login, USER.password, { hashParams: TEST_HASH_PARAMS });
  accounts = [1, 2, 3, 4].map((i) => addAccount(file, USER.login, { name: `Start ${i}`, currency: 203 }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Serving {
  child: ChildProcess;
  target: Target;
  exited: Promise<void>;
}

/** `serve` on the file, once it says where it listens. */
function serve(): Promise<Serving> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--data', file, '--port', '0', '--time-zone', 'Europe/Prague'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c));
    child.stdout!.on('data', (c: Buffer) => {
      stdout += c;
      const m = /listening on (\S+)\/API\/APIservice\.asmx\n/.exec(stdout);
      if (m) resolve({ child, exited, target: { url: m[1]!, namespace: NAMESPACE } });
    });
    child.once('exit', (code) => reject(new Error(`serve ended (${code}) before listening: ${stderr}`)));
  });
}

type Kind = 'transfer' | 'account' | 'refueling';
interface Sent {
  kind: Kind;
  marker: string;
  /** The ids the answer named; undefined when no answer came. */
  answered?: number[];
  amountMinor?: number;
}

/** One write of a random kind, marked with `marker`; its entry records the answer when one comes. */
async function writeOne(target: Target, kind: Kind, marker: string, random: () => number, sent: Sent): Promise<void> {
  if (kind === 'transfer') {
    const source = accounts[Math.floor(random() * accounts.length)]!;
    const target2 = accounts.filter((a) => a !== source)[Math.floor(random() * (accounts.length - 1))]!;
    const cents = 1 + Math.floor(random() * 99_999);
    sent.amountMinor = cents;
    const pair = await call(target, 'soap12', 'AddTranferToOtherAccount', USER, {
      Amount: cents / 100,
      Description: marker,
      Id_SourceAccount: source,
      Id_TargetAccount: target2,
      Id_Category: 0,
      PaymentDate: '2026-11-20T10:00:00',
    });
    sent.answered = [pair.Transaction1.Id, pair.Transaction2.Id];
  } else if (kind === 'account') {
    const account = await call(target, 'soap11', 'AddAccount', USER, {
      Name: marker,
      Description: '',
      Currency: 203,
      Type: 1,
      IsActive: true,
      IsHidden: false,
      Locked: false,
      Ord: 0,
    });
    sent.answered = [account.Id];
  } else {
    const refueling = await call(target, 'soap12', 'EditCarFuel', USER, {
      CarId: 1,
      Id_CarFuel: 0,
      Liter: 40.5,
      Price: 1234.5,
      Tachometer: 1000,
      DateOfPurchase: '2026-11-20T10:00:00',
      Currency: 203,
      Description: marker,
      Rate: 1,
    });
    sent.answered = [refueling.Id];
  }
}

/** Writes from CLIENTS clients at once until the service is gone; SIGKILL at a random moment after the first answer. */
async function loadAndKill(serving: Serving, round: number, random: () => number): Promise<Sent[]> {
  const sent: Sent[] = [];
  let alive = true;
  let firstAnswer: () => void = () => {};
  const answered = new Promise<void>((resolve) => (firstAnswer = resolve));
  const client = async (c: number) => {
    for (let i = 0; alive; i++) {
      const kinds: Kind[] = ['transfer', 'transfer', 'account', 'refueling'];
      const entry: Sent = { kind: kinds[Math.floor(random() * kinds.length)]!, marker: `k${round}-c${c}-w${i}` };
      sent.push(entry);
      try {
        await writeOne(serving.target, entry.kind, entry.marker, random, entry);
        firstAnswer();
      } catch {
        // Refused connections and cut answers after the kill: this write's fate is unknown.
        if (!alive) return;
      }
    }
  };
  const clients = Array.from({ length: CLIENTS }, (_, c) => client(c));
  await answered;
  await new Promise((r) => setTimeout(r, 100 + Math.floor(random() * 700)));
  serving.child.kill('SIGKILL');
  await serving.exited;
  alive = false;
  await Promise.all(clients);
  return sent;
}

function check(sent: Sent[]): { answered: number; unanswered: number } {
  const db = new Database(file);
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const transfers = db.prepare<[string], { id: number; amount_minor: number }>('SELECT id, amount_minor FROM transactions WHERE description = ? ORDER BY id');
    const accountIds = db.prepare<[string], number>('SELECT id FROM accounts WHERE name = ? ORDER BY id').pluck();
    const refuelingIds = db.prepare<[string], number>('SELECT id FROM refuelings WHERE description = ? ORDER BY id').pluck();
    let answered = 0;
    for (const s of sent) {
      const stored =
        s.kind === 'transfer' ? transfers.all(s.marker) : s.kind === 'account' ? accountIds.all(s.marker) : refuelingIds.all(s.marker);
      const ids = s.kind === 'transfer' ? (stored as { id: number }[]).map((r) => r.id) : (stored as number[]);
      const whole = s.kind === 'transfer' ? 2 : 1;
      if (s.answered) {
        answered += 1;
        expect(ids, `${s.kind} ${s.marker} was answered`).toEqual(s.answered);
      } else {
        expect([0, whole], `${s.kind} ${s.marker} unanswered: whole or absent`).toContain(ids.length);
      }
      if (s.kind === 'transfer' && ids.length === 2) {
        expect((stored as { amount_minor: number }[]).map((r) => r.amount_minor)).toEqual([-s.amountMinor!, s.amountMinor!]);
      }
    }
    const wrong = db
      .prepare('SELECT a.id FROM accounts a WHERE a.balance_minor != (SELECT IFNULL(SUM(t.amount_minor), 0) FROM transactions t WHERE t.account_id = a.id)')
      .all();
    expect(wrong, 'balances that are not the sum of their transactions').toEqual([]);
    return { answered, unanswered: sent.length - answered };
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
      const counts = check(sent);
      answered += counts.answered;
      unanswered += counts.unanswered;
    }
    // The kills fell among writes: many answered, and some cut off in flight.
    expect(answered).toBeGreaterThan(KILLS * 20);
    expect(unanswered).toBeGreaterThanOrEqual(KILLS);
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
