/**
 * The PostgreSQL store's writes, pipelined (store/postgres/pipelined.ts): a transfer is booked in two
 * round trips (BEGIN with the hold, the insert with the COMMIT), and pipelining changes nothing of what
 * is written: a failed statement leaves nothing, a statement after the one a write commits with is refused.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_HASH_PARAMS, openAdmin, type AdminSession } from '../../src-service';
import { awaited, runFlow, type Flow } from '../../src-service/store';
import { StoreData } from '../../src-service/store/data';
import { createPool } from '../../src-service/store/postgres/connect';
import { PgConnection } from '../../src-service/store/postgres/connection';
import { pipelinedWrite } from '../../src-service/store/postgres/pipelined';
import { freshDatabase, needPostgres } from '../support/backends';

const found = needPostgres(import.meta.url);

/**
 * The round trips of a connection (each run of messages written to the server before an answer's end,
 * ReadyForQuery, comes back is one) and its socket's writes (each a system call).
 */
function countRoundTrips(client: pg.PoolClient): { readonly count: number; readonly writes: number; stop(): void } {
  type Writer = (...args: unknown[]) => unknown;
  const stream = client.connection.stream as unknown as { write: Writer; _write: Writer; _writev: Writer };
  const original = { write: stream.write, _write: stream._write, _writev: stream._writev };
  let count = 0;
  let writes = 0;
  let waiting = false;
  stream.write = (...args) => {
    if (!waiting) count += 1;
    waiting = true;
    return original.write.apply(stream, args);
  };
  stream._write = (...args) => {
    writes += 1;
    return original._write.apply(stream, args);
  };
  stream._writev = (...args) => {
    writes += 1;
    return original._writev.apply(stream, args);
  };
  const answered = () => (waiting = false);
  client.connection.on('readyForQuery', answered);
  return {
    get count() {
      return count;
    },
    get writes() {
      return writes;
    },
    stop() {
      Object.assign(stream, original);
      client.connection.removeListener('readyForQuery', answered);
    },
  };
}

describe.skipIf(!found)('the PostgreSQL store, pipelined', () => {
  let admin: AdminSession;
  let pool: pg.Pool;
  let ann: number;
  let accounts: [number, number];
  let url: string;

  beforeAll(async () => {
    url = await freshDatabase();
    admin = await openAdmin({ kind: 'postgres', url });
    ann = await admin.addUser('ann', 'ann-secret', { hashParams: TEST_HASH_PARAMS });
    accounts = [
      await admin.addAccount('ann', { name: 'One', currency: 203 }),
      await admin.addAccount('ann', { name: 'Two', currency: 203 }),
    ];
    pool = createPool(url, 1, { service: true, pipeline: true });
  });
  afterAll(async () => {
    await pool?.end();
    await admin?.close();
  });

  const half = (accountId: number, amountMinor: number) => ({
    account_id: accountId,
    user_id: ann,
    created_by: ann,
    payment_date: '2026-11-20T10:00:00',
    type: 3,
    amount_minor: amountMinor,
    description: 'Moved in the test',
    category_id: null,
  });

  /** A transfer as AddTranferToOtherAccount books it: the hold, then (the rules checked) both halves. */
  function* transfer(s: StoreData, amountMinor: number, target = accounts[1]): Flow<number[]> {
    yield* awaited(s.accounts.holdForBooking([accounts[0], target], ann));
    const source = (yield* awaited(s.accounts.getFor(accounts[0], ann)))!;
    const rows = yield* awaited(s.transactions.insertTransfer(half(source.id, -amountMinor), half(target, amountMinor)));
    return rows.map((r) => r.id);
  }

  const write = <T>(flow: (s: StoreData) => Flow<T>, committedAnyway = () => {}) =>
    pipelinedWrite(pool, (tx) => runFlow(flow(new StoreData(new PgConnection(tx)))), committedAnyway);

  const balances = async () =>
    (await pool.query<{ balance_minor: number }>('SELECT balance_minor FROM accounts WHERE id = ANY($1) ORDER BY id', [accounts])).rows.map(
      (r) => r.balance_minor,
    );

  it('books a transfer in two round trips and two writes: BEGIN with the hold, both halves with the COMMIT', async () => {
    // The statements prepared first: a write's round trips, not the preparing, are counted.
    await write((s) => transfer(s, 1));
    const before = await balances();
    const client = await pool.connect();
    const trips = countRoundTrips(client);
    client.release();
    try {
      const ids = await write((s) => transfer(s, 250));
      expect(ids).toHaveLength(2);
      expect(trips.count).toBe(2);
      // Each round trip's messages (BEGIN and the hold's Bind, Describe, Execute, Sync; the insert's and the
      // COMMIT) in one write of the socket.
      expect(trips.writes).toBe(2);
    } finally {
      trips.stop();
    }
    expect(await balances()).toEqual([before[0]! - 250, before[1]! + 250]);
  });

  it('writes nothing when the statement it commits with fails, and the connection serves on', async () => {
    const before = await balances();
    // No account 999999: the second half's insert fails on its foreign key, and the COMMIT behind it rolls back.
    await expect(write((s) => transfer(s, 100, 999_999))).rejects.toThrow(/foreign key/);
    expect(await balances()).toEqual(before);
    await write((s) => transfer(s, 100));
    expect(await balances()).toEqual([before[0]! - 100, before[1]! + 100]);
  });

  it('refuses a statement after the one its write commits with, and says the write was committed', async () => {
    const before = await balances();
    let committed = 0;
    await expect(
      write(
        function* (s) {
          yield* transfer(s, 10);
          yield* awaited(s.accounts.getFor(accounts[0], ann));
        },
        () => (committed += 1),
      ),
    ).rejects.toThrow('after the one its write commits with');
    expect(committed).toBe(1);
    expect(await balances()).toEqual([before[0]! - 10, before[1]! + 10]);
  });

  it('rolls back a write that fails before its last statement', async () => {
    const before = await balances();
    let committed = 0;
    await expect(
      write(
        function* (s) {
          yield* awaited(s.accounts.holdForBooking(accounts, ann));
          yield* awaited(s.transactions.insert(half(accounts[0], 5)));
          throw new Error('a rule refused it');
        },
        () => (committed += 1),
      ),
    ).rejects.toThrow('a rule refused it');
    expect(committed).toBe(0);
    expect(await balances()).toEqual(before);
  });
});
