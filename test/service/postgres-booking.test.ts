/**
 * The PostgreSQL store's booking and stamps, below the HTTP layer: the rows a booking's hold reads in its
 * round trip are answered only while they are the database's, and the stamp of kept answers changes with
 * every change of what it covers, in the change's own transaction, and with nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_HASH_PARAMS, openAdmin, type AdminSession } from '../../src-service';
import { awaited } from '../../src-service/store';
import { createPool } from '../../src-service/store/postgres/connect';
import { PgConnection } from '../../src-service/store/postgres/connection';
import { PostgresServiceStore } from '../../src-service/store/postgres/serving';
import { freshDatabase, needPostgres } from '../support/backends';

const found = needPostgres(import.meta.url);

describe.skipIf(!found)('the PostgreSQL store', () => {
  let admin: AdminSession;
  let store: PostgresServiceStore;
  let ann: number;
  let accounts: number[];
  let url: string;

  beforeAll(async () => {
    url = await freshDatabase();
    admin = await openAdmin({ kind: 'postgres', url });
    ann = await admin.addUser('ann', 'ann-secret', { hashParams: TEST_HASH_PARAMS });
    await admin.addUser('bob', 'bob-secret', { hashParams: TEST_HASH_PARAMS });
    accounts = [];
    for (let i = 1; i <= 3; i++) accounts.push(await admin.addAccount('ann', { name: `Account ${i}`, currency: 203 }));
    store = await PostgresServiceStore.open(url);
  });
  afterAll(async () => {
    await store?.close();
    await admin?.close();
  });

  const booking = (accountId: number, amountMinor: number) => ({
    account_id: accountId,
    user_id: ann,
    created_by: ann,
    payment_date: '2026-11-20T10:00:00',
    type: 1,
    amount_minor: amountMinor,
    description: 'Booked in the test',
    category_id: null,
  });

  it("answers the accounts' rows read with the booking's hold, and after the booking's insert the database's again", async () => {
    const [first, second] = accounts as [number, number];
    const before = await store.read(function* (s) {
      return (yield* awaited(s.accounts.getFor(first, ann)))!;
    });
    const [afterInsert, other] = await store.write(function* (s) {
      yield* awaited(s.accounts.holdForBooking([second, first], ann));
      // Booked before its held row is asked for: that row is from before the booking.
      yield* awaited(s.transactions.insert(booking(first, 1234)));
      const after = (yield* awaited(s.accounts.getFor(first, ann)))!;
      const untouched = (yield* awaited(s.accounts.getFor(second, ann)))!;
      return [after, untouched];
    });
    expect(afterInsert.balance_minor).toBe(before.balance_minor + 1234);
    expect(other.id).toBe(second);
    // A user without a permission on the accounts gets none of the held rows.
    const carol = await admin.addUser('carol', 'carol-secret', { hashParams: TEST_HASH_PARAMS });
    const seen = await store.write(function* (s) {
      yield* awaited(s.accounts.holdForBooking([first], carol));
      return yield* awaited(s.accounts.getFor(first, carol));
    });
    expect(seen).toBeUndefined();
  });

  it('changes the stamp of what a booking shows, in its transaction, and leaves the others', async () => {
    const [first, second, third] = accounts as [number, number, number];
    const stamps = () => Promise.all([store.answerStamp(ann, 0), store.answerStamp(ann, first), store.answerStamp(ann, third)]);
    const before = await stamps();
    expect(await stamps()).toEqual(before);
    await store.write(function* (s) {
      yield* awaited(s.accounts.holdForBooking([first, second], ann));
      yield* awaited(s.transactions.insertTransfer(booking(first, -500), booking(second, 500)));
    });
    const afterTransfer = await stamps();
    expect(afterTransfer[0]).not.toBe(before[0]);
    expect(afterTransfer[1]).not.toBe(before[1]);
    expect(afterTransfer[2]).toBe(before[2]);
    // A write rolled back changes nothing.
    await expect(
      store.write(function* (s) {
        yield* awaited(s.transactions.insert(booking(third, 1)));
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await stamps()).toEqual(afterTransfer);
    // An account shared with ann by the admin (another process): her stamps of all her accounts change.
    const bobs = await admin.addAccount('bob', { name: 'Shared', currency: 203 });
    await admin.shareAccount(bobs, 'ann', 1);
    const afterShare = await stamps();
    expect(afterShare[0]).not.toBe(afterTransfer[0]);
    expect(afterShare[1]).not.toBe(afterTransfer[1]);
  });

  it("plans each of the service's statements once per connection, not anew for each call's values", async () => {
    const pool = createPool(url, 1, { service: true });
    try {
      const client = await pool.connect();
      try {
        const db = new PgConnection(client);
        for (const account of [...accounts, ...accounts]) await db.get(db.statements.accounts.getFor, [account, ann]);
        const { rows } = await client.query<{ generic: number; custom: number }>(
          "SELECT generic_plans AS generic, custom_plans AS custom FROM pg_prepared_statements WHERE name = 'accounts.getFor'",
        );
        expect(rows).toEqual([{ generic: 6, custom: 0 }]);
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  });

  it('reads the stamps asked for while one is read in one statement, each as it is read alone', async () => {
    const [first, second, third] = accounts as [number, number, number];
    const pairs: [number, number][] = [0, first, second, third, 0, first].map((account) => [ann, account]);
    const alone: string[] = [];
    for (const [user, account] of pairs) alone.push(await store.answerStamp(user, account));
    const before = store.stampReads;
    const together = await Promise.all(pairs.map(([user, account]) => store.answerStamp(user, account)));
    expect(together).toEqual(alone);
    // The first at once, the five asked while it was read in one more.
    expect(store.stampReads - before).toBe(2);
    // The same stamp asked again while the first read is on its way is not taken from it (that statement
    // was sent before it was asked for): it is read by the next, which a change committed meanwhile shows.
    const reads = store.stampReads;
    const onItsWay = store.answerStamp(ann, first);
    const again = store.answerStamp(ann, first);
    await Promise.all([onItsWay, again]);
    expect(store.stampReads - reads).toBe(2);
    await store.write(function* (s) {
      yield* awaited(s.accounts.holdForBooking([first], ann));
      yield* awaited(s.transactions.insert(booking(first, 7)));
    });
    expect(await store.answerStamp(ann, first)).not.toBe(alone[1]);
  });
});
