/**
 * The cache of answers drops exactly what a write makes stale. Two services run on one data file: one
 * with the cache (whose counts tell a hit from a miss) and one without, the oracle. After every kind of
 * write, every read of every user in every binding is asked of both: the cached service must answer
 * byte for byte what the uncached one answers; the answers the write affected must be computed anew
 * (shared accounts included), and the ones it did not affect must come from the cache. A commit by
 * another process (the admin commands) drops everything; credentials are checked on every hit. A seeded
 * random run interleaves reads and writes of three users, several at once (so that writes share a group
 * commit with reads in the same turn), and compares every answer after each batch.
 *
 * SQLite only: on PostgreSQL no answer is kept (another instance's write is answered before this one
 * hears of it: its store does not know every commit), which the last suite checks;
 * test/service/instances.test.ts shows read-after-write across two instances there.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_HASH_PARAMS } from '../../src-service';
import { seededRandom } from '../../src-service/admin/seeded-random';
import type { KnownRequest } from '../../src-service/server/endpoint';
import { ResponseCache } from '../../src-service/server/response-cache';
import type { Credentials, OperationName, ParamsOf } from '../../src-shared/catalog';
import { BINDINGS, buildRequest, type Binding, type WireRequest } from '../../src-shared/wire';
import { needPostgres } from '../support/backends';
import { call, send, type RawResponse } from '../support/http';
import { testSeed } from '../support/seed';
import { startTestService, type TestService } from '../support/service';
import { ANN, BOB, CLIENT_KEY, createFixture, type Fixture } from './fixture';

const CAROL: Credentials = { clientKey: CLIENT_KEY, login: 'carol', password: 'carol-secret' };

interface Read {
  /** Who asks what, for the test's own bookkeeping: e.g. "ann accounts", "bob transactions 7". */
  label: string;
  who: Credentials;
  binding: Binding;
  req: WireRequest;
}

