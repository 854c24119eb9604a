/** The data file (migrations, constraints), money conversion and the admin functions' own checks. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  DataFileError,
  RuleError,
  TEST_HASH_PARAMS,
  addAccount,
  addCategory,
  addClient,
  addTemplate,
  addTransaction,
  addUser,
  shareAccount,
} from '../../src-service';
import { MAX_MINOR, amountToMinor, minorToAmount, openDatabase } from '../../src-service/store';
import { SCHEMA_VERSION } from '../../src-service/store/sqlite/database';
import { fromMinorUnits, toNumber } from '../../src-shared/money';

const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-store-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const file = () => join(dir, `f${++n}.sqlite`);

describe('the data file', () => {
  it('is created at the current schema version, in WAL mode with foreign keys, and reopens unchanged', () => {
    const f = file();
    const db = openDatabase(f);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const tables = db
      .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
      .pluck()
      .all();
    expect(tables).toEqual([
      'account_permissions',
      'accounts',
      'categories',
      'client_apps',
      'refuelings',
      'templates',
      'transactions',
      'users',
    ]);
    db.close();
    const again = openDatabase(f);
    expect(again.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    again.close();
  });

  it('refuses a file from a newer version and a file that is not a database', () => {
    const newer = file();
    const db = new Database(newer);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openDatabase(newer)).toThrow(DataFileError);
    expect(() => openDatabase(newer)).toThrow(/newer than this program's/);
    const junk = file();
    writeFileSync(junk, 'this is not sqlite, just text that is long enough to be looked at'.repeat(20));
    expect(() => openDatabase(junk)).toThrow(DataFileError);
  });

  it('keeps no client key and no password in the clear', () => {
    const f = file();
    addClient(f, 'very-secret-key');
    addUser(f, 'ann', 'very-secret-password', { hashParams: TEST_HASH_PARAMS });
    const db = new Database(f, { readonly: true });
    const dump = JSON.stringify([db.prepare('SELECT * FROM client_apps').all(), db.prepare('SELECT * FROM users').all()]);
    db.close();
    expect(dump).not.toContain('very-secret');
  });

  it('guards the balance limit and foreign keys even against direct writes', () => {
    const f = file();
    addUser(f, 'ann', 'pw', { hashParams: TEST_HASH_PARAMS });
    const account = addAccount(f, 'ann', { name: 'A', currency: 203 });
    const db = openDatabase(f);
    const insert = db.prepare(
      "INSERT INTO transactions (account_id, user_id, created_by, payment_date, type, amount_minor, description, created_at) VALUES (?, 1, 1, '2026-01-01T00:00:00', 1, ?, '', '')",
    );
    expect(() => insert.run(account, MAX_MINOR + 1)).toThrow(/CHECK constraint/);
    expect(() => insert.run(999, 1)).toThrow(/FOREIGN KEY/);
    db.close();
  });
});

describe('money', () => {
  it('minor units read back as the double nearest the decimal, for every currency exponent', () => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    for (const digits of [0, 2, 3]) {
      const currency = { 0: 392, 2: 203, 3: 414 }[digits]!;
      for (let i = 0; i < 2000; i++) {
        const minor = Math.floor((random() - 0.5) * 2 * (i % 2 ? MAX_MINOR : 10 ** (i % 12)));
        expect(minorToAmount(minor, currency)).toBe(toNumber(fromMinorUnits(minor, digits)));
        expect(amountToMinor(minorToAmount(minor, currency), currency, 'x')).toBe(minor);
      }
    }
  });

  it('an amount with more decimals than the currency, or beyond 15 digits, or not finite, is refused', () => {
    expect(amountToMinor(0.1, 203, 'Amount')).toBe(10);
    expect(amountToMinor(-1520.5, 203, 'Amount')).toBe(-152050);
    expect(() => amountToMinor(0.001, 203, 'Amount')).toThrow('Amount 0.001 has more decimal places than CZK allows (2).');
    expect(() => amountToMinor(0.5, 392, 'Amount')).toThrow('JPY allows (0)');
    expect(() => amountToMinor(1e13, 203, 'Amount')).toThrow('larger than the service keeps');
    for (const bad of [NaN, Infinity, -Infinity]) {
      expect(() => amountToMinor(bad, 203, 'Amount')).toThrow('Amount must be a finite number.');
    }
  });
});

describe('admin functions refuse what does not fit', () => {
  const f = file();
  addUser(f, 'ann', 'pw', { hashParams: TEST_HASH_PARAMS });
  addUser(f, 'bob', 'pw', { hashParams: TEST_HASH_PARAMS });
  const account = addAccount(f, 'ann', { name: 'A', currency: 203 });

  it('logins, passwords, keys', () => {
    expect(() => addUser(f, '', 'pw')).toThrow(RuleError);
    expect(() => addUser(f, ' ann', 'pw')).toThrow(RuleError);
    expect(() => addUser(f, 'x\u0007', 'pw')).toThrow(RuleError);
    // 60 characters, but 120 once case-folded (İ lower-cases to i and a combining dot): the service matches by that.
    expect(() => addUser(f, 'İ'.repeat(60), 'pw')).toThrow(RuleError);
    expect(() => addUser(f, 'carl', '')).toThrow(RuleError);
    expect(() => addUser(f, 'carl', 'pw', { currency: 1, hashParams: TEST_HASH_PARAMS })).toThrow('Currency 1');
    expect(() => addClient(f, 'has space')).toThrow(RuleError);
    expect(() => addClient(f, '')).toThrow(RuleError);
    expect(() => addClient(f, 'key-with-label', 'x'.repeat(1001))).toThrow('label must be at most 1000 characters.');
    expect(() => addClient(f, 'key-with-label', 'tab\u0007')).toThrow('label holds a control character');
  });

  it('sharing', () => {
    expect(() => shareAccount(f, account, 'ann', 1)).toThrow("the owner's permission stays 3");
    expect(() => shareAccount(f, account, 'nobody', 1)).toThrow('There is no user with login "nobody".');
    expect(() => shareAccount(f, account, 'bob', 4 as never)).toThrow('The permission is 1 (read), 2 (write) or 3 (owner).');
    shareAccount(f, account, 'bob', 1);
    expect(() => addTransaction(f, 'bob', { accountId: account, amount: 1, paymentDate: '2026-01-01T00:00:00' })).toThrow(
      'is read-only for you',
    );
  });

  it('transactions and templates', () => {
    expect(() => addTransaction(f, 'ann', { accountId: account, amount: 1, paymentDate: '2026-01-01T00:00:00', type: 3 })).toThrow(
      'AddTranferToOtherAccount',
    );
    expect(() => addTransaction(f, 'ann', { accountId: account, amount: 1, paymentDate: '2026-13-01T00:00:00' })).toThrow(
      'paymentDate must be a date and time',
    );
    expect(() => addTransaction(f, 'ann', { accountId: account, amount: 1.001, paymentDate: '2026-01-01T00:00:00' })).toThrow(
      'more decimal places',
    );
    const bobsCategory = addCategory(f, 'bob', 'B');
    expect(() => addTemplate(f, 'ann', { accountId: account, type: 2, amount: -1, categoryId: bobsCategory })).toThrow('does not exist');
    expect(() => addTemplate(f, 'ann', { accountId: account, type: 9, amount: -1 })).toThrow('type 9 is not a transaction type');
  });

  it('text the answers could not carry (stored, it would make every later list a Server fault)', () => {
    expect(() => addTemplate(f, 'ann', { accountId: account, type: 2, amount: -1, description: 'bell\u0007' })).toThrow(
      'description holds a control character that XML cannot carry.',
    );
    expect(() => addCategory(f, 'ann', 'nul\u0000')).toThrow('Name holds a control character that XML cannot carry.');
    expect(() => addAccount(f, 'ann', { name: 'A', currency: 203, description: '\uFFFF' })).toThrow('Description holds');
  });
});
