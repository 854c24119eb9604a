/**
 * Pull. Its mapping from the wire to the local copy is checked against answers the real service gave
 * once (test/fixtures/pull, recorded by record.ts there) and the local rows written out by hand from
 * them, so that a mistake in the mapping cannot hide in an oracle that maps the same way; one test keeps
 * the recordings true to what the service answers today. Against the live service: the history older
 * than the service's last 50 stays, and reads run in parallel within their bound.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchAll, pull } from '../../src-main/core/pull';
import { Store, type AccountRow } from '../../src-main/core/store';
import { addTransaction } from '../../src-service';
import type { OperationName } from '../../src-shared/catalog';
import { parseResponse } from '../../src-shared/wire';
import { PULL_CARS, RECORDING_DIR, recordPulls } from '../fixtures/pull/record';
import { ANN } from '../service/fixture';
import { soapClient, tempDir, withStore } from '../support/client';
import { startFaultProxy } from '../support/fault-proxy';
import { accountRow } from '../support/local-rows';
import { TEST_TIME_ZONE, startTestService, type TestService } from '../support/service';
import { readRecording, startReplayService, type Recording } from '../support/wire-recording';

const FIRST = readRecording(join(RECORDING_DIR, 'first'));
const LATER = readRecording(join(RECORDING_DIR, 'later'));

/** The local copy's records, each list in the order the store reads it. */
function copyOf(store: Store) {
  return {
    accounts: store.accounts.list(),
    transactions: Object.fromEntries(store.accounts.list().map((a) => [a.id, store.transactions.all(a.id)])),
    templates: store.templates.list(),
    categories: store.categories.list(),
    favorites: store.categories.favorites(),
    refuelings: Object.fromEntries(PULL_CARS.map((carId) => [carId, store.refuelings.ofCar(carId)])),
  };
}

/** Pulls the recorded answers into `store`; the calls the pull made must be exactly the recorded ones. */
async function pullRecorded(recording: Recording, store: Store) {
  const replay = await startReplayService(recording);
  const client = soapClient(replay.url, replay.namespace, { credentials: ANN });
  try {
    const counts = await pull(client, store);
    expect([...replay.asked].sort()).toEqual(recording.exchanges.map((e) => e.call).sort());
    return counts;
  } finally {
    client.close();
    await replay.close();
  }
}

// Written by hand from the recorded XML: ids, texts, flags and doubles as the service sent them.
const account = (id: number, name: string, ord: number, balance: string, more: Partial<AccountRow> = {}) =>
  accountRow({ id, name, ord, balance, ...more });
const transaction = (id: number, accountId: number, paymentDate: string, type: number, amount: string, more: object = {}) => ({
  key: `id:${id}`,
  id,
  accountId,
  paymentDate,
  type,
  amount,
  description: '',
  categoryId: 0,
  userId: 1,
  userCreatedId: 1,
  ...more,
});
const refueling = (
  id: number,
  dateOfPurchase: string,
  tachometer: number,
  liter: string,
  price: string,
  currency: number,
  rate: string,
  description: string,
) => ({
  id,
  carId: 7,
  dateOfPurchase,
  tachometer,
  liter,
  price,
  currency,
  rate,
  description,
  userCreatedId: 1,
});