describe('on SQLite', () => {
  let cache: ResponseCache<KnownRequest>;
  let cached: TestService;
  let oracle: TestService;
  let fx: Fixture;

  beforeAll(async () => {
    cache = new ResponseCache<KnownRequest>();
    // No waits between failures (slowAfter), and a lock after five: the credentials test locks carol.
    cached = await startTestService({ service: { responseCache: cache, auth: { throttle: { slowAfter: 100, lockAfter: 5 } } } });
    fx = await createFixture(cached.admin);
    await cached.admin.addUser(CAROL.login, CAROL.password, { hashParams: TEST_HASH_PARAMS });
    // carol may write to ann's bank account and read bob's shared wallet.
    await cached.admin.shareAccount(fx.accounts.bank, 'carol', 2);
    await cached.admin.shareAccount(fx.accounts.bobWrite, 'carol', 1);
    oracle = await startTestService({ ...cached.where, service: { responseCache: false } });
  }, 60_000);
  afterAll(async () => {
    await oracle?.close();
    await cached?.close();
  });

  function request<N extends OperationName>(binding: Binding, operation: N, who: Credentials, params: ParamsOf<N>): WireRequest {
    return buildRequest(binding, { operation, credentials: who, params }, cached.namespace);
  }

  /** Every read a user can make of the data: the three account lists, both transaction lists of every account they hold, templates, two cars, the category tree; in every binding. */
  function readsOf(who: Credentials, accounts: number[]): Read[] {
    const name = who.login;
    const reads: Read[] = [];
    for (const binding of BINDINGS) {
      const add = <N extends OperationName>(label: string, operation: N, params: ParamsOf<N>) =>
        reads.push({ label: `${name} ${label}`, who, binding, req: request(binding, operation, who, params) });
      add('accounts', 'AccountList2', {});
      add('accounts', 'AccountListWithAmount2', {});
      add('accounts', 'AccountListWithAmount', {});
      for (const id of accounts) {
        add(`transactions ${id}`, 'TransactionListLast50_2', { AccountId: id });
        add(`transactions ${id}`, 'TransactionListLast50', { AccountId: id });
      }
      add('templates', 'DefineTransactionList', {});
      add('templates', 'DefineTransactionList2', {});
      add('car 7', 'CarFuelList', { CarId: 7 });
      add('car 9', 'CarFuelList', { CarId: 9 });
      add('categories', 'CategoryTree', {});
    }
    return reads;
  }

  function everyRead(): Read[] {
    const a = fx.accounts;
    return [
      ...readsOf(ANN, [a.bank, a.cash, a.euro, a.locked, a.inactive, a.hidden, a.bobRead, a.bobWrite]),
      ...readsOf(BOB, [a.bobRead, a.bobWrite, a.bobOwn]),
      ...readsOf(CAROL, [a.bank, a.bobWrite]),
    ];
  }

  interface Asked {
    read: Read;
    hit: boolean;
    answer: RawResponse;
  }

  /** Asks the cached service (one at a time, so that its counts tell whether this very request was a hit), then the oracle; the answers must be the same bytes. */
  async function askBoth(reads: Read[]): Promise<Asked[]> {
    const asked: Asked[] = [];
    for (const read of reads) {
      const before = cache.stats.hits;
      const answer = await send(cached.url, read.req);
      const hit = cache.stats.hits > before;
      const truth = await send(oracle.url, read.req);
      expect({ label: read.label, binding: read.binding, status: answer.status, body: answer.body }).toEqual({
        label: read.label,
        binding: read.binding,
        status: truth.status,
        body: truth.body,
      });
      asked.push({ read, hit, answer });
    }
    return asked;
  }

  const isCacheable = (read: Read) => !read.label.endsWith('categories');

  /** The labels (user and thing) asked anew after a write: everything else cacheable must have come from the cache. */
  function expectMissesExactly(asked: Asked[], affected: string[]): void {
    const missed = new Set(asked.filter((a) => isCacheable(a.read) && !a.hit).map((a) => a.read.label));
    expect([...missed].sort()).toEqual([...new Set(affected)].sort());
    // Every binding of an affected read was computed anew, not only the first one asked.
    for (const a of asked) {
      if (isCacheable(a.read)) {
        expect({ label: a.read.label, binding: a.read.binding, hit: a.hit }).toEqual({
          label: a.read.label,
          binding: a.read.binding,
          hit: !affected.includes(a.read.label),
        });
      }
    }
  }

  async function write<N extends OperationName>(
    binding: Binding,
    operation: N,
    who: Credentials,
    params: ParamsOf<N>,
  ): Promise<RawResponse> {
    const answer = await send(cached.url, request(binding, operation, who, params));
    expect(answer.status, answer.body).toBe(200);
    return answer;
  }

  const transfer = (from: number, to: number, amount = 12.5): ParamsOf<'AddTranferToOtherAccount'> => ({
    Amount: amount,
    Description: `Transfer ${from} -> ${to}`,
    Id_SourceAccount: from,
    Id_TargetAccount: to,
    Id_Category: 0,
    PaymentDate: '2026-11-20T10:00:00',
  });

  const accountFields = (name: string, ord: number) => ({
    Name: name,
    Description: '',
    Type: 1,
    IsActive: true,
    IsHidden: false,
    Locked: false,
    Ord: ord,
  });

  const refueling = (carId: number, id: number, liter: number): ParamsOf<'EditCarFuel'> => ({
    CarId: carId,
    Id_CarFuel: id,
    Liter: liter,
    Price: 1500,
    Tachometer: 130_000,
    DateOfPurchase: '2026-04-01T08:00:00',
    Currency: 203,
    Description: 'Test',
    Rate: 1,
  });

  describe('the cache of answers after each kind of write', () => {
    it('answers everything from the cache once asked, in every binding', async () => {
      await askBoth(everyRead());
      const again = await askBoth(everyRead());
      expectMissesExactly(again, []);
    });

    it("a transfer between a user's own accounts: that user's account lists and both transaction lists, and carol's, who holds one of them", async () => {
      const { bank, cash } = fx.accounts;
      await write('soap12', 'AddTranferToOtherAccount', ANN, transfer(bank, cash));
      expectMissesExactly(await askBoth(everyRead()), [
        'ann accounts',
        `ann transactions ${bank}`,
        `ann transactions ${cash}`,
        'carol accounts',
        `carol transactions ${bank}`,
      ]);
    });

    it("a transfer from a shared account: the account lists of everyone holding it, the owner's too", async () => {
      const { bobWrite, cash } = fx.accounts;
      await write('soap11', 'AddTranferToOtherAccount', ANN, transfer(bobWrite, cash, 3));
      expectMissesExactly(await askBoth(everyRead()), [
        'ann accounts',
        `ann transactions ${bobWrite}`,
        `ann transactions ${cash}`,
        'bob accounts',
        `bob transactions ${bobWrite}`,
        'carol accounts',
        `carol transactions ${bobWrite}`,
      ]);
    });

    it("the owner's transfer on a shared account reaches the lists of those it is shared with", async () => {
      const { bobWrite, bobOwn } = fx.accounts;
      await write('httpPost', 'AddTranferToOtherAccount', BOB, transfer(bobOwn, bobWrite, 7.25));
      expectMissesExactly(await askBoth(everyRead()), [
        'bob accounts',
        `bob transactions ${bobOwn}`,
        `bob transactions ${bobWrite}`,
        'ann accounts',
        `ann transactions ${bobWrite}`,
        'carol accounts',
        `carol transactions ${bobWrite}`,
      ]);
    });

    it("AddAccount: the user's account lists alone", async () => {
      await write('httpGet', 'AddAccount', ANN, { ...accountFields('Piggy bank', 9), Currency: 203 });
      expectMissesExactly(await askBoth(everyRead()), ['ann accounts']);
    });

    it('EditAccount of a shared account: the account lists of everyone holding it', async () => {
      await write('soap12', 'EditAccount', BOB, { Id_Account: fx.accounts.bobWrite, ...accountFields('Bob wallet, renamed', 2) });
      expectMissesExactly(await askBoth(everyRead()), ['bob accounts', 'ann accounts', 'carol accounts']);
    });

    it("EditAccount of an account held by one user: that user's account lists alone", async () => {
      await write('soap12', 'EditAccount', ANN, { Id_Account: fx.accounts.cash, ...accountFields('Wallet', 2) });
      expectMissesExactly(await askBoth(everyRead()), ['ann accounts']);
    });

    it("EditCarFuel adding a refueling: the lists of the user's cars alone", async () => {
      await write('soap11', 'EditCarFuel', ANN, refueling(7, 0, 40));
      expectMissesExactly(await askBoth(everyRead()), ['ann car 7', 'ann car 9']);
    });

    it('EditCarFuel moving a refueling to another car: the lists of both cars', async () => {
      await write('soap12', 'EditCarFuel', ANN, refueling(9, fx.refuelings.first, 41.5));
      expectMissesExactly(await askBoth(everyRead()), ['ann car 7', 'ann car 9']);
    });

    it('AddCategory and EditCategory: no cached answer (the category tree is never cached, and is fresh)', async () => {
      await write('soap12', 'AddCategory', ANN, { Name: 'Holidays', Id_ParentCategory: 0 });
      await write('httpPost', 'EditCategory', ANN, { Id_Category: fx.categories.car, Name: 'Cars' });
      const asked = await askBoth(everyRead());
      expectMissesExactly(asked, []);
      expect(asked.find((a) => a.read.label === 'ann categories')!.answer.body).toContain('Holidays');
    });

    it('a refused write changes nothing and every answer stays right', async () => {
      const refused = await send(
        cached.url,
        request('soap12', 'AddTranferToOtherAccount', ANN, transfer(fx.accounts.bobRead, fx.accounts.cash)),
      );
      expect(refused.body).toContain('read-only');
      await askBoth(everyRead());
    });

    it('a commit by another process (the admin sharing an account) drops every answer', async () => {
      await askBoth(everyRead());
      await cached.admin.shareAccount(fx.accounts.bobOwn, 'ann', 1);
      const asked = await askBoth(everyRead());
      expect(asked.filter((a) => a.hit)).toEqual([]);
      expect(asked.find((a) => a.read.label === 'ann accounts')!.answer.body).toContain('Bob private');
    });

    it('credentials are checked on every hit: a changed password, a disabled key and a locked login are refused', async () => {
      await askBoth(everyRead());
      const bobsList = request('soap12', 'AccountList2', BOB, {});
      expect((await send(cached.url, bobsList)).status).toBe(200);
      await cached.admin.setPassword('bob', 'bob-new-secret', { hashParams: TEST_HASH_PARAMS });
      expect((await send(cached.url, bobsList)).body).toContain('Invalid credentials');
      await cached.admin.setPassword('bob', BOB.password, { hashParams: TEST_HASH_PARAMS });
      expect((await send(cached.url, bobsList)).status).toBe(200);

      await cached.admin.setClientEnabled(CLIENT_KEY, false);
      expect((await send(cached.url, bobsList)).body).toContain('Invalid credentials');
      await cached.admin.setClientEnabled(CLIENT_KEY, true);
      expect((await send(cached.url, bobsList)).status).toBe(200);

      // carol's answer is cached; five wrong passwords lock her login, and the cached answer is refused too.
      const carolsList = request('soap12', 'AccountList2', CAROL, {});
      await send(cached.url, carolsList);
      const before = cache.stats.hits;
      expect((await send(cached.url, carolsList)).status).toBe(200);
      expect(cache.stats.hits).toBe(before + 1);
      for (let i = 0; i < 5; i++) await send(cached.url, request('soap12', 'AccountList2', { ...CAROL, password: `guess ${i}` }, {}));
      expect((await send(cached.url, carolsList)).body).toContain('Invalid credentials');
    });
  });

  describe('a request answered anew without being read and verified again (its answer dropped by a write)', () => {
    // gina, of her own: the lock at the end of this block plays no part elsewhere.
    const GINA: Credentials = { clientKey: CLIENT_KEY, login: 'gina', password: 'gina-secret' };
    let own = 0;
    let other = 0;
    beforeAll(async () => {
      await cached.admin.addUser(GINA.login, GINA.password, { hashParams: TEST_HASH_PARAMS });
      own = await cached.admin.addAccount('gina', { name: 'Gina current', currency: 203 });
      other = await cached.admin.addAccount('gina', { name: 'Gina savings', currency: 203 });
      await cached.admin.addTransaction('gina', {
        accountId: own,
        amount: 100,
        paymentDate: '2026-01-01T00:00:00',
        description: 'Opening',
      });
    });
    const list = () => request('soap12', 'TransactionListLast50_2', GINA, { AccountId: own });

    /** gina's list answered from the cache, then a transfer of hers that drops that answer: the request stays known. */
    async function knownOnly(): Promise<void> {
      expect((await send(cached.url, list())).status).toBe(200);
      const hits = cache.stats.hits;
      expect((await send(cached.url, list())).status).toBe(200);
      expect(cache.stats.hits).toBe(hits + 1);
      await write('soap12', 'AddTranferToOtherAccount', GINA, transfer(own, other, 1));
    }

    it('is answered anew as an uncached service answers it, without its credentials verified again', async () => {
      await knownOnly();
      const known = cache.stats.known;
      const answer = await send(cached.url, list());
      expect(answer.body).toBe((await send(oracle.url, list())).body);
      expect(answer.body).toContain(`Transfer ${own} -&gt; ${other}`);
      expect(cache.stats.known).toBe(known + 1);
    });

    it('is refused at the next request once the password has changed, and answered again with the new one', async () => {
      await knownOnly();
      await cached.admin.setPassword('gina', 'gina-new-secret', { hashParams: TEST_HASH_PARAMS });
      expect((await send(cached.url, list())).body).toContain('Invalid credentials');
      const renewed = request('soap12', 'TransactionListLast50_2', { ...GINA, password: 'gina-new-secret' }, { AccountId: own });
      expect((await send(cached.url, renewed)).status).toBe(200);
      await cached.admin.setPassword('gina', GINA.password, { hashParams: TEST_HASH_PARAMS });
      expect((await send(cached.url, list())).status).toBe(200);
    });

    it('is refused at the next request once its client key is disabled', async () => {
      await knownOnly();
      await cached.admin.setClientEnabled(CLIENT_KEY, false);
      try {
        expect((await send(cached.url, list())).body).toContain('Invalid credentials');
      } finally {
        await cached.admin.setClientEnabled(CLIENT_KEY, true);
      }
      expect((await send(cached.url, list())).status).toBe(200);
    });

    it('shows at the next request a transaction booked by another process', async () => {
      await knownOnly();
      await cached.admin.addTransaction('gina', {
        accountId: own,
        amount: 7.77,
        paymentDate: '2026-11-21T10:00:00',
        description: 'Booked by the admin',
      });
      expect((await send(cached.url, list())).body).toContain('Booked by the admin');
      expect((await send(cached.url, list())).body).toBe((await send(oracle.url, list())).body);
    });

    it('is refused at the next request once the login is locked (no commit: only the throttle knows)', async () => {
      await knownOnly();
      for (let i = 0; i < 5; i++) {
        const guess = await send(
          cached.url,
          request('soap12', 'TransactionListLast50_2', { ...GINA, password: `guess ${i}` }, { AccountId: own }),
        );
        expect(guess.body).toContain('Invalid credentials');
      }
      const known = cache.stats.known;
      expect((await send(cached.url, list())).body).toContain('Invalid credentials');
      expect(cache.stats.known).toBe(known + 1);
    });
  });

  describe('the cache of answers under interleaved reads and writes', () => {
    it('answers exactly what an uncached service answers after every batch of concurrent reads and writes of three users', async () => {
      const seed = testSeed('ANSWER_CACHE_SEED', 531770);
      const random = seededRandom(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
      // Fresh users, so that carol's lock above plays no part: dave, erin and finn, sharing with each other.
      const users: Credentials[] = ['dave', 'erin', 'finn'].map((login) => ({ clientKey: CLIENT_KEY, login, password: `${login}-secret` }));
      for (const u of users) await cached.admin.addUser(u.login, u.password, { hashParams: TEST_HASH_PARAMS });
      const held = new Map<string, number[]>(users.map((u) => [u.login, []]));
      // Everyone starts with two accounts; each user's first account is shared with the next user for writing, the second with the one after for reading.
      for (const u of users) {
        for (const n of [1, 2]) held.get(u.login)!.push(await cached.admin.addAccount(u.login, { name: `${u.login} ${n}`, currency: 203 }));
      }
      for (const [i, u] of users.entries()) {
        const next = users[(i + 1) % users.length]!;
        const after = users[(i + 2) % users.length]!;
        const [first, second] = held.get(u.login)!;
        await cached.admin.shareAccount(first!, next.login, 2);
        await cached.admin.shareAccount(second!, after.login, 1);
        held.get(next.login)!.push(first!);
        held.get(after.login)!.push(second!);
      }
      const readsNow = () =>
        users.flatMap((u) => {
          const reads = readsOf(u, held.get(u.login)!);
          return reads.filter((r) => !r.label.endsWith('categories'));
        });
      const writeOf = (u: Credentials): WireRequest => {
        const binding = pick(BINDINGS);
        const accounts = held.get(u.login)!;
        const x = random();
        if (x < 0.6) {
          const from = pick(accounts);
          const to = pick(accounts.filter((a) => a !== from));
          // Sometimes read-only for this user: refused, which must change nothing.
          return request(binding, 'AddTranferToOtherAccount', u, transfer(from, to, (100 + Math.floor(random() * 10_000)) / 100));
        }
        if (x < 0.75) {
          return request(binding, 'EditAccount', u, {
            Id_Account: pick(accounts),
            ...accountFields(`Renamed ${Math.floor(random() * 1000)}`, Math.floor(random() * 5)),
          });
        }
        if (x < 0.85) return request(binding, 'EditCarFuel', u, refueling(pick([7, 9]), 0, 10 + Math.floor(random() * 30)));
        return request(binding, 'AddAccount', u, { ...accountFields(`New ${Math.floor(random() * 1000)}`, 3), Currency: 203 });
      };

      let compared = 0;
      for (let batch = 0; batch < 40; batch++) {
        const reads = readsNow();
        const sent: Promise<RawResponse>[] = [];
        for (let k = 0; k < 8; k++) {
          const u = pick(users);
          sent.push(send(cached.url, random() < 0.4 ? writeOf(u) : pick(reads).req));
        }
        const answers = await Promise.all(sent);
        const unexpected = answers.filter((a) => a.status !== 200 && !a.body.includes('read-only'));
        expect(
          unexpected.map((a) => a.body),
          `seed ${seed}`,
        ).toEqual([]);
        // New accounts join the reads (the lists name them).
        for (const u of users) {
          const list = await send(oracle.url, request('soap12', 'AccountList2', u, {}));
          held.set(
            u.login,
            [...list.body.matchAll(/<Id>(\d+)<\/Id>/g)].map((m) => Number(m[1])),
          );
        }
        const sample = readsNow().filter(() => random() < 0.25);
        for (const read of sample) {
          const answer = await send(cached.url, read.req);
          const truth = await send(oracle.url, read.req);
          expect({ seed, batch, label: read.label, binding: read.binding, body: answer.body }).toEqual({
            seed,
            batch,
            label: read.label,
            binding: read.binding,
            body: truth.body,
          });
          compared += 1;
        }
      }
      expect(compared).toBeGreaterThan(500);
      // The cache was in play: over a quarter of the compared answers came from it (a write drops only what it touched).
      expect(cache.stats.hits).toBeGreaterThan(compared / 4);
    }, 120_000);
  });
});

describe('the cache of answers, by itself', () => {
  const answer = (body: string) => ({ status: 200, headers: {}, payload: Buffer.from(body) });

  it('drops exactly the answers that show what a write touched, and forgets the dependencies of what it no longer keeps', () => {
    const cache = new ResponseCache<string | null>({ ttlMs: 60_000, maxEntries: 3, maxBytes: 1e6 });
    cache.set('list of ann', 1, 'ann', answer('a'), ['u1', 'a10', 'a11'], null);
    cache.set('list of bob', 1, 'bob', answer('b'), ['u2', 'a11', 'a12'], 'bob request');
    cache.set('transactions 10', 1, 'ann', answer('t'), ['t10'], null);
    cache.invalidate(['a12', 't99']);
    expect(['list of ann', 'list of bob', 'transactions 10'].map((k) => cache.get(k, 1)?.answer !== undefined)).toEqual([
      true,
      false,
      true,
    ]);
    // The request stays, to be answered anew without being read and verified again.
    expect(cache.get('list of bob', 1)?.request).toBe('bob request');
    expect(cache.stats.invalidated).toBe(1);
    cache.invalidate(['a11']);
    expect(cache.get('list of ann', 1)?.answer).toBeUndefined();
    expect(cache.stats.invalidated).toBe(2);
    // The oldest goes when a fourth comes; invalidating what only it showed then drops nothing.
    cache.set('x', 1, 'ann', answer('x'), ['c1'], null);
    cache.set('y', 1, 'ann', answer('y'), ['c2'], null);
    cache.set('z', 1, 'ann', answer('z'), ['c3'], null);
    expect(cache.size).toBe(3);
    cache.invalidate(['t10']);
    expect(cache.stats.invalidated).toBe(2);
    // A new outside generation drops everything.
    expect(cache.get('z', 2)).toBeUndefined();
    expect(cache.size).toBe(0);
  });

  it('keeps every answer of a cold start, however many miss at first', () => {
    const cache = new ResponseCache({ ttlMs: 60_000, maxEntries: 10_000, maxBytes: 1e9 });
    for (let i = 0; i < 1000; i++) {
      expect(cache.get(`k${i}`, 1)).toBeUndefined();
      cache.set(`k${i}`, 1, 'ann', answer('x'), [`t${i}`], null);
    }
    expect(cache.size).toBe(1000);
    for (let i = 0; i < 1000; i++) expect(cache.get(`k${i}`, 1)).toBeDefined();
  });
});

describe.skipIf(!needPostgres(import.meta.url))('on PostgreSQL, two instances on one database', () => {
  let cache: ResponseCache<KnownRequest>;
  let cached: TestService;
  let other: TestService;
  let fx: Fixture;

  beforeAll(async () => {
    cache = new ResponseCache<KnownRequest>();
    cached = await startTestService({ backend: 'postgres', service: { responseCache: cache } });
    fx = await createFixture(cached.admin);
    // The other instance keeps no answer: it writes, and tells what the database holds.
    other = await startTestService({ backend: 'postgres', ...cached.where, service: { responseCache: false } });
  }, 60_000);
  afterAll(async () => {
    await other?.close();
    await cached?.close();
  });

  const list = (accountId: number) =>
    buildRequest('soap12', { operation: 'TransactionListLast50_2', credentials: ANN, params: { AccountId: accountId } }, cached.namespace);
  const accounts = (who: Credentials = ANN) =>
    buildRequest('soap12', { operation: 'AccountListWithAmount2', credentials: who, params: {} }, cached.namespace);

  /** The cached instance's answer, whether it was a hit, and the other instance's answer to the same request. */
  async function ask(req: WireRequest): Promise<{ hit: boolean; body: string; truth: string }> {
    const before = cache.stats.hits;
    const answer = await send(cached.url, req);
    expect(answer.status, answer.body).toBe(200);
    return { hit: cache.stats.hits > before, body: answer.body, truth: (await send(other.url, req)).body };
  }

  const transfer = (from: number, to: number, description: string) =>
    call(other, 'soap12', 'AddTranferToOtherAccount', ANN, {
      Amount: 1.25,
      Description: description,
      Id_SourceAccount: from,
      Id_TargetAccount: to,
      Id_Category: 0,
      PaymentDate: '2026-11-20T10:00:00',
    });

  it('keeps answers: asked again with nothing changed, answered from the cache', async () => {
    for (const req of [accounts(), list(fx.accounts.bank), accounts(BOB)]) {
      await ask(req);
      const again = await ask(req);
      expect(again.hit).toBe(true);
      expect(again.body).toBe(again.truth);
    }
  });

  it('shows at the next request a transfer answered by the other instance, heard of or not: the stamp is read from the database', async () => {
    const { bank, cash, euro } = fx.accounts;
    await ask(accounts());
    await ask(list(bank));
    await ask(list(euro));
    expect((await ask(list(euro))).hit).toBe(true);
    await transfer(bank, cash, 'Booked on the other instance');
    // Asked at once: whether or not the announcement has arrived, the stamps have changed with the commit.
    const after = await ask(list(bank));
    expect(after.hit).toBe(false);
    expect(after.body).toContain('Booked on the other instance');
    expect(after.body).toBe(after.truth);
    const balances = await ask(accounts());
    expect(balances.hit).toBe(false);
    expect(balances.body).toBe(balances.truth);
    // The list of an account the transfer did not touch is still the database's: still answered from the cache.
    expect((await ask(list(euro))).hit).toBe(true);
    // bob's account list shows none of ann's own accounts: still his.
    expect((await ask(accounts(BOB))).hit).toBe(true);
  });

  it('shows at the next request a transaction the admin booked, and an account the admin shared', async () => {
    const { bobOwn } = fx.accounts;
    await ask(accounts(BOB));
    expect((await ask(accounts(BOB))).hit).toBe(true);
    await cached.admin.addTransaction('bob', { accountId: bobOwn, amount: 3.33, paymentDate: '2026-11-21T10:00:00' });
    const booked = await ask(accounts(BOB));
    expect(booked.hit).toBe(false);
    expect(booked.body).toBe(booked.truth);
    await ask(accounts());
    expect((await ask(accounts())).hit).toBe(true);
    await cached.admin.shareAccount(bobOwn, 'ann', 1);
    const shared = await ask(accounts());
    expect(shared.hit).toBe(false);
    expect(shared.body).toBe(shared.truth);
    expect(cache.stats.outdated).toBeGreaterThan(0);
  });
});
