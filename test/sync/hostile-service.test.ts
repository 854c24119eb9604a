/**
 * A hostile or broken service cannot corrupt the local copy, exhaust memory or hold a sync forever:
 * 100,000 accounts, a gibibyte answer, one byte a second, duplicate ids with different content, ids 0
 * and -5 (account, transaction, refueling, category), a category tree with a cycle, and a write answered
 * with id 0. Each sync ends within its limits with a message naming the record, the memory stays
 * bounded, and the local copy is exactly as it was; the write stays queued (unknown, never refused).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiAccount2, ApiCategory, ApiTransaction2 } from '../../src-shared/catalog';
import { ANSWER_MS, dataOnly, dumpLocal, newUser, TEST_SYNC_TUNING, type UserSession } from '../support/client';
import { englishOf } from '../support/error-words';
import { crafted, dripped, startHostileProxy, type HostileAnswer, type HostileProxy } from '../support/hostile-proxy';
import { startTestService, type TestService } from '../support/service';
import { settles } from '../support/until';

let service: TestService;
let hostile: HostileProxy;
let s: UserSession;
let accounts: ApiAccount2[];

beforeAll(async () => {
  service = await startTestService();
  hostile = await startHostileProxy(service.url);
  s = await newUser(service, {
    baseUrl: hostile.url,
    timeoutMs: ANSWER_MS,
    maxResponseBytes: 8 * 1024 * 1024,
    sync: { ...TEST_SYNC_TUNING, unavailableMs: 1500, deadlineMs: 6000 },
  });
  for (const name of ['Cash', 'Bank']) {
    await s.core.addAccount({ name, description: '', currency: 203, type: 1, isActive: true, isHidden: false, locked: false, ord: 0 });
  }
  await s.core.saveCar({ carId: 1, name: 'Car' });
  await s.core.addRefueling({
    carId: 1,
    dateOfPurchase: '2026-11-01T08:00',
    tachometer: 1000,
    liter: '40',
    price: '1600',
    currency: 203,
    rate: '1',
    description: 'fuel',
  });
  await s.core.addCategory({ name: 'Food', parentId: 0 });
  expect((await s.core.sync()).error).toBeNull();
  accounts = await s.truth.call('AccountListWithAmount2', {});
});
afterAll(async () => {
  await s.done();
  await hostile.close();
  await service.close();
});

const only = (operation: string, answer: HostileAnswer) => hostile.answer((op) => (op === operation ? answer : null));
const ns = () => service.namespace;

/**
 * Syncs against the hostile answers: the sync ends (by its limits, the latest its deadline of 6 s: hanging
 * on is the failure) with an error, and the local copy is as it was.
 */
async function refusedSync(pattern: RegExp): Promise<string> {
  const before = dataOnly(dumpLocal(s.file));
  const summary = await settles('the sync against the hostile answer to end', s.core.sync());
  hostile.answer(() => null);
  expect(englishOf(summary.error)).toMatch(pattern);
  expect(summary.refused).toBe(0);
  expect(dataOnly(dumpLocal(s.file))).toEqual(before);
  return englishOf(summary.error)!;
}

const account = (over: Partial<ApiAccount2>): ApiAccount2 => ({ ...accounts[0]!, ...over });

