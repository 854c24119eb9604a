/**
 * `migrate --from file.sqlite --to postgres://...` on the demo data plus 10,000 random transactions
 * (bookings and transfers): every table's rows, ids and money sums are the same in the database as in
 * the file; a service on each answers every operation the same, byte for byte, writes included (the
 * next ids too); and a database that already holds data is refused, untouched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_HASH_PARAMS, contextOf, createDemoData, onFile, silentLogger, startService, type DemoSummary } from '../../src-service';
import { seededRandom } from '../../src-service/admin/seeded-random';
import { addTransfer, bookTransaction } from '../../src-service/operations/transactions';
import { OPERATION_NAMES, OPERATIONS, type Credentials, type OperationName, type ParamsOf } from '../../src-shared/catalog';
import { BINDINGS, type Binding } from '../../src-shared/wire';
import { freshDatabase, needPostgres } from '../support/backends';
import { callRaw, type Target } from '../support/http';
import { testSeed } from '../support/seed';
import { serviceCli } from '../support/service-cli';

const TIME_ZONE = 'Europe/Prague';
const NOW = Date.parse('2026-11-20T12:00:00Z');
const DEMO: Credentials = { clientKey: 'demo', login: 'demo', password: 'demo' };
const DEMO2: Credentials = { clientKey: 'demo', login: 'demo2', password: 'demo2' };
const found = needPostgres(import.meta.url);
const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-migrate-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The demo data set and 10,000 more transactions on demo's open accounts: a tenth transfers, the rest bookings. */
function makeFile(file: string): DemoSummary {
  const demo = createDemoData(file, { hashParams: TEST_HASH_PARAMS, timeZone: TIME_ZONE, now: NOW });
  const random = seededRandom(testSeed('MIGRATE_SEED', 20261120));
  const open = [demo.accounts.cash, demo.accounts.bank, demo.accounts.savings, demo.accounts.card];
  onFile(file, function* (store) {
    const ctx = { ...(yield* contextOf(store, 'demo', TIME_ZONE)), now: () => NOW };
    for (let made = 0; made < 10_000;) {
      const day = `2026-${String(1 + Math.floor(random() * 10)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}T${String(7 + Math.floor(random() * 13)).padStart(2, '0')}:${String(Math.floor(random() * 60)).padStart(2, '0')}:00`;
      const cents = 1 + Math.floor(random() * 250_000);
      const from = open[Math.floor(random() * open.length)]!;
      if (random() < 0.1) {
        const to = open.filter((a) => a !== from)[Math.floor(random() * (open.length - 1))]!;
        yield* addTransfer(ctx, {
          Amount: cents / 100,
          Description: `Transfer ${made}`,
          Id_SourceAccount: from,
          Id_TargetAccount: to,
          Id_Category: 0,
          PaymentDate: day,
        });
        made += 2;
      } else {
        yield* bookTransaction(ctx, {
          accountId: from,
          amount: (random() < 0.3 ? cents : -cents) / 100,
          paymentDate: day,
          description: `Payment ${made} "&<>`,
        });
        made += 1;
      }
    }
  });
  return demo;
}

const TABLES = ['client_apps', 'users', 'accounts', 'account_permissions', 'categories', 'transactions', 'templates', 'refuelings'];

/** Every row of every table, by id, booleans as 0/1, as JSON lines. */
function fileRows(file: string): Record<string, string[]> {
  const db = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(
      TABLES.map((t) => [
        t,
        db
          .prepare(`SELECT * FROM ${t} ORDER BY 1, 2`)
          .all()
          .map((r) => JSON.stringify(r)),
      ]),
    );
  } finally {
    db.close();
  }
}

async function databaseRows(url: string, columnsOf: Record<string, string[]>): Promise<Record<string, string[]>> {
  const client = new pg.Client({
    connectionString: url,
    types: {
      getTypeParser: (oid: number) => (oid === 20 ? Number : oid === 16 ? (v: string) => (v === 't' ? 1 : 0) : pg.types.getTypeParser(oid)),
    },
  });
  await client.connect();
  try {
    const out: Record<string, string[]> = {};
    // The file's column order, so that the JSON of a row is the same on both sides.
    for (const t of TABLES) {
      out[t] = (await client.query(`SELECT ${columnsOf[t]!.join(', ')} FROM ${t} ORDER BY 1, 2`)).rows.map((r) => JSON.stringify(r));
    }
    return out;
  } finally {
    await client.end();
  }
}

function columnsOfFile(file: string): Record<string, string[]> {
  const db = new Database(file, { readonly: true });
  try {
    return Object.fromEntries(TABLES.map((t) => [t, (db.pragma(`table_info(${t})`) as { name: string }[]).map((c) => c.name)]));
  } finally {
    db.close();
  }
}

