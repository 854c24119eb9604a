/**
 * What SQL reads beside the stored transactions, kept in step with every write: the integer units and
 * the month of each row, the folded full-text index, the totals per month. A copy of the previous schema
 * upgraded in place, rows a pull changes or adds, a whole pull, a cleared copy, random writes against a
 * recomputation, sums beyond 64 bits, a restore (whose derived data is never taken on trust).
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS, Store, type AccountRow, type TransactionRow } from '../../src-main/core/store';
import { textQuery } from '../../src-main/core/store/text-search';
import { openCore, tempDir } from '../support/client';
import { seededRandom } from '../support/fault-proxy';
import { testSeed } from '../support/seed';

const account = (id: number): AccountRow => ({
  id,
  name: `A${id}`,
  description: '',
  type: 1,
  currency: 203,
  isActive: true,
  locked: false,
  isHidden: false,
  ord: id,
  permission: 3,
  balance: '0',
});
const tx = (id: number, description: string, amount = '-1.5', paymentDate = '2026-01-02T10:00:00'): TransactionRow => ({
  key: `id:${id}`,
  id,
  accountId: 1,
  paymentDate,
  type: 2,
  amount,
  description,
  categoryId: 0,
  userId: 1,
  userCreatedId: 1,
});

let cleanup: (() => void) | null = null;
afterEach(() => {
  cleanup?.();
  cleanup = null;
});

function freshStore(migrations = MIGRATIONS): { store: Store; file: string } {
  const tmp = tempDir();
  const file = tmp.file('local.sqlite');
  const store = new Store(file, { migrations });
  cleanup = () => {
    store.close();
    tmp.remove();
  };
  return { store, file };
}

/** Keys of the stored rows the text finds, through the index (or row by row for short texts). */
function found(store: Store, text: string): string[] {
  const q = textQuery(text, [])!;
  return store.db.prepare(`SELECT key FROM transactions WHERE ${q.sql} ORDER BY key`).pluck().all(q.params) as string[];
}

