/**
 * The listener's heartbeat on PostgreSQL: an instance whose listening connection breaks silently (its
 * packets dropped, no error, no close) notices, says so in its log, trusts nothing it keeps meanwhile and
 * listens again; while it hears, its own pings change nothing it keeps. (How soon it notices:
 * `npm run bench -- notice`.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_HASH_PARAMS, openAdmin, silentLogger, startService, type AdminSession, type RunningService } from '../../src-service';
import { PostgresServiceStore } from '../../src-service/store/postgres/serving';
import type { Credentials } from '../../src-shared/catalog';
import { freshDatabase, needPostgres, takesEffect } from '../support/backends';
import { ChannelWatch } from '../support/channel-watch';
import { call } from '../support/http';
import { listenerConnections } from '../support/service';
import { startSilencingProxy, type SilencingProxy } from '../support/silencing-proxy';
import { until, untilPasses } from '../support/until';

const KEY = 'heartbeat-key';
const ANN: Credentials = { clientKey: KEY, login: 'ann', password: 'ann-secret' };
const found = needPostgres(import.meta.url);
const LOST = 'Lost the connection that listens for changes';

describe.skipIf(!found)('the listener of an instance on PostgreSQL', () => {
  let url: string;
  let admin: AdminSession;
  let proxy: SilencingProxy;
  let service: RunningService;
  const trouble: string[] = [];

  beforeAll(async () => {
    url = await freshDatabase();
    admin = await openAdmin({ kind: 'postgres', url });
    await admin.addClient(KEY);
    await admin.addUser(ANN.login, ANN.password, { hashParams: TEST_HASH_PARAMS });
    await admin.addAccount('ann', { name: 'A', currency: 203 });
    proxy = await startSilencingProxy(url);
    service = await startService({
      databaseUrl: proxy.url,
      port: 0,
      logger: { ...silentLogger, error: (message: string) => void trouble.push(message) },
      timeZone: 'Europe/Prague',
      auth: { hashParams: TEST_HASH_PARAMS },
    });
  });
  afterAll(async () => {
    await service?.close();
    await proxy?.close();
    await admin?.close();
  });

  it('hears its own pings without dropping anything it keeps', async () => {
    const watch = await ChannelWatch.open(url);
    const store = await PostgresServiceStore.open(url);
    try {
      const before = [store.generation(), store.outsideGeneration()];
      // Four pings of the store committed and delivered (one a second): a listener deaf to them would have been
      // dropped as lost before it sent the fourth (its first ping unheard 2 s after its commit), and would have
      // listened again, its kept things dropped.
      await until('four pings of the new store', () => watch.pingsOfNewInstance() >= 4);
      expect(store.listening).toBe(true);
      expect([store.generation(), store.outsideGeneration()]).toEqual(before);
    } finally {
      await store.close();
      await watch.close();
    }
  });

  it('notices a connection broken without a word, refuses a key disabled meanwhile, and listens again', async () => {
    // (CategoryTree: never answered from the kept answers, so every call meets the credential check.)
    const categories = () => call(service, 'soap12', 'CategoryTree', ANN, {});
    for (let i = 0; i < 3; i++) expect((await categories()).AllCategories).toEqual([]);
    expect(proxy.silence('bookkeeping-listener')).toBe(1);
    await admin.setClientEnabled(KEY, false);
    // The announcement never reaches it: it is refused once the heartbeat has told it its ear is gone.
    await takesEffect('postgres', () => expect(categories()).rejects.toThrow(/^Invalid credentials$/), 'the disabled key to be refused');
    const lost = trouble.filter((m) => m.startsWith(LOST));
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatch(/its heartbeat, committed \d+\.\d s ago, has not arrived/);
    // It listens again through the same proxy (the silenced connection it dropped is gone), and keeps
    // listening: its new connection's pings come back.
    await admin.setClientEnabled(KEY, true);
    await takesEffect('postgres', async () => expect((await categories()).AllCategories).toEqual([]), 'the key to be accepted again');
    await untilPasses('the instance to listen again', async () => expect(await listenerConnections(url)).toBe(1));
    // Four of its pings committed since: had its new connection not heard them, it would have said so before
    // it sent the fourth (its first ping unheard 2 s after its commit).
    const watch = await ChannelWatch.open(url);
    try {
      await until('four pings of the instance', () => Math.max(0, ...watch.pingsSince(0).values()) >= 4);
    } finally {
      await watch.close();
    }
    expect(trouble.filter((m) => m.startsWith(LOST))).toHaveLength(1);
    for (let i = 0; i < 2; i++) expect((await categories()).AllCategories).toEqual([]);
    await admin.setClientEnabled(KEY, false);
    await takesEffect(
      'postgres',
      () => expect(categories()).rejects.toThrow(/^Invalid credentials$/),
      'the key disabled again to be refused',
    );
  }, 60_000);

  it('refuses a password changed while its listener is silently broken', async () => {
    await admin.setClientEnabled(KEY, true);
    const categories = () => call(service, 'soap12', 'CategoryTree', ANN, {});
    await takesEffect('postgres', async () => expect((await categories()).AllCategories).toEqual([]), 'the key to be accepted again');
    // Listening, and the password verified and kept.
    await untilPasses('the instance to listen', async () => expect(await listenerConnections(url)).toBe(1));
    for (let i = 0; i < 2; i++) expect((await categories()).AllCategories).toEqual([]);
    const lostBefore = trouble.filter((m) => m.startsWith(LOST)).length;
    expect(proxy.silence('bookkeeping-listener')).toBe(1);
    await admin.setPassword(ANN.login, 'new-secret', { hashParams: TEST_HASH_PARAMS });
    await takesEffect('postgres', () => expect(categories()).rejects.toThrow(/^Invalid credentials$/), 'the old password to be refused');
    expect(trouble.filter((m) => m.startsWith(LOST))).toHaveLength(lostBefore + 1);
    expect((await call(service, 'soap12', 'CategoryTree', { ...ANN, password: 'new-secret' }, {})).AllCategories).toEqual([]);
  }, 30_000);
});
