/**
 * The reader keeps transaction rows once read (they never change through the service), frozen, and the
 * codec keeps the XML of the records made of them; a change by another process empties the keep at the
 * next turn, and rows written through the service appear once committed. A kept last list is kept current
 * by the commits themselves (no index read): after every group of random bookings, refused ones among
 * them, it is exactly what SQL answers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_HASH_PARAMS, addAccount, addTransaction, addUser } from '../../src-service';
import { seededRandom } from '../../src-service/admin/seeded-random';
import { lastTransactions } from '../../src-service/operations/transactions';
import { runNow } from '../../src-service/store';
import { ServingStore } from '../../src-service/store/sqlite/serving';
import { buildResponse } from '../../src-shared/wire';
import { testSeed } from '../support/seed';

const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-kept-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('kept transaction rows', () => {
  it('are answered again from the keep, follow a change by another process, and include committed writes', async () => {
    const file = join(dir, 'kept.sqlite');
    addUser(file, 'ann', 'ann-secret', { hashParams: TEST_HASH_PARAMS });
    const account = addAccount(file, 'ann', { name: 'Bank', currency: 203 });
    for (let i = 0; i < 3; i++) {
      addTransaction(file, 'ann', {
        accountId: account,
        amount: -(i + 1.25),
        paymentDate: `2026-01-0${i + 1}T10:00:00`,
        description: `Purchase ${i}`,
      });
    }
    const store = ServingStore.open(file);
    const user = store.users.byLogin('ann')!;
    const ctx = { user, timeZone: 'Europe/Prague', now: Date.now };
    const list = () => store.read((s) => runNow(lastTransactions({ ...ctx, store: s }, { AccountId: account })));
    const xml = () => buildResponse('soap12', 'TransactionListLast50_2', list(), 'http://tempuri.org/').body;

    const first = list();
    const again = list();
    expect(again.map((t) => t.Description)).toEqual(['Purchase 2', 'Purchase 1', 'Purchase 0']);
    expect(again[0]).toBe(first[0]);
    // Nothing booked since: the very same list of records, whose XML is kept whole.
    expect(again).toBe(first);
    expect(Object.isFrozen(again)).toBe(true);
    expect(Object.isFrozen(again[0])).toBe(true);
    expect(xml()).toBe(xml());
    expect(xml()).toContain('<Amount>-3.25</Amount><Description>Purchase 2</Description>');

    // Another process changes a stored transaction (by hand: the service never does): seen from the next turn on.
    const db = new Database(file);
    db.prepare("UPDATE transactions SET description = 'Changed <by hand>' WHERE description = 'Purchase 2'").run();
    db.close();
    await turn();
    expect(list()[0]!.Description).toBe('Changed <by hand>');
    expect(xml()).toContain('<Description>Changed &lt;by hand&gt;</Description>');

    // A transfer through the service: in the list once committed, never before.
    const written = store.write((s) =>
      s.transactions.insert({
        account_id: account,
        user_id: user.id,
        created_by: user.id,
        payment_date: '2026-02-01T10:00:00',
        type: 3,
        amount_minor: -500,
        description: 'Out',
        category_id: null,
      }),
    );
    const before = list();
    expect(before).toHaveLength(3);
    await written;
    expect(list()).not.toBe(before);
    expect(list().map((t) => t.Description)).toEqual(['Out', 'Changed <by hand>', 'Purchase 1', 'Purchase 0']);
    await store.close();
  });

  it('a kept last list follows the commits of the service exactly, bookings older than its last row, ties of date and refused writes included', async () => {
    const seed = testSeed('KEPT_ROWS_SEED', 260113);
    const random = seededRandom(seed);
    const file = join(dir, 'follow.sqlite');
    addUser(file, 'ann', 'ann-secret', { hashParams: TEST_HASH_PARAMS });
    const accounts = [1, 2, 3].map((n) => addAccount(file, 'ann', { name: `Account ${n}`, currency: 203 }));
    // A few dates only, so that many bookings share one and their order is by id.
    const date = () => `2026-0${1 + Math.floor(random() * 3)}-1${Math.floor(random() * 3)}T10:00:00`;
    for (const accountId of accounts.slice(0, 2)) {
      for (let i = 0; i < 55; i++) addTransaction(file, 'ann', { accountId, amount: i + 1, paymentDate: date(), description: `Seed ${i}` });
    }
    const store = ServingStore.open(file);
    const truth = new Database(file, { readonly: true });
    const sql = truth.prepare('SELECT id FROM transactions WHERE account_id = ? ORDER BY payment_date DESC, id DESC LIMIT 50').pluck();
    const user = store.users.byLogin('ann')!;
    const ids = (accountId: number) => store.read((s) => s.transactions.last(accountId)).map((t) => t.id);
    let booked = 0;
    let refused = 0;
    try {
      for (let round = 0; round < 60; round++) {
        for (const accountId of accounts) {
          expect({ seed, round, accountId, ids: ids(accountId) }).toEqual({ seed, round, accountId, ids: sql.all(accountId) });
        }
        const writes: Promise<unknown>[] = [];
        for (let k = Math.floor(random() * 4); k >= 0; k--) {
          const accountId = accounts[Math.floor(random() * accounts.length)]!;
          const fail = random() < 0.2;
          const t = {
            account_id: accountId,
            user_id: user.id,
            created_by: user.id,
            payment_date: date(),
            type: 3,
            amount_minor: -100 - k,
            description: `Round ${round}`,
            category_id: null,
          };
          writes.push(
            store
              .write((s) => {
                if (random() < 0.5) {
                  s.transactions.insertTransfer(t, {
                    ...t,
                    account_id: accounts[(accounts.indexOf(accountId) + 1) % accounts.length]!,
                    amount_minor: 100 + k,
                  });
                } else s.transactions.insert(t);
                // A write refused after its rows went in: its savepoint takes them back.
                if (fail) throw new Error('refused');
              })
              .then(
                () => (booked += 1),
                () => (refused += 1),
              ),
          );
        }
        // Reads in the same turn as the open group: they see none of it.
        for (const accountId of accounts) expect(ids(accountId)).toEqual(sql.all(accountId));
        await Promise.all(writes);
      }
      expect(booked).toBeGreaterThan(20);
      expect(refused).toBeGreaterThan(2);
    } finally {
      truth.close();
      await store.close();
    }
  });
});