describe('the text index', () => {
  it('folds case and diacritics, finds any part of a word, of the description or the amount', () => {
    const { store } = freshStore();
    store.transaction(() => {
      store.accounts.upsert(account(1), 0);
      store.transactions.upsert([tx(1, 'Benzín Shell Praha'), tx(2, 'ŠKODA servis', '-120.5'), tx(3, 'Čerpací stanice "OMV"', '42')]);
    });
    expect(found(store, 'benzin')).toEqual(['id:1']);
    expect(found(store, 'BENZÍN')).toEqual(['id:1']);
    expect(found(store, 'zín sh')).toEqual(['id:1']);
    expect(found(store, 'skoda')).toEqual(['id:2']);
    expect(found(store, 'cerpaci')).toEqual(['id:3']);
    expect(found(store, '"omv"')).toEqual(['id:3']);
    expect(found(store, '120,5')).toEqual(['id:2']);
    expect(found(store, '-120')).toEqual(['id:2']);
    // Shorter than a trigram: row by row, folded alike.
    expect(found(store, 'Č')).toEqual(['id:3']);
    expect(found(store, '42')).toEqual(['id:3']);
    expect(found(store, 'zzz')).toEqual([]);
  });

  it('follows rows a pull changes, adds and leaves alone, and a cleared copy', () => {
    const { store } = freshStore();
    store.transaction(() => {
      store.accounts.upsert(account(1), 0);
      store.transactions.upsert([tx(1, 'Benzín'), tx(2, 'Nájem')]);
    });
    const changedAt = (key: string) => store.db.prepare('SELECT changed_at FROM transactions WHERE key = ?').pluck().get(key) as string;
    const before = changedAt('id:2');
    const pull = (rows: TransactionRow[]) =>
      store.serverCopy.apply({
        accounts: [account(1)],
        transactions: new Map([[1, rows]]),
        templates: [],
        categories: { all: [], favorites: [] },
        refuelings: new Map(),
      });
    pull([tx(1, 'Nafta', '-99.25'), tx(2, 'Nájem'), tx(3, 'Benzín znovu')]);
    expect(found(store, 'benzin')).toEqual(['id:3']);
    expect(found(store, 'nafta')).toEqual(['id:1']);
    expect(found(store, '99.25')).toEqual(['id:1']);
    expect(found(store, '-1.5')).toEqual(['id:2', 'id:3']);
    // An unchanged row is not written again: it keeps the moment it last changed.
    expect(changedAt('id:2')).toBe(before);
    expect(changedAt('id:1')).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    // The integer units and the month follow the amount and the date.
    pull([tx(1, 'Nafta', '0.00001', '2026-03-31T23:59:59')]);
    expect(store.db.prepare("SELECT amount_units, month FROM transactions WHERE key = 'id:1'").get()).toEqual({
      amount_units: null,
      month: '2026-03',
    });
    pull([tx(1, 'Nafta', '-1234.5678', '2026-04-01T00:00:00')]);
    expect(store.db.prepare("SELECT amount_units, month FROM transactions WHERE key = 'id:1'").get()).toEqual({
      amount_units: -12345678,
      month: '2026-04',
    });
    // The month cannot disagree with the date.
    expect(() => store.db.prepare("UPDATE transactions SET month = '2020-01' WHERE key = 'id:1'").run()).toThrow(/CHECK constraint/);
    store.serverCopy.clear();
    expect(found(store, 'nafta')).toEqual([]);
    expect(store.db.prepare('SELECT COUNT(*) FROM transactions_text').pluck().get()).toBe(0);
  });

  it('is built when a copy of the previous schema is upgraded, with the units and months', () => {
    const tmp = tempDir();
    cleanup = () => tmp.remove();
    const file = tmp.file('local.sqlite');
    const older = new Store(file, { migrations: MIGRATIONS.filter((m) => m.version < 3), noSafetyCopies: true });
    older.transaction(() => {
      older.accounts.upsert(account(1), 0);
      // The version before wrote only these columns.
      const insert = older.db.prepare(
        'INSERT INTO transactions (key, id, account_id, payment_date, type, amount, description, category_id, user_id, user_created_id) VALUES (?, ?, 1, ?, 2, ?, ?, 0, 1, 1)',
      );
      insert.run('id:1', 1, '2025-12-31T10:00:00', '-10.25', 'Benzín');
      insert.run('h:abc:0', null, '2026-01-01T10:00:00', '1e-7', 'Old list');
    });
    older.close();
    const store = new Store(file, { noSafetyCopies: true });
    try {
      expect(store.schemaVersion).toBe(MIGRATIONS.at(-1)!.version);
      expect(store.db.prepare('SELECT key, amount_units, month, changed_at FROM transactions ORDER BY key').all()).toEqual([
        { key: 'h:abc:0', amount_units: null, month: '2026-01', changed_at: null },
        { key: 'id:1', amount_units: -102500, month: '2025-12', changed_at: null },
      ]);
      expect(found(store, 'benzin')).toEqual(['id:1']);
      expect(found(store, 'old li')).toEqual(['h:abc:0']);
    } finally {
      store.close();
    }
  });

  it('is in step after a restore, and a backup cannot bring wrong units', async () => {
    const tmp = tempDir();
    cleanup = () => tmp.remove();
    const file = tmp.file('local.sqlite');
    const store = new Store(file);
    store.transaction(() => {
      store.accounts.upsert(account(1), 0);
      store.transactions.upsert([tx(1, 'Benzín', '-10'), tx(2, 'Nájem', '-20')]);
    });
    store.close();
    const core = openCore(file);
    try {
      const backup = await core.createBackup();
      // The backup is tampered with: a wrong integer amount beside a right text one.
      const copy = tmp.file('tampered.sqlite');
      const { writeFileSync, readFileSync } = await import('node:fs');
      writeFileSync(copy, Buffer.from(backup.data, 'base64'));
      const db = new Database(copy);
      db.prepare("UPDATE transactions SET amount_units = 5 WHERE key = 'id:1'").run();
      db.close();
      const onFile = new Store(file);
      onFile.transaction(() => onFile.transactions.upsert([tx(1, 'Nafta', '-10'), tx(3, 'Benzín 3')]));
      onFile.close();
      expect((await core.searchTransactions({ text: 'benzin' })).items.map((i) => i.id)).toEqual([3]);

      await core.restoreBackup({ data: readFileSync(copy) });
      expect((await core.searchTransactions({ text: 'benzin' })).items.map((i) => i.id)).toEqual([1]);
      expect((await core.searchTransactions({ text: 'nafta' })).total).toBe(0);
      expect((await core.searchTransactions({ text: 'nájem' })).sums).toEqual([{ currency: 203, total: '-20', count: 1 }]);
      expect((await core.searchTransactions({})).sums).toEqual([{ currency: 203, total: '-30', count: 2 }]);

      // A month at odds with its date cannot come in at all: the restore is refused and changes nothing.
      const wrongMonth = tmp.file('wrong-month.sqlite');
      writeFileSync(wrongMonth, Buffer.from(backup.data, 'base64'));
      const bad = new Database(wrongMonth);
      bad.pragma('ignore_check_constraints = ON');
      bad.prepare("UPDATE transactions SET month = '1999-01' WHERE key = 'id:2'").run();
      bad.close();
      await expect(core.restoreBackup({ data: readFileSync(wrongMonth) })).rejects.toMatchObject({
        kind: 'invalid-input',
        message: expect.stringMatching(/do not fit together/),
      });
      expect((await core.getReport({ from: '2026-01-01', to: '2026-01-31' })).total).toMatchObject({ expense: '30', count: 2 });
    } finally {
      await core.close();
    }
  });
});

