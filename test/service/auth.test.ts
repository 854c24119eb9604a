/** Password hashes, the verification cache, login throttling, and how they behave in a running service. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { TEST_HASH_PARAMS, addClient, addUser } from '../../src-service';
import { Authenticator } from '../../src-service/auth/authenticator';
import { LoginQueues, LoginThrottle } from '../../src-service/auth/login-throttle';
import { hashPassword, unmatchableHash, verifyPassword } from '../../src-service/auth/password';
import { VerificationCache } from '../../src-service/auth/verification-cache';
import { SqliteServiceStore } from '../../src-service/store/sqlite/serving';
import type { ApiAccount2 } from '../../src-shared/catalog';
import { BINDINGS, ServiceFault } from '../../src-shared/wire';
import { describeBackends, takesEffect } from '../support/backends';
import { call, callRaw } from '../support/http';
import { settles, until } from '../support/until';
import { ANN, BOB, startFixtureService } from './fixture';

describe('password hashes', () => {
  it('are salted scrypt with their cost in them, and verify only the right password', async () => {
    const a = hashPassword('heslo', TEST_HASH_PARAMS);
    const b = hashPassword('heslo', TEST_HASH_PARAMS);
    expect(a).toMatch(/^scrypt\$1024\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(a).not.toBe(b);
    expect(await verifyPassword('heslo', a)).toBe(true);
    expect(await verifyPassword('Heslo', a)).toBe(false);
    expect(await verifyPassword('', a)).toBe(false);
  });

  it('default to a slow cost; a damaged or hostile stored hash never matches', async () => {
    expect(hashPassword('x').split('$').slice(1, 4)).toEqual(['32768', '8', '3']);
    for (const stored of [
      '',
      'plain',
      'scrypt$1024$8$1$AAAA$AAAA',
      'scrypt$1048577$8$1$AAAAAAAAAAAAAAAAAAAAAA==$' + 'A'.repeat(43) + '=',
      unmatchableHash(TEST_HASH_PARAMS),
    ]) {
      expect(await verifyPassword('x', stored)).toBe(false);
    }
  });

  it('treat composed and decomposed accents alike', async () => {
    const stored = hashPassword('Příliš', TEST_HASH_PARAMS);
    expect(await verifyPassword('Příliš'.normalize('NFD'), stored)).toBe(true);
  });
});

describe('the verification cache', () => {
  it('keeps an entry for its time and never for another stored hash or password', () => {
    let now = 0;
    const cache = new VerificationCache({ ttlMs: 1000, maxEntries: 2 }, () => now);
    // Long enough that a random base64 key cannot hold it by chance ('pw' did, about once in 100 runs).
    const pw = 'correct horse battery staple';
    const key = cache.key(1, 'hash-a', pw);
    expect(key).not.toContain(pw);
    cache.add(key);
    expect(cache.has(key)).toBe(true);
    expect(cache.has(cache.key(1, 'hash-b', pw))).toBe(false);
    expect(cache.has(cache.key(1, 'hash-a', `${pw}2`))).toBe(false);
    expect(cache.has(cache.key(2, 'hash-a', pw))).toBe(false);
    now = 1000;
    expect(cache.has(key)).toBe(false);
    cache.add(cache.key(1, 'h', '1'));
    cache.add(cache.key(1, 'h', '2'));
    cache.add(cache.key(1, 'h', '3'));
    expect(cache.has(cache.key(1, 'h', '1'))).toBe(false);
    expect(cache.has(cache.key(1, 'h', '3'))).toBe(true);
  });
});

describe('a verification in use', () => {
  it('is renewed in the background before it runs out, so a client calling all along never waits for scrypt again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-auth-'));
    const file = join(dir, 'auth.sqlite');
    addClient(file, 'key');
    for (const login of ['busy', 'idle']) addUser(file, login, `${login}-secret`, { hashParams: TEST_HASH_PARAMS });
    const store = SqliteServiceStore.open(file);
    let now = 1_000_000;
    // Every verification on a request's path waits first (slowAfter 0): the waits count them.
    const waits: string[] = [];
    const auth = new Authenticator(store, {
      now: () => now,
      throttle: { slowAfter: 0, baseDelayMs: 1 },
      cache: { ttlMs: 60_000 },
      sleep: async () => void waits.push('verified on the request path'),
      hashParams: TEST_HASH_PARAMS,
    });
    const as = (login: string) => auth.authenticate({ clientKey: 'key', login, password: `${login}-secret` }, '127.0.0.1');
    try {
      await Promise.all([as('busy'), as('idle')]);
      expect(waits).toHaveLength(2);
      now += 50_000;
      await as('busy');
      expect(waits).toHaveLength(2);
      // The renewal runs on libuv's pool: once it has ended...
      await settles('the renewal of the busy login', auth.renewalsDone());
      now += 20_000;
      await as('busy');
      expect(waits, 'the busy login was renewed in time').toHaveLength(2);
      await as('idle');
      expect(waits, 'the idle login ran out and is verified again').toHaveLength(3);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the login throttle', () => {
  it('slows down after a few failures, doubling, then refuses for a while; failures are forgotten only after the window', () => {
    let now = 0;
    const locks: string[] = [];
    const t = new LoginThrottle(
      { slowAfter: 2, baseDelayMs: 100, maxDelayMs: 350, lockAfter: 5, lockMs: 1000, windowMs: 5000 },
      () => now,
      (l) => locks.push(l),
    );
    const delays: number[] = [];
    for (let i = 0; i < 5; i++) {
      delays.push(t.delayFor('ann'));
      t.recordFailure('ann');
    }
    expect(delays).toEqual([0, 0, 100, 200, 350]);
    expect(t.isLocked('ann')).toBe(true);
    expect(locks).toEqual(['ann']);
    expect(t.isLocked('bob')).toBe(false);
    now = 999;
    expect(t.isLocked('ann')).toBe(true);
    now = 1000;
    expect(t.isLocked('ann')).toBe(false);
    // The lock is over but the failures still count: the next one locks again at once.
    expect(t.delayFor('ann')).toBe(350);
    t.recordFailure('ann');
    expect(t.isLocked('ann')).toBe(true);
    now += 5001;
    expect(t.isLocked('ann')).toBe(false);
    expect(t.delayFor('ann')).toBe(0);
  });

  it('tracks a bounded number of logins', () => {
    const t = new LoginThrottle({ slowAfter: 1, maxTracked: 3 });
    for (const l of ['a', 'b', 'c', 'd']) t.recordFailure(l);
    expect(t.delayFor('a')).toBe(0);
    expect(t.delayFor('d')).toBeGreaterThan(0);
  });

  it('keeps a lock however many other logins fail: flooding the throttle with 10,000 others evicts counts, never a lock', () => {
    let now = 0;
    const t = new LoginThrottle({ lockAfter: 3, lockMs: 60_000 }, () => now);
    for (let i = 0; i < 3; i++) t.recordFailure('victim');
    expect(t.isLocked('victim')).toBe(true);
    for (let i = 0; i < 10_001; i++) t.recordFailure(`flood${i}`);
    expect(t.delayFor('flood0')).toBe(0);
    expect(t.isLocked('victim')).toBe(true);
    expect(t.lockedCount).toBe(1);
    now = 60_000;
    expect(t.isLocked('victim')).toBe(false);
    expect(t.lockedCount).toBe(0);
  });

  it('runs the verifications of one login one at a time, and refuses a queue that is too long', async () => {
    const t = new LoginQueues(2);
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = t.serialize('ann', async () => {
      order.push('first start');
      await gate;
      order.push('first end');
      return 1;
    });
    const second = t.serialize('ann', async () => {
      order.push('second');
      return 2;
    });
    expect(await t.serialize('ann', async () => 3)).toBeUndefined();
    const other = await t.serialize('bob', async () => 'bob');
    expect(other).toEqual({ value: 'bob' });
    release();
    expect(await first).toEqual({ value: 1 });
    expect(await second).toEqual({ value: 2 });
    expect(order).toEqual(['first start', 'first end', 'second']);
  });
});

describeBackends(import.meta.url, (backend) => {
  describe('in a running service', () => {
    it('calls of one login beyond its queue are told to try again (503, Retry-After), never that the credentials are wrong', async () => {
      // Each verification holds the queue for a while (a delay from the first one on); one may wait its turn.
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const auth = { throttle: { slowAfter: 0, baseDelayMs: 1, lockAfter: 100, maxQueued: 2 }, sleep: () => held };
      const { service } = await startFixtureService({ backend, service: { auth } });
      const answered: Awaited<ReturnType<typeof callRaw>>[] = [];
      const calls = Array.from({ length: 4 }, () => callRaw(service, 'soap12', 'AccountList2', ANN, {}).then((r) => (answered.push(r), r)));
      try {
        // The two beyond the queue (whichever arrive last) are answered (after the second a crowd's answer is
        // held back), while the first is still held.
        await until('the two calls beyond the queue to be answered', () => answered.length === 2);
        for (const r of answered) {
          expect(r.status).toBe(503);
          expect(r.headers.get('retry-after')).toBe('1');
          expect(r.body).toContain('busy');
          expect(r.body).not.toContain('Invalid credentials');
        }
        release();
        expect((await Promise.all(calls)).map((r) => r.status).sort()).toEqual([200, 200, 503, 503]);
        expect(await call(service, 'soap12', 'AccountList2', ANN, {})).toHaveLength(8);
      } finally {
        // Whatever failed, the held calls are let through and answered before the service closes.
        release();
        await Promise.allSettled(calls);
        await service.close();
      }
    });

    it('locks a login after repeated failures, even for the right password, with the same fault; then lets it in again', async () => {
      let now = Date.parse('2026-01-01T00:00:00Z');
      const waited: number[] = [];
      const auth = {
        throttle: { slowAfter: 2, baseDelayMs: 100, lockAfter: 4, lockMs: 60_000 },
        now: () => now,
        sleep: async (ms: number) => void waited.push(ms),
      };
      const { service } = await startFixtureService({ backend, service: { auth } });
      try {
        const wrong = { ...ANN, password: 'guess' };
        for (let i = 0; i < 4; i++) await expect(call(service, 'soap12', 'AccountList2', wrong, {})).rejects.toThrow('Invalid credentials');
        expect(waited).toEqual([100, 200]);
        // Locked: refused as wrong credentials are, marked as they are (SOAP 1.1 has no room for the mark).
        for (const binding of BINDINGS) {
          const locked = {
            name: 'ServiceFault',
            message: 'Invalid credentials',
            subcode: binding === 'soap11' ? null : 'InvalidCredentials',
          };
          await expect(call(service, binding, 'AccountList2', ANN, {}), binding).rejects.toMatchObject(locked);
        }
        // Another login is not affected.
        expect(await call(service, 'soap12', 'AccountList2', BOB, {})).toHaveLength(3);
        now += 60_001;
        // The lock is over; the failures still count (this verification waits), and the right password passes.
        expect(await call(service, 'soap12', 'AccountList2', ANN, {})).toHaveLength(8);
        expect(waited).toEqual([100, 200, 400]);
        // A success does not clear them: one more guess locks the login again.
        await expect(call(service, 'soap12', 'AccountList2', wrong, {})).rejects.toThrow('Invalid credentials');
        expect(waited).toEqual([100, 200, 400, 400]);
        await expect(call(service, 'soap12', 'AccountList2', ANN, {})).rejects.toThrow(/^Invalid credentials$/);
      } finally {
        await service.close();
      }
    });

    it('a lock holds while other logins flood the throttle past what it tracks', async () => {
      // All 40 may wait their turn of verification (by default 16 of one address do, and the rest are told to try again).
      const auth = { throttle: { slowAfter: 100, lockAfter: 3, lockMs: 60_000, maxTracked: 20 }, verifications: { queuedPerAddress: 40 } };
      const { service } = await startFixtureService({ backend, service: { auth } });
      try {
        for (let i = 0; i < 3; i++) {
          await expect(call(service, 'soap12', 'AccountList2', { ...ANN, password: 'guess' }, {})).rejects.toThrow('Invalid credentials');
        }
        await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            expect(call(service, 'httpPost', 'AccountList2', { ...ANN, login: `flood${i}`, password: 'x' }, {})).rejects.toThrow(
              'Invalid credentials',
            ),
          ),
        );
        await expect(call(service, 'soap12', 'AccountList2', ANN, {})).rejects.toThrow(/^Invalid credentials$/);
        expect(await call(service, 'soap12', 'AccountList2', BOB, {})).toHaveLength(3);
      } finally {
        await service.close();
      }
    });

    it('parallel guesses cannot slip past the count; parallel right calls cost one verification and all pass', async () => {
      const { service } = await startFixtureService({ backend, service: { auth: { throttle: { slowAfter: 100, lockAfter: 5 } } } });
      try {
        const ok = await Promise.all(Array.from({ length: 12 }, () => call(service, 'soap12', 'AccountList2', BOB, {})));
        expect(ok.every((r) => r.length === 3)).toBe(true);
        const guesses = await Promise.allSettled(
          Array.from({ length: 12 }, (_, i) => call(service, 'soap12', 'AccountList2', { ...ANN, password: `guess${i}` }, {})),
        );
        expect(guesses.every((g) => g.status === 'rejected')).toBe(true);
        await expect(call(service, 'soap12', 'AccountList2', ANN, {})).rejects.toThrow('Invalid credentials');
      } finally {
        await service.close();
      }
    });

    it('a locked login is refused even the answer it got a moment ago (from the cache of answers)', async () => {
      const { service } = await startFixtureService({ backend, service: { auth: { throttle: { slowAfter: 100, lockAfter: 2 } } } });
      try {
        for (let i = 0; i < 2; i++) expect(await call(service, 'httpGet', 'AccountList2', ANN, {})).toHaveLength(8);
        for (let i = 0; i < 2; i++) {
          await expect(call(service, 'httpGet', 'AccountList2', { ...ANN, password: 'guess' }, {})).rejects.toThrow('Invalid credentials');
        }
        await expect(call(service, 'httpGet', 'AccountList2', ANN, {})).rejects.toThrow(/^Invalid credentials$/);
      } finally {
        await service.close();
      }
    });

    it('a login or client key longer than any stored one is refused before the throttle counts or keeps it', async () => {
      const locked: string[] = [];
      const auth = { throttle: { lockAfter: 1 }, onLock: (login: string) => void locked.push(login) };
      const { service } = await startFixtureService({ backend, service: { auth } });
      try {
        for (const credentials of [
          { ...ANN, login: 'a'.repeat(101) },
          { ...ANN, password: 'guess', clientKey: 'k'.repeat(201) },
        ]) {
          await expect(call(service, 'soap12', 'AccountList2', credentials, {})).rejects.toThrow(/^Invalid credentials$/);
        }
        expect(locked).toEqual([]);
        // The same guess with a key of possible length counts (and here locks at once).
        await expect(call(service, 'soap12', 'AccountList2', { ...ANN, password: 'guess', clientKey: 'k' }, {})).rejects.toThrow(
          /^Invalid credentials$/,
        );
        expect(locked).toEqual(['ann']);
      } finally {
        await service.close();
      }
    });

    it('a password changed by the admin tools takes effect at once, cached verification or not: the old one gets exactly the credentials fault, the new one exactly the data', async () => {
      // The clock fixed a month after the shopping in Groceries, so that the favourites are known.
      const { service, fixture: f } = await startFixtureService({ backend, service: { now: () => Date.parse('2026-03-01T12:00:00Z') } });
      const account = (Id: number, Name: string, Ord: number, Amount: number, more: Partial<ApiAccount2> = {}): ApiAccount2 => ({
        Id,
        Name,
        Type: 2,
        Currency: 203,
        IsActive: true,
        Locked: false,
        Description: '',
        Ord,
        UserAccountPermission: 3,
        Amount,
        IsHidden: false,
        ...more,
      });
      // ann's own accounts and the two bob shares with her, by Ord then Id; balances are the fixture's sums.
      const accounts = [
        account(f.accounts.bank, 'Bank', 1, 800.25, { Description: 'Main <account> & "savings"' }),
        account(f.accounts.bobRead, 'Bob household', 1, 99, { UserAccountPermission: 1 }),
        account(f.accounts.cash, 'Cash', 2, 0, { Type: 1 }),
        account(f.accounts.bobWrite, 'Bob shared wallet', 2, 50, { UserAccountPermission: 2 }),
        account(f.accounts.euro, 'Euro', 3, 10.01, { Currency: 978 }),
        account(f.accounts.locked, 'Locked', 4, 5, { Locked: true }),
        account(f.accounts.inactive, 'Inactive', 5, 5, { IsActive: false }),
        account(f.accounts.hidden, 'Hidden', 6, 0, { IsHidden: true }),
      ];
      const tree = {
        FavoritCategories: [{ Id: f.categories.groceries, Name: 'Groceries', ChildCategories: null }],
        AllCategories: [
          {
            Id: f.categories.food,
            Name: 'Food',
            ChildCategories: [{ Id: f.categories.groceries, Name: 'Groceries', ChildCategories: null }],
          },
          { Id: f.categories.car, Name: 'Car', ChildCategories: null },
        ],
      };
      const NEW = { ...ANN, password: 'new-secret' };
      /** The fault a call gets, as the client reads it, and the raw answer it came in. */
      const refusal = async (binding: 'soap12' | 'httpGet', operation: 'AccountList2' | 'CategoryTree', credentials: typeof ANN) => {
        const fault = await call(service, binding, operation, credentials, {}).then(
          () => null,
          (e: unknown) => e,
        );
        expect(fault).toBeInstanceOf(ServiceFault);
        const raw = await callRaw(service, binding, operation, credentials, {});
        return {
          fault: { ...(fault as ServiceFault), message: (fault as ServiceFault).message },
          status: raw.status,
          contentType: raw.contentType,
        };
      };
      try {
        // Verified once each, so that the next calls meet a cached verification.
        expect(await call(service, 'soap12', 'AccountList2', ANN, {})).toEqual(accounts);
        expect(await call(service, 'httpGet', 'CategoryTree', ANN, {})).toEqual(tree);
        await service.admin.setPassword('ann', 'new-secret', { hashParams: TEST_HASH_PARAMS });
        // On PostgreSQL the instance learns of it from its notification, within a second.
        await takesEffect(backend, () => expect(call(service, 'soap12', 'AccountList2', ANN, {})).rejects.toThrow('Invalid credentials'));
        // SOAP 1.2: a Sender fault, "Invalid credentials" and nothing more; HTTP GET: the same words as plain text.
        expect(await refusal('soap12', 'AccountList2', ANN)).toEqual({
          fault: {
            name: 'ServiceFault',
            faultCode: 'Client',
            message: 'Invalid credentials',
            httpStatus: 500,
            subcode: 'InvalidCredentials',
          },
          status: 500,
          contentType: 'application/soap+xml; charset=utf-8',
        });
        expect(await refusal('httpGet', 'CategoryTree', ANN)).toEqual({
          fault: {
            name: 'ServiceFault',
            faultCode: 'Server',
            message: 'Invalid credentials',
            httpStatus: 500,
            subcode: 'InvalidCredentials',
          },
          status: 500,
          contentType: 'text/plain; charset=utf-8',
        });
        expect(await call(service, 'soap12', 'AccountList2', NEW, {})).toEqual(accounts);
        expect(await call(service, 'httpGet', 'CategoryTree', NEW, {})).toEqual(tree);
      } finally {
        await service.close();
      }
    });

    it('logins are matched without regard to case', async () => {
      const { service } = await startFixtureService({ backend });
      try {
        expect(await call(service, 'soap12', 'AccountList2', { ...ANN, login: 'ANN' }, {})).toHaveLength(8);
      } finally {
        await service.close();
      }
    });
  });
});