const FIRST_COPY = {
  accounts: [
    account(1, 'Bank', 1, '800.25', { description: 'Main <account> & "savings"' }),
    account(7, 'Bob household', 1, '99', { permission: 1 }),
    account(2, 'Cash', 2, '0', { type: 1 }),
    account(8, 'Bob shared wallet', 2, '50', { permission: 2 }),
    account(3, 'Euro', 3, '10.01', { currency: 978 }),
    account(4, 'Locked', 4, '5', { locked: true }),
    account(5, 'Inactive', 5, '5', { isActive: false }),
    account(6, 'Hidden', 6, '0', { isHidden: true }),
  ],
  transactions: {
    1: [
      transaction(2, 1, '2026-02-01T08:30:00.5', 2, '-200.25', { categoryId: 2 }),
      transaction(1, 1, '2026-01-05T10:00:00', 1, '1000.5', { description: 'Salary' }),
    ],
    2: [],
    3: [transaction(4, 3, '2026-01-01T00:00:00', 1, '10.01')],
    4: [transaction(5, 4, '2026-01-01T00:00:00', 1, '5')],
    5: [transaction(6, 5, '2026-01-01T00:00:00', 1, '5')],
    6: [],
    // bob's accounts: he owns and made these.
    7: [transaction(3, 7, '2026-01-01T00:00:00', 1, '99', { userId: 2, userCreatedId: 2 })],
    8: [transaction(7, 8, '2026-01-01T00:00:00', 1, '50', { userId: 2, userCreatedId: 2 })],
  },
  templates: [{ id: 1, accountId: 1, type: 2, amount: '-14500', description: 'Rent', categoryId: 1, ord: 1, userId: 1, userCreatedId: 1 }],
  categories: [
    { id: 1, name: 'Food', parentId: 0, position: 0 },
    { id: 3, name: 'Car', parentId: 0, position: 1 },
    { id: 2, name: 'Groceries', parentId: 1, position: 0 },
  ],
  favorites: [{ id: 2, name: 'Groceries' }],
  refuelings: {
    7: [
      refueling(2, '2026-03-15T18:00:00', 121100, '38.5', '60.25', 978, '25.1', 'OMV'),
      refueling(1, '2026-03-01T07:30:00', 120500, '41.27', '1650.8', 203, '1', 'Shell'),
    ],
    8: [],
  },
};
const NOTHING = { accounts: 0, transactions: 0, templates: 0, categories: 0, refuelings: 0 };

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ demo: true });
});
afterAll(() => service.close());

describe('pull, from recorded answers of the service', () => {
  it('maps a first pull into an empty local copy to exactly these rows', async () => {
    await withStore(async (store) => {
      for (const carId of PULL_CARS) store.cars.save({ carId, name: `Car ${carId}` }, '2026-01-01T00:00:00');
      const listed = { accounts: 8, transactions: 7, templates: 1, categories: 3, refuelings: 2 };
      // Into an empty copy, everything listed is new.
      expect(await pullRecorded(FIRST, store)).toEqual({ listed, changed: listed });
      expect(copyOf(store)).toEqual(FIRST_COPY);
      // The same answers again: everything listed, nothing received.
      expect(await pullRecorded(FIRST, store)).toEqual({ listed, changed: NOTHING });
      expect(copyOf(store)).toEqual(FIRST_COPY);
    });
  });

  it('maps the next pull over it: edited records replaced, new ones added, the others as they were', async () => {
    await withStore(async (store) => {
      for (const carId of PULL_CARS) store.cars.save({ carId, name: `Car ${carId}` }, '2026-01-01T00:00:00');
      await pullRecorded(FIRST, store);
      expect(await pullRecorded(LATER, store)).toEqual({
        listed: { accounts: 9, transactions: 9, templates: 2, categories: 4, refuelings: 3 },
        // Cash box edited and Savings new (the balances of Bank and the shared wallet came with their new
        // transactions); two transactions, a template, a category; a refueling new and one corrected.
        changed: { accounts: 2, transactions: 2, templates: 1, categories: 1, refuelings: 2 },
      });
      const [bank, household, , shared, ...rest] = FIRST_COPY.accounts;
      expect(copyOf(store)).toEqual({
        ...FIRST_COPY,
        accounts: [
          { ...bank, balance: '700.35' },
          household,
          account(2, 'Cash box', 2, '0', { type: 1, description: 'coins' }),
          { ...shared, balance: '62.34' },
          ...rest,
          account(10, 'Savings', 7, '0', { type: 3 }),
        ],
        transactions: {
          ...FIRST_COPY.transactions,
          1: [
            transaction(8, 1, '2026-02-20T09:15:00', 2, '-99.9', { description: 'Coffee beans', categoryId: 2 }),
            ...FIRST_COPY.transactions[1],
          ],
          // ann booked on bob's shared wallet: bob owns it, ann made it.
          8: [
            transaction(9, 8, '2026-02-21T18:00:00', 1, '12.34', { description: 'Shared pizza', userId: 2, userCreatedId: 1 }),
            ...FIRST_COPY.transactions[8],
          ],
          10: [],
        },
        templates: [
          ...FIRST_COPY.templates,
          { id: 2, accountId: 8, type: 2, amount: '-25.5', description: 'Pizza night', categoryId: 0, ord: 2, userId: 1, userCreatedId: 1 },
        ],
        categories: [...FIRST_COPY.categories, { id: 5, name: 'Fuel', parentId: 3, position: 0 }],
        refuelings: {
          7: [
            refueling(4, '2026-04-02T16:45:00', 121800, '44.444', '1799.9', 203, '1', 'MOL'),
            FIRST_COPY.refuelings[7][0],
            refueling(1, '2026-03-01T07:30:00', 120500, '41.27', '1702.1', 203, '1', 'Shell, corrected'),
          ],
          8: [],
        },
      });
    });
  });

  it('the recordings are still what the service answers: the same calls, the same records', async () => {
    const now = await recordPulls();
    for (const [recorded, fresh] of [
      [FIRST, now.first],
      [LATER, now.later],
    ] as const) {
      expect(fresh.exchanges.map((e) => e.call)).toEqual(recorded.exchanges.map((e) => e.call));
      // Read by the codec, so that the bytes may differ (whitespace, attribute order) but not the records.
      const read = (e: Recording['exchanges'][number]) => [
        e.status,
        parseResponse(e.call.split(' ')[0] as OperationName, e, { timeZone: TEST_TIME_ZONE, binding: 'soap12' }),
      ];
      expect(fresh.exchanges.map(read)).toEqual(recorded.exchanges.map(read));
    }
  });
});

