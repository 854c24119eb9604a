/**
 * Status that is true: the core records the outcome of every real exchange with the stored service (a
 * sync, a test of the stored connection, connecting), and the badge is derived from it. Test connection
 * makes an authenticated call and tells connected, credentials refused and unreachable apart. Plain Node,
 * the real service on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPassword, TEST_HASH_PARAMS } from '../../src-service';
import { connectionState, type AppStatus, type LastExchange } from '../../src-shared/app-api';
import { DEMO, openCore, tempDir } from '../support/client';
import { englishOf } from '../support/error-words';
import { seedTestUser, startTestService, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ demo: true });
});
afterAll(() => service.close());

const idle = { syncing: false, waiting: false };
const status = (exchange: LastExchange | null, configured = true): Pick<AppStatus, 'configured' | 'exchange'> => ({ configured, exchange });
const exchange = (over: Partial<LastExchange>): LastExchange => ({
  outcome: 'connected',
  at: '2026-11-24T10:00:00',
  via: 'sync',
  lastSuccessAt: '2026-11-24T10:00:00',
  error: null,
  ...over,
});

describe('the connection state, derived', () => {
  it('is the last exchange, unless a sync runs now or waits for the service', () => {
    expect(connectionState(status(null, false), idle).kind).toBe('not-connected');
    expect(connectionState(status(null), idle).kind).toBe('unchecked');
    const refused = exchange({
      outcome: 'credentials-refused',
      at: '2026-11-24T11:00:00',
      error: { code: 'credentialsRefused', params: {} },
    });
    expect(connectionState(status(refused), idle)).toEqual({
      kind: 'credentials-refused',
      at: '2026-11-24T11:00:00',
      lastSuccessAt: '2026-11-24T10:00:00',
      error: refused.error,
    });
    expect(connectionState(status(exchange({ outcome: 'unreachable' })), idle).kind).toBe('unreachable');
    // A sync running now says so; one whose last request failed says unreachable at once, whatever came before.
    expect(connectionState(status(refused), { syncing: true, waiting: false }).kind).toBe('syncing');
    expect(connectionState(status(exchange({})), { syncing: true, waiting: true })).toMatchObject({
      kind: 'unreachable',
      lastSuccessAt: '2026-11-24T10:00:00',
    });
    // Not configured: nothing recorded for an earlier connection shows.
    expect(connectionState(status(exchange({}), false), { syncing: true, waiting: true }).kind).toBe('not-connected');
  });
});

describe('exchanges recorded by the core', () => {
  it('test connection: authenticated; connected, credentials refused and unreachable told apart; only the stored connection as it is moves the badge', async () => {
    const dir = tempDir();
    const core = openCore(dir.file('local.sqlite'));
    try {
      // First run: the address alone reaches the service, but nothing says the credentials are right.
      const bare = await core.testConnection({ baseUrl: service.url });
      expect(bare).toMatchObject({ ok: false, state: 'not-checked', namespace: service.namespace, error: null });
      expect(bare.operations).toHaveLength(15);
      const wrong = await core.testConnection({ baseUrl: service.url, ...DEMO, password: 'not the password' });
      expect(wrong).toMatchObject({
        ok: false,
        state: 'credentials-refused',
        namespace: service.namespace,
        error: { code: 'credentialsRefused' },
      });
      expect(englishOf(wrong.error)).toMatch(/refused the client key, login or password/);
      expect(await core.testConnection({ baseUrl: service.url, ...DEMO, clientKey: 'no such key' })).toMatchObject({
        state: 'credentials-refused',
      });
      expect(await core.testConnection({ baseUrl: service.url, ...DEMO })).toMatchObject({ ok: true, state: 'connected', error: null });
      expect(await core.testConnection({ baseUrl: 'http://127.0.0.1:9', ...DEMO })).toMatchObject({ ok: false, state: 'unreachable' });
      // No connection stored: nothing to show in a badge.
      expect((await core.getStatus()).exchange).toBeNull();

      await core.connect({ baseUrl: service.url, ...DEMO });
      const connected = (await core.getStatus()).exchange!;
      expect(connected).toMatchObject({ outcome: 'connected', via: 'connect', error: null });
      expect(connected.lastSuccessAt).toBe(connected.at);

      // Typed credentials test what was typed, not the stored connection: the badge stays.
      expect(await core.testConnection({ baseUrl: service.url, ...DEMO, password: 'typo' })).toMatchObject({
        state: 'credentials-refused',
      });
      expect((await core.getStatus()).exchange).toEqual(connected);
      // The stored connection as it is, with its stored key and password: recorded.
      expect(await core.testConnection({ baseUrl: service.url })).toMatchObject({ ok: true, state: 'connected' });
      expect((await core.getStatus()).exchange).toMatchObject({ outcome: 'connected', via: 'test' });
      // Only the password typed: the stored key goes with it.
      expect(await core.testConnection({ baseUrl: service.url, password: 'demo' })).toMatchObject({ state: 'connected' });

      await service.stop();
      try {
        const down = await core.testConnection({ baseUrl: service.url });
        expect(down).toMatchObject({ ok: false, state: 'unreachable' });
        const status = await core.getStatus();
        expect(status.exchange).toMatchObject({ outcome: 'unreachable', via: 'test', lastSuccessAt: expect.any(String) });
        expect(status.offline).toBe(true);
        expect(connectionState(status, idle).kind).toBe('unreachable');
      } finally {
        await service.start();
      }
    } finally {
      await core.close();
      dir.remove();
    }
  });

  it('sync: every outcome recorded, the time of the last success kept through failures, never a stale "connected"', async () => {
    const dir = tempDir();
    const core = openCore(dir.file('local.sqlite'));
    // A login of its own, unlike any other test's on this service.
    const login = 'status-sync-outcomes';
    seedTestUser(service.dataFile, { clientKey: 'demo', login, password: 'first' });
    try {
      await core.connect({ baseUrl: service.url, clientKey: 'demo', login, password: 'first' });
      const synced = await core.sync();
      expect(synced.error).toBeNull();
      const ok = (await core.getStatus()).exchange!;
      expect(ok).toMatchObject({ outcome: 'connected', via: 'sync', at: synced.finishedAt, lastSuccessAt: synced.finishedAt });

      // The service stops: the next sync finds it unreachable; the last success stays the one before.
      await service.stop();
      let down;
      try {
        down = await core.sync();
      } finally {
        await service.start();
      }
      expect(down.errorCode).toBe('unavailable');
      expect((await core.getStatus()).exchange).toMatchObject({
        outcome: 'unreachable',
        via: 'sync',
        at: down.finishedAt,
        lastSuccessAt: synced.finishedAt,
      });

      // The password is changed on the service: credentials refused, not "connected" beside an error.
      setPassword(service.dataFile, login, 'second', { hashParams: TEST_HASH_PARAMS });
      const refused = await core.sync();
      expect(refused.errorCode).toBe('auth');
      const status = await core.getStatus();
      expect(status.exchange).toMatchObject({ outcome: 'credentials-refused', lastSuccessAt: synced.finishedAt });
      expect(status.offline).toBe(false);
      expect(connectionState(status, idle).kind).toBe('credentials-refused');

      // The new password, typed for one sync: it goes through, and is kept.
      const mended = await core.sync({ password: 'second' });
      expect(mended.error).toBeNull();
      expect((await core.getStatus()).exchange).toMatchObject({ outcome: 'connected', lastSuccessAt: mended.finishedAt });
      expect((await core.sync()).error).toBeNull();

      // A cancelled sync decides nothing about the service: the record stays as it was.
      const before = (await core.getStatus()).exchange;
      const running = core.sync();
      await core.cancelSync();
      const cancelled = await running;
      expect(cancelled.errorCode).toBe('cancelled');
      expect((await core.getStatus()).exchange).toEqual(before);
    } finally {
      await core.close();
      dir.remove();
    }
  });

  it('a sync with refused credentials costs the service one failed login, so that a locking service still takes the right password', async () => {
    // A service that locks a login at its third failed login.
    const strict = await startTestService({
      demo: true,
      service: { auth: { throttle: { slowAfter: 100, lockAfter: 3, lockMs: 60_000 } } },
    });
    const dir = tempDir();
    const core = openCore(dir.file('local.sqlite'));
    try {
      await core.connect({ baseUrl: strict.url, ...DEMO });
      await core.saveCar({ carId: 1, name: 'Car' });
      await core.saveCar({ carId: 2, name: 'Other car' });
      expect((await core.sync()).error).toBeNull();
      setPassword(strict.dataFile, DEMO.login, 'changed elsewhere', { hashParams: TEST_HASH_PARAMS });
      expect((await core.sync()).errorCode).toBe('auth');
      // With writes waiting, the push meets the refusal first: one write asked, not as many as may be in flight.
      const accounts = (await core.listAccounts({})).accounts.filter((a) => a.writable && a.currency === 203);
      for (let i = 0; i < 6; i++) {
        await core.transfer({
          sourceId: accounts[0]!.id,
          targetId: accounts[1]!.id,
          amount: '1',
          paymentDate: '2026-11-24T09:00',
          categoryId: 0,
          description: `waiting ${i}`,
        });
      }
      expect((await core.sync()).errorCode).toBe('auth');
      // Two refused syncs, two failed logins: the right password still goes through, and so do the writes.
      expect(await core.sync({ password: 'changed elsewhere' })).toMatchObject({ error: null, pushed: 6 });
    } finally {
      await core.close();
      dir.remove();
      await strict.close();
    }
  });

  it('a sync reports what it received: everything at first, nothing when nothing changed, then exactly what is new', async () => {
    const dir = tempDir();
    const core = openCore(dir.file('local.sqlite'));
    try {
      await core.connect({ baseUrl: service.url, ...DEMO });
      const first = await core.sync();
      expect(first.received).toEqual(first.pulled);
      expect(first.received!.transactions).toBeGreaterThan(0);
      const again = await core.sync();
      expect(again.received).toEqual({ accounts: 0, transactions: 0, templates: 0, categories: 0, refuelings: 0 });
      expect(again.pulled).toEqual(first.pulled);

      // A transfer made here is sent; the pull then brings nothing new of it (it is already in the copy).
      const accounts = (await core.listAccounts({})).accounts.filter((a) => a.writable && a.currency === 203);
      await core.transfer({
        sourceId: accounts[0]!.id,
        targetId: accounts[1]!.id,
        amount: '1',
        paymentDate: '2026-11-24T09:00',
        categoryId: 0,
        description: 'sent from here',
      });
      const sent = await core.sync();
      expect(sent).toMatchObject({ pushed: 1, received: { accounts: 0, transactions: 0 } });
    } finally {
      await core.close();
      dir.remove();
    }
  });
});