/** The same read of every operation in every binding, for both users; answers compared byte for byte. */
function reads(demo: DemoSummary): [Credentials, OperationName, object][] {
  const calls: [Credentials, OperationName, object][] = [];
  for (const user of [DEMO, DEMO2]) {
    for (const operation of OPERATION_NAMES.filter((n) => OPERATIONS[n].access === 'read')) {
      if (operation.startsWith('TransactionListLast50')) {
        for (const id of [...Object.values(demo.accounts), demo.sharedAccountId]) calls.push([user, operation, { AccountId: id }]);
      } else if (operation === 'CarFuelList') {
        for (const car of [1, 2, 3]) calls.push([user, operation, { CarId: car }]);
      } else calls.push([user, operation, {}]);
    }
  }
  return calls;
}

describe.skipIf(!found)('migrate from a data file to PostgreSQL', () => {
  it('copies the demo data and 10,000 transactions: rows, ids, sums; every operation answers the same on both', async () => {
    const file = join(dir, 'books.sqlite');
    const demo = makeFile(file);
    const url = await freshDatabase();
    const run = await serviceCli(['migrate', '--from', file, '--to', url]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(
      /^Copied 1 client apps, 2 users, 8 accounts, 9 account permissions, 21 categories, 10,\d{3} transactions, 5 templates, \d+ refuelings\.\n/,
    );

    // Rows, ids and sums, read from both sides by this test.
    const before = fileRows(file);
    expect(before.transactions!.length).toBeGreaterThan(10_000);
    expect(await databaseRows(url, columnsOfFile(file))).toEqual(before);

    // A service on each, with the same clock: every read in every binding answers the same bytes.
    const services = await Promise.all(
      [{ dataFile: file }, { databaseUrl: url }].map((where) =>
        startService({
          ...where,
          port: 0,
          logger: silentLogger,
          timeZone: TIME_ZONE,
          now: () => NOW,
          auth: { hashParams: TEST_HASH_PARAMS },
        }),
      ),
    );
    const [onFile_, onDatabase] = services.map((s): Target => ({ url: s.url, namespace: s.namespace })) as [Target, Target];
    try {
      const same = async <N extends OperationName>(user: Credentials, operation: N, params: ParamsOf<N>, binding: Binding = 'soap12') => {
        const [x, y] = await Promise.all([
          callRaw(onFile_, binding, operation, user, params),
          callRaw(onDatabase, binding, operation, user, params),
        ]);
        expect(y.status, `${operation} ${JSON.stringify(params)}`).toBe(x.status);
        expect(y.body, `${operation} ${JSON.stringify(params)} ${binding}`).toBe(x.body);
        return x;
      };
      for (const binding of BINDINGS) {
        for (const [user, operation, params] of reads(demo)) await same(user, operation, params as never, binding);
      }
      // Writes give the same answers too, new ids included: the identities were moved past the file's.
      const account = {
        Name: 'New',
        Description: 'after the move',
        Currency: 203,
        Type: 1,
        IsActive: true,
        IsHidden: false,
        Locked: false,
        Ord: 9,
      };
      expect((await same(DEMO, 'AddAccount', account)).status).toBe(200);
      await same(DEMO, 'EditAccount', { ...account, Id_Account: demo.accounts.card, Name: 'Card renamed' });
      const transfer = {
        Amount: 12.34,
        Description: 'after',
        Id_SourceAccount: demo.accounts.bank,
        Id_TargetAccount: demo.accounts.cash,
        Id_Category: 0,
        PaymentDate: '2026-11-20T09:00:00',
      };
      expect((await same(DEMO, 'AddTranferToOtherAccount', transfer)).status).toBe(200);
      await same(DEMO, 'AddTranferToOtherAccount', { ...transfer, Id_TargetAccount: demo.accounts.old });
      await same(DEMO, 'AddCategory', { Name: 'Moved', Id_ParentCategory: 0 });
      await same(DEMO, 'EditCarFuel', {
        CarId: 1,
        Id_CarFuel: 0,
        Liter: 40.25,
        Price: 1500.5,
        Tachometer: 200_000,
        DateOfPurchase: '2026-11-20T08:00:00',
        Currency: 203,
        Description: 'after',
        Rate: 1,
      });
      for (const [user, operation, params] of reads(demo)) await same(user, operation, params as never);
    } finally {
      await Promise.all(services.map((s) => s.close()));
    }
  }, 180_000);

  it('refuses a database that already holds data, and leaves it as it was', async () => {
    const file = join(dir, 'small.sqlite');
    createDemoData(file, { hashParams: TEST_HASH_PARAMS, timeZone: TIME_ZONE, now: NOW });
    const url = await freshDatabase();
    expect((await serviceCli(['migrate', '--from', file, '--to', url])).code).toBe(0);
    const copied = await databaseRows(url, columnsOfFile(file));
    const again = await serviceCli(['migrate', '--from', file, '--to', url]);
    expect(again.code).toBe(1);
    expect(again.stderr).toBe('error: The database already holds bookkeeping data: migrate copies into an empty one.\n');
    expect(await databaseRows(url, columnsOfFile(file))).toEqual(copied);
    const missing = await serviceCli(['migrate', '--from', join(dir, 'nowhere.sqlite'), '--to', url]);
    expect(missing.stderr).toBe(`error: Cannot open the data file: ${join(dir, 'nowhere.sqlite')} does not exist.\n`);
  }, 60_000);
});