describe('pull, against the live service', () => {
  it("keeps the history older than the service's last 50, and pages it newest first without gaps or repeats", async () => {
    const tmp = tempDir();
    const store = new Store(tmp.file('local.sqlite'));
    const client = soapClient(service.url, service.namespace);
    try {
      await pull(client, store);
      const wallet = store.accounts.list().find((a) => a.name === 'Peněženka')!;
      const before = store.transactions.all(wallet.id);
      const added: number[] = [];
      const received = [];
      // 60 new transactions on the wallet in two batches, each pulled: more than the service lists.
      for (let batch = 0; batch < 2; batch++) {
        for (let i = 0; i < 30; i++) {
          const n = batch * 30 + i;
          added.push(
            addTransaction(service.dataFile, 'demo', {
              accountId: wallet.id,
              amount: -(n + 1) / 100,
              paymentDate: `2027-01-${String(1 + Math.floor(n / 10)).padStart(2, '0')}T${String(n % 10).padStart(2, '0')}:00:00`,
              description: `later ${n}`,
            }),
          );
        }
        received.push((await pull(client, store)).changed);
      }
      // Each pull received its 30 new transactions; the wallet's new balance comes with them, so it is not counted again.
      expect(received).toEqual([
        { ...NOTHING, transactions: 30 },
        { ...NOTHING, transactions: 30 },
      ]);
      expect((await client.listTransactions(wallet.id)).items).toHaveLength(50);
      const history = store.transactions.all(wallet.id);
      expect(history).toHaveLength(before.length + 60);
      const ids = new Set(history.map((t) => t.id));
      for (const t of before) expect(ids.has(t.id)).toBe(true);
      for (const id of added) expect(ids.has(id)).toBe(true);
      // The last one added, as it was booked.
      expect(history.find((t) => t.id === added[59])).toEqual({
        key: `id:${added[59]}`,
        id: added[59],
        accountId: wallet.id,
        paymentDate: '2027-01-06T09:00:00',
        type: 2,
        amount: '-0.6',
        description: 'later 59',
        categoryId: 0,
        userId: 1,
        userCreatedId: 1,
      });
      expect(store.transactions.count(wallet.id)).toBe(before.length + 60);
      const paged = [
        ...store.transactions.page(wallet.id, 0, 40),
        ...store.transactions.page(wallet.id, 40, 40),
        ...store.transactions.page(wallet.id, 80, 40),
      ];
      expect(paged.map((t) => t.key)).toEqual(history.map((t) => t.key));
      expect(paged[0]!.paymentDate >= paged.at(-1)!.paymentDate).toBe(true);
    } finally {
      client.close();
      store.close();
      tmp.remove();
    }
  });

  it('reads in parallel, but never more at once than its bound', async () => {
    const proxy = await startFaultProxy({ target: service.url });
    const client = soapClient(proxy.url, service.namespace, { maxSockets: 16 });
    try {
      const data = await fetchAll(client, [1, 2], { concurrency: 3 });
      expect(data.accounts.length).toBeGreaterThan(3);
      // In parallel (more than one at a time, as the proxy saw them), within the bound. How much faster that
      // is over a real round trip: `npm run bench -- sync`.
      expect(proxy.maxInFlight()).toBeGreaterThan(1);
      expect(proxy.maxInFlight()).toBeLessThanOrEqual(3);
    } finally {
      client.close();
      await proxy.close();
    }
  });
});
