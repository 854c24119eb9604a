/**
 * The local store: versioned migrations, WAL and foreign keys, the queries the screens need, and a
 * pull written whole or not at all.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS, Store, StoreVersionError, transactionsFromApi, type AccountRow, type PulledData } from '../../src-main/core/store';
import { columnsOf } from '../../src-main/core/store/record-sql';
import { textQuery } from '../../src-main/core/store/text-search';
import { MARKED_RECORDS } from '../../src-shared/records';
import { marksKey, marksTable } from '../../src-shared/records/fields';
import { dumpLocal, tempDir, withStore } from '../support/client';
import { accountRow } from '../support/local-rows';

const account = (id: number, ord: number, balance = '0'): AccountRow => accountRow({ id, name: `A${id}`, type: 1, ord, balance });

function pulled(overrides: Partial<PulledData> = {}): PulledData {
  return {
    accounts: [account(2, 1, '10.5'), account(1, 1, '-0.1'), account(3, 0)],
    transactions: new Map([
      [
        1,
        [
          {
            key: 'id:10',
            id: 10,
            accountId: 1,
            paymentDate: '2026-01-02T00:00:00',
            type: 1,
            amount: '5',
            description: '100% sure',
            categoryId: 0,
            userId: 1,
            userCreatedId: 1,
          },
          {
            key: 'id:11',
            id: 11,
            accountId: 1,
            paymentDate: '2026-01-03T00:00:00',
            type: 2,
            amount: '-5.1',
            description: 'under_score',
            categoryId: 7,
            userId: 1,
            userCreatedId: 1,
          },
        ],
      ],
    ]),
    templates: [{ id: 1, accountId: 1, type: 2, amount: '-1', description: 't', categoryId: 0, ord: 0, userId: 1, userCreatedId: 1 }],
    categories: {
      all: [
        { id: 7, name: 'Food', parentId: 0, position: 0 },
        { id: 8, name: 'Fruit', parentId: 7, position: 0 },
      ],
      favorites: [{ id: 8, name: 'Fruit' }],
    },
    refuelings: new Map(),
    ...overrides,
  };
}

describe('schema', () => {
  it('is created at the newest version with WAL and foreign keys', async () => {
    await withStore(async (store) => {
      expect(store.schemaVersion).toBe(MIGRATIONS.at(-1)!.version);
      expect(store.db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(store.db.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(store.db.pragma('synchronous', { simple: true })).toBe(2);
    });
  });

  it('applies later migrations once, keeping data, and refuses a file from a newer version', () => {
    const tmp = tempDir();
    const file = tmp.file('a.sqlite');
    new Store(file).close();
    const next = MIGRATIONS.at(-1)!.version + 1;
    const v2 = [
      ...MIGRATIONS,
      {
        version: next,
        description: 'notes',
        up: (db: Database.Database) => db.exec('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL) STRICT'),
      },
    ];
    const store = new Store(file, { migrations: v2 });
    store.db.prepare('INSERT INTO notes (text) VALUES (?)').run('kept');
    store.close();
    const again = new Store(file, { migrations: v2 });
    expect(again.schemaVersion).toBe(next);
    expect(again.db.prepare('SELECT text FROM notes').pluck().all()).toEqual(['kept']);
    again.close();
    expect(() => new Store(file)).toThrow(StoreVersionError);
    expect(() => new Store(file)).toThrow(expect.objectContaining({ code: 'localFileNewer', params: { version: next, newest: next - 1 } }));
    // A failing migration leaves the file at its old version.
    const broken = [...v2, { version: next + 1, description: 'broken', up: (db: Database.Database) => db.exec('CREATE TABLE notes (x)') }];
    expect(() => new Store(file, { migrations: broken })).toThrow();
    expect(new Database(file).pragma('user_version', { simple: true })).toBe(next);
    tmp.remove();
  });
});

describe('queries and pulls', () => {
  it('lists accounts by Ord then the service order, pages and searches transactions literally, folded for case and accents', async () => {
    await withStore(async (store) => {
      store.serverCopy.apply(pulled());
      expect(store.accounts.list().map((a) => a.id)).toEqual([3, 2, 1]);
      expect(store.transactions.page(1, 0, 1).map((t) => t.id)).toEqual([11]);
      expect(store.transactions.page(1, 1, 5).map((t) => t.id)).toEqual([10]);
      // The register's search (store/text-search.ts): literal, folded for case and accents, categories by name.
      const text = (s: string) =>
        textQuery(
          s,
          store.categories.list().map((c): [number, string] => [c.id, c.name]),
        );
      expect(store.transactions.count(1, text('%'))).toBe(1);
      expect(store.transactions.page(1, 0, 5, text('_')).map((t) => t.id)).toEqual([11]);
      expect(store.transactions.page(1, 0, 5, text('fruit')).map((t) => t.id)).toEqual([]);
      expect(store.transactions.page(1, 0, 5, text('food')).map((t) => t.id)).toEqual([11]);
      expect(store.transactions.page(1, 0, 5, text('FÓÓD')).map((t) => t.id)).toEqual([11]);
      expect(store.transactions.page(1, 0, 5, text('Ŭnder_Šcore')).map((t) => t.id)).toEqual([11]);
      expect(store.transactions.count(1, text('sure'))).toBe(1);
      store.accounts.addToBalance(1, '0.3');
      expect(store.accounts.get(1)!.balance).toBe('0.2');
      // An account the service no longer lists is hidden, its history kept.
      store.serverCopy.apply(pulled({ accounts: [account(2, 1)] }));
      expect(store.accounts.list().map((a) => a.id)).toEqual([2]);
      expect(store.accounts.get(1)).toBeNull();
      expect(store.transactions.count(1)).toBe(2);
    });
  });

  it('keeps id-less transactions with the account whose list held them, even when two lists hold the same content', async () => {
    await withStore(async (store) => {
      // A foreign service's older list: no ids, and Id_Account not telling which list it came from.
      const item = {
        Id: null,
        Id_User: 1,
        Id_UserCreated: 1,
        Id_Account: 0,
        PaymentDate: '2026-01-02T00:00:00',
        Type: 1,
        Amount: 5,
        Description: 'fee',
        Id_Category: 0,
      };
      store.serverCopy.apply(pulled({ transactions: new Map([1, 2].map((id) => [id, transactionsFromApi(id, [item])])) }));
      expect([store.transactions.count(1), store.transactions.count(2)]).toEqual([1, 1]);
    });
  });

  it('counts what a pull changed, per kind: new, edited and no longer listed records; never a record as it was', () => {
    const tmp = tempDir();
    const store = new Store(tmp.file('a.sqlite'));
    const none = { accounts: 0, transactions: 0, templates: 0, categories: 0, refuelings: 0 };
    const refueling = {
      id: 5,
      carId: 1,
      dateOfPurchase: '2026-01-02T08:00:00',
      tachometer: 1000,
      liter: '40.5',
      price: '1500',
      currency: 203,
      rate: '1',
      description: '',
      userCreatedId: 1,
    };
    try {
      store.cars.save({ carId: 1, name: 'Car' }, '2026-01-01T00:00:00');
      const base = pulled({ refuelings: new Map([[1, [refueling]]]) });
      expect(store.serverCopy.apply(base)).toEqual({ accounts: 3, transactions: 2, templates: 1, categories: 2, refuelings: 1 });
      expect(store.serverCopy.apply(base)).toEqual(none);
      // The order of the service's lists is no change: accounts and categories listed in another order.
      expect(
        store.serverCopy.apply({
          ...base,
          accounts: [...base.accounts].reverse(),
          categories: { ...base.categories, all: [{ ...base.categories.all[0]!, position: 3 }, base.categories.all[1]!] },
        }),
      ).toEqual(none);

      const [a2, a1, a3] = base.accounts as [AccountRow, AccountRow, AccountRow];
      const [t10, t11] = base.transactions.get(1)!;
      const changed: PulledData = {
        // A2 renamed, A1's balance moved by a changed transaction (counted once, as the transaction), A3 no longer listed.
        accounts: [
          { ...a2, name: 'Renamed' },
          { ...a1, balance: '99' },
        ],
        transactions: new Map([[1, [t10!, { ...t11!, description: 'edited' }, { ...t10!, key: 'id:12', id: 12 }]]]),
        templates: [],
        categories: { all: [{ ...base.categories.all[0]!, name: 'Meals' }, base.categories.all[1]!], favorites: [] },
        refuelings: new Map([[1, [{ ...refueling, liter: '41' }]]]),
      };
      expect(store.serverCopy.apply(changed)).toEqual({ accounts: 2, transactions: 2, templates: 1, categories: 1, refuelings: 1 });
      // A balance that moved with no transaction to show why is a change of its own; a listed account again too.
      expect(
        store.serverCopy.apply({ ...changed, accounts: [{ ...a2, name: 'Renamed', balance: '1' }, { ...a1, balance: '99' }, a3] }),
      ).toEqual({
        ...none,
        accounts: 2,
      });
    } finally {
      store.close();
      tmp.remove();
    }
  });

  it('writes a pull whole or not at all', () => {
    const tmp = tempDir();
    const file = tmp.file('a.sqlite');
    const store = new Store(file);
    try {
      store.serverCopy.apply(pulled());
      const before = dumpLocal(file);
      const template = pulled().templates[0]!;
      // Two templates with one id: the write fails half way and nothing of it stays.
      expect(() => store.serverCopy.apply(pulled({ accounts: [account(9, 0)], templates: [template, template] }))).toThrow();
      expect(dumpLocal(file)).toEqual(before);
    } finally {
      store.close();
      tmp.remove();
    }
  });
});

describe('the marks tables', () => {
  it('exist after the migrations with a column for every local field of every record that has some', async () => {
    await withStore(async (store) => {
      expect(MARKED_RECORDS.length).toBeGreaterThan(0);
      for (const record of MARKED_RECORDS) {
        const columns = (store.db.prepare(`SELECT name FROM pragma_table_info(?)`).all(marksTable(record)) as { name: string }[]).map(
          (c) => c.name,
        );
        expect(columns, marksTable(record)).toEqual(
          expect.arrayContaining([marksKey(record), ...columnsOf(record, record.local).map((c) => c.column)]),
        );
      }
    });
  });
});
