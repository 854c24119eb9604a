/** The demo data set, as issue 3 describes it, read through the service. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RuleError, TEST_HASH_PARAMS, createDemoData } from '../../src-service';
import { nowWall } from '../../src-shared/wire';
import { call } from '../support/http';
import { startTestService, type TestService } from '../support/service';

const DEMO = { clientKey: 'demo', login: 'demo', password: 'demo' };
const DEMO2 = { clientKey: 'demo', login: 'demo2', password: 'demo2' };
let service: TestService;
beforeAll(async () => {
  service = await startTestService({ demo: true });
});
afterAll(() => service.close());

describe('the demo data', () => {
  it("has accounts in CZK and EUR for demo, and demo2's account shared read-only", async () => {
    const accounts = await call(service, 'soap12', 'AccountListWithAmount2', DEMO, {});
    expect(accounts.length).toBeGreaterThanOrEqual(5);
    expect(new Set(accounts.map((a) => a.Currency))).toEqual(new Set([203, 978]));
    const shared = accounts.filter((a) => a.UserAccountPermission === 1);
    expect(shared.map((a) => a.Id)).toEqual([service.demo!.sharedAccountId]);
    expect(accounts.filter((a) => a.UserAccountPermission === 3)).toHaveLength(accounts.length - 1);
    const demo2 = await call(service, 'soap12', 'AccountList2', DEMO2, {});
    expect(demo2.some((a) => a.Id === service.demo!.sharedAccountId && a.UserAccountPermission === 3)).toBe(true);
    expect(demo2.some((a) => accounts.some((b) => b.Id === a.Id && b.UserAccountPermission === 3))).toBe(false);
    await expect(
      call(service, 'soap12', 'EditAccount', DEMO, {
        Id_Account: service.demo!.sharedAccountId,
        Name: 'x',
        Description: '',
        Type: 1,
        IsActive: true,
        IsHidden: false,
        Locked: false,
        Ord: 0,
      }),
    ).rejects.toThrow('read-only');
  });

  it('has 200+ transactions over a year, none in the future, and balances that are their exact sums', () => {
    const db = new Database(service.dataFile, { readonly: true });
    try {
      const demoAccounts = Object.values(service.demo!.accounts);
      const rows = db
        .prepare(`SELECT account_id, payment_date, amount_minor FROM transactions WHERE account_id IN (${demoAccounts.join(',')})`)
        .all() as { payment_date: string }[];
      expect(rows.length).toBeGreaterThanOrEqual(200);
      const dates = rows.map((r) => r.payment_date).sort();
      const spanDays = (Date.parse(dates.at(-1)!) - Date.parse(dates[0]!)) / 86_400_000;
      expect(spanDays).toBeGreaterThan(330);
      expect(dates.at(-1)! <= nowWall('Europe/Prague')).toBe(true);
      const mismatches = db
        .prepare(
          'SELECT a.id FROM accounts a WHERE a.balance_minor <> (SELECT IFNULL(SUM(amount_minor), 0) FROM transactions t WHERE t.account_id = a.id)',
        )
        .all();
      expect(mismatches).toEqual([]);
    } finally {
      db.close();
    }
  });

  it('has a category tree with favourites, templates, and two cars with refuelings', async () => {
    const tree = await call(service, 'soap12', 'CategoryTree', DEMO, {});
    expect(tree.AllCategories.length).toBeGreaterThanOrEqual(5);
    expect(tree.AllCategories.some((c) => (c.ChildCategories?.length ?? 0) >= 2)).toBe(true);
    expect(tree.FavoritCategories.length).toBeGreaterThan(3);
    expect(tree.FavoritCategories.length).toBeLessThanOrEqual(10);
    const templates = await call(service, 'soap12', 'DefineTransactionList2', DEMO, {});
    expect(templates.length).toBeGreaterThanOrEqual(3);
    expect(templates.map((t) => t.Ord)).toEqual([...templates.map((t) => t.Ord)].sort((a, b) => a - b));
    for (const carId of service.demo!.carIds) {
      const fuel = await call(service, 'soap12', 'CarFuelList', DEMO, { CarId: carId });
      expect(fuel.length).toBeGreaterThanOrEqual(10);
      expect(fuel[0]!.Tachometer).toBeGreaterThan(fuel.at(-1)!.Tachometer);
    }
    expect(await call(service, 'soap12', 'CarFuelList', DEMO2, { CarId: 1 })).toEqual([]);
  });

  it('books in the daytime and never after its "now", litres in exact hundredths', () => {
    const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-demo-'));
    try {
      const file = join(dir, 'early.sqlite');
      // 5:30 in Prague: a booking of today must neither fall in the night nor lie still ahead.
      createDemoData(file, { hashParams: TEST_HASH_PARAMS, timeZone: 'Europe/Prague', now: Date.parse('2026-11-21T04:30:00Z') });
      const db = new Database(file, { readonly: true });
      const dates = db
        .prepare('SELECT payment_date FROM transactions UNION ALL SELECT date_of_purchase FROM refuelings')
        .pluck()
        .all() as string[];
      const fuel = db.prepare('SELECT liter, price_minor, rate FROM refuelings').all() as {
        liter: number;
        price_minor: number;
        rate: number;
      }[];
      db.close();
      const hours = new Set(dates.map((d) => Number(d.slice(11, 13))));
      expect(Math.min(...hours)).toBeGreaterThanOrEqual(7);
      expect(Math.max(...hours)).toBeLessThanOrEqual(20);
      expect(dates.filter((d) => d > '2026-11-21T05:30:00')).toEqual([]);
      expect(dates.some((d) => d.startsWith('2026-11-20'))).toBe(true);
      expect(fuel.length).toBeGreaterThan(20);
      for (const r of fuel) {
        expect(String(r.liter)).toMatch(/^\d{2}(\.\d{1,2})?$/);
        expect([1, 25.215]).toContain(r.rate);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is made once per data file and the same amounts every time', async () => {
    expect(() => createDemoData(service.dataFile, { hashParams: TEST_HASH_PARAMS })).toThrow(RuleError);
    const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-demo-'));
    try {
      const amounts = (file: string) => {
        createDemoData(file, { hashParams: TEST_HASH_PARAMS });
        const db = new Database(file, { readonly: true });
        const list = db.prepare('SELECT amount_minor FROM transactions ORDER BY id').pluck().all();
        db.close();
        return list;
      };
      expect(amounts(join(dir, 'a.sqlite'))).toEqual(amounts(join(dir, 'b.sqlite')));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