describe('a hostile service', () => {
  it('100,000 accounts: refused by counting before parsing, with the heap bounded', async () => {
    const many = Array.from({ length: 100_000 }, (_, i) => account({ Id: i + 1, Name: `Account ${i}` }));
    only('AccountListWithAmount2', crafted('AccountListWithAmount2', many, ns()));
    // The crafted answer is ~30 MB of text: let the client take it whole, so that the record cap decides.
    const core = await s.reopen({ maxResponseBytes: 64 * 1024 * 1024 });
    global.gc?.();
    const heap = process.memoryUsage().heapUsed;
    const error = await refusedSync(/holds more than 5,000 apiAccount2 records; the app handles at most that/);
    expect(error).toContain('AccountListWithAmount2');
    // Without the count, parsing would build 100,000 records (hundreds of MB): the growth stays far below.
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(200 * 1024 * 1024);
    expect(core).toBe(s.core);
    await s.reopen({ maxResponseBytes: 8 * 1024 * 1024 });
  });

  it('a gibibyte answer, streamed: cut at the response cap', async () => {
    only('CategoryTree', (res) => {
      res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8' });
      const chunk = Buffer.alloc(1024 * 1024, ' ');
      let sent = 0;
      const more = () => {
        while (sent < 1024 && !res.destroyed) {
          sent++;
          if (!res.write(chunk)) return void res.once('drain', more);
        }
        res.end();
      };
      res.on('close', () => (sent = 1024));
      more();
    });
    const heap = process.memoryUsage().heapUsed;
    await refusedSync(/larger than|over the limit|more than the limit/i);
    expect(process.memoryUsage().heapUsed - heap).toBeLessThan(100 * 1024 * 1024);
  });

  it('one byte a second: cut by the call time limit and the sync budget', async () => {
    only('DefineTransactionList2', dripped(1000));
    await refusedSync(/unavailable|did not finish|did not answer/i);
  });

  it('duplicate ids with different content are refused; identical duplicates are dropped', async () => {
    only('AccountListWithAmount2', crafted('AccountListWithAmount2', [...accounts, account({ Name: 'Another name' })], ns()));
    await refusedSync(new RegExp(`lists account ${accounts[0]!.Id} twice, with different content`));
    only('AccountListWithAmount2', crafted('AccountListWithAmount2', [...accounts, accounts[0]!], ns()));
    expect((await s.core.sync()).error).toBeNull();
    hostile.answer(() => null);
  });

  it('ids 0 and -5 are refused, for an account, a transaction, a refueling and a category', async () => {
    for (const bad of [0, -5]) {
      only('AccountListWithAmount2', crafted('AccountListWithAmount2', [account({ Id: bad })], ns()));
      await refusedSync(new RegExp(`account Id is ${bad}, not a positive id`));

      const txs = await s.truth.call('TransactionListLast50_2', { AccountId: accounts[0]!.Id });
      const tx: ApiTransaction2 = {
        ...(txs[0] ?? {
          Id_User: 1,
          Id_UserCreated: 1,
          Id_Account: accounts[0]!.Id,
          PaymentDate: '2026-11-01T08:00:00',
          Type: 1,
          Amount: 1,
          Description: '',
          Id_Category: 0,
        }),
        Id: bad,
      };
      only('TransactionListLast50_2', crafted('TransactionListLast50_2', [tx], ns()));
      await refusedSync(new RegExp(`transaction Id is ${bad}, not a positive id`));

      const fuel = await s.truth.call('CarFuelList', { CarId: 1 });
      only('CarFuelList', crafted('CarFuelList', [{ ...fuel[0]!, Id: bad }], ns()));
      await refusedSync(new RegExp(`refueling Id is ${bad}, not a positive id`));

      only(
        'CategoryTree',
        crafted('CategoryTree', { FavoritCategories: [], AllCategories: [{ Id: bad, Name: 'Bad', ChildCategories: null }] }, ns()),
      );
      await refusedSync(new RegExp(`apiCategory Id is ${bad}, not a positive id`));
    }
  });

  it('a category tree with a cycle (a category its own descendant) is refused', async () => {
    const loop: ApiCategory = { Id: 70, Name: 'Loop', ChildCategories: [] };
    const child: ApiCategory = { Id: 71, Name: 'Child', ChildCategories: [{ Id: 70, Name: 'Loop', ChildCategories: null }] };
    loop.ChildCategories = [child];
    only('CategoryTree', crafted('CategoryTree', { FavoritCategories: [], AllCategories: [loop] }, ns()));
    await refusedSync(/category 70 appears twice in its category tree \(a cycle or a shared child\)/);
  });

  it('a write answered with id 0 stays queued, its outcome unknown, never refused; the next sync settles it', async () => {
    await s.core.addAccount({
      name: 'Savings',
      description: '',
      currency: 203,
      type: 4,
      isActive: true,
      isHidden: false,
      locked: false,
      ord: 0,
    });
    only('AddAccount', crafted('AddAccount', account({ Id: 0, Name: 'Savings' }), ns()));
    const summary = await s.core.sync();
    hostile.answer(() => null);
    expect(summary.refused).toBe(0);
    expect(englishOf(summary.error)).toMatch(/the new account Id is 0, not a positive id/);
    const [entry] = await s.core.listOutbox();
    expect(entry).toMatchObject({ kind: 'addAccount' });
    expect(['unknown', 'pending']).toContain(entry!.status);
    // The service never saw it (the hostile answer came instead): the next sync sends it, once.
    expect(await s.core.sync()).toMatchObject({ error: null, refused: 0 });
    expect((await s.truth.call('AccountListWithAmount2', {})).filter((a) => a.Name === 'Savings')).toHaveLength(1);
  });
});