describe('the monthly totals', () => {
  /** Each table of totals and the columns it groups by. */
  const TABLES = {
    month_totals: ['month', 'category_id', 'type', 'account_id'],
    account_months: ['account_id', 'month'],
    month_flows: ['month', 'category_id', 'type'],
  } as const;
  type Table = keyof typeof TABLES;

  /** The totals recomputed from the rows, with BigInts, one line per group; a sum beyond 64 bits as null. */
  function recomputed(store: Store, table: Table = 'month_totals'): string[] {
    const keys = TABLES[table];
    const rows = store.db
      .prepare(`SELECT ${keys.join(', ')}, amount_units FROM transactions WHERE amount_units IS NOT NULL`)
      .raw(true)
      .safeIntegers(true)
      .all() as unknown[][];
    const groups = new Map<string, { income: bigint; expense: bigint; count: number }>();
    for (const row of rows) {
      const units = row.at(-1) as bigint;
      const key = row.slice(0, -1).map(String).join(' ');
      const g = groups.get(key) ?? { income: 0n, expense: 0n, count: 0 };
      groups.set(key, { income: g.income + (units > 0n ? units : 0n), expense: g.expense + (units < 0n ? units : 0n), count: g.count + 1 });
    }
    const fits = (v: bigint) => (v > 9223372036854775807n || v < -9223372036854775808n ? 'null' : String(v));
    return [...groups].map(([key, g]) => `${key} ${fits(g.income)} ${fits(g.expense)} ${g.count}`).sort();
  }
  const stored = (store: Store, table: Table = 'month_totals'): string[] =>
    (
      store.db
        .prepare(`SELECT ${TABLES[table].join(', ')}, income, expense, count FROM ${table}`)
        .raw(true)
        .safeIntegers(true)
        .all() as unknown[][]
    )
      .map((r) => r.map((v) => (v === null ? 'null' : String(v))).join(' '))
      .sort();
  const same = (store: Store) => {
    for (const table of Object.keys(TABLES) as Table[]) expect(stored(store, table), table).toEqual(recomputed(store, table));
  };

  it('equal a recomputation from the rows after random writes, pulls and a cleared copy', () => {
    const { store } = freshStore();
    const random = seededRandom(testSeed('DERIVED_DATA_SEED', 77));
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
    store.transaction(() => [1, 2, 3].forEach((id) => store.accounts.upsert(account(id), id)));
    for (let round = 0; round < 30; round++) {
      const rows: TransactionRow[] = [];
      for (let n = 0; n < 40; n++) {
        const id = Math.floor(random() * 120);
        rows.push({
          ...tx(id, pick(['a', 'b'])),
          accountId: pick([1, 2, 3]),
          paymentDate: `2026-${pick(['01', '02', '03'])}-1${Math.floor(random() * 9)}T10:00:00`,
          type: pick([1, 2, 3]),
          categoryId: pick([0, 5, 6]),
          amount: pick(['-1.5', '2', '0', '0.00001', '-12345.6789', '1000']),
        });
      }
      store.transaction(() => store.transactions.upsert(rows));
      same(store);
    }
    store.serverCopy.clear();
    for (const table of Object.keys(TABLES) as Table[]) expect(stored(store, table)).toEqual([]);
  });

  it('leave a sum beyond 64 bits to the rows: reports stay exact and writes go on', async () => {
    const tmp = tempDir();
    cleanup = () => tmp.remove();
    const file = tmp.file('local.sqlite');
    const store = new Store(file);
    // Eleven amounts of 9 * 10^13 (units 9 * 10^17 each): their sum leaves 64 bits in one month's total.
    const big = Array.from({ length: 11 }, (_, n) => tx(n + 1, 'big', '90000000000000', `2026-01-0${1 + (n % 9)}T10:00:00`));
    store.transaction(() => {
      store.accounts.upsert({ ...account(1), balance: '990000000000000.5' }, 0);
      store.transactions.upsert([...big, tx(20, 'small', '0.5', '2026-02-01T10:00:00')]);
    });
    expect(stored(store)).toEqual(['2026-01 0 2 1 null 0 11', '2026-02 0 2 1 5000 0 1']);
    expect(stored(store, 'account_months')).toEqual(['1 2026-01 null 0 11', '1 2026-02 5000 0 1']);
    expect(stored(store, 'month_flows')).toEqual(['2026-01 0 2 null 0 11', '2026-02 0 2 5000 0 1']);
    same(store);
    store.close();
    const core = openCore(file);
    try {
      // Whole months: read from the totals, the one beyond 64 bits from its rows.
      const report = await core.getReport({ from: '2026-01-01', to: '2026-03-31' });
      expect(report.total).toEqual({ income: '990000000000000.5', expense: '0', net: '990000000000000.5', count: 12 });
      expect(report.byMonth.map((m) => m.income)).toEqual(['990000000000000', '0.5', '0']);
      expect(report.balances[0]!.points.map((p) => p.balance)).toEqual(['990000000000000', '990000000000000.5', '990000000000000.5']);
      // The same from the rows themselves (a short period goes by days).
      expect((await core.getReport({ from: '2026-01-01', to: '2026-02-28' })).total).toEqual(report.total);
      expect((await core.searchTransactions({})).sums).toEqual([{ currency: 203, total: '990000000000000.5', count: 12 }]);
    } finally {
      await core.close();
    }
  });
});
