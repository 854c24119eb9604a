/**
 * Sync over the answers of real networks, in every binding the client can use: each fault a proxy,
 * a load balancer or a broken server gives (408, 429 with and without Retry-After, 502, 503, 504, an
 * HTML page, an empty body, a reset mid-body, truncated XML, a slow drip, bad gzip, and the older
 * drops, 500 pages, garbage, slow and cut-short answers) hits a read and a write once. The read is
 * tried again; the write is delivered exactly once and is never marked refused. A 503 storm while the
 * service restarts is waited out within the budget; past it the sync says the service is unavailable
 * and the write waits, never refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransportFactory } from '../../src-main/core/soap-client';
import { fetchTransportFactory } from '../../src-main/core/soap-client/transports/fetch';
import type { AppEvent } from '../../src-shared/app-api';
import type { Binding } from '../../src-shared/wire';
import { GIVE_UP_MS, newUser, TEST_SYNC_TUNING, type UserSession } from '../support/client';
import { englishOf } from '../support/error-words';
import { NETWORK_FAULT_MODES, startFaultProxy, type FaultMode, type FaultProxy } from '../support/fault-proxy';
import { startTestService, type TestService } from '../support/service';
import { settles } from '../support/until';

/**
 * Every binding through the Node transport (undici: the command line, the browser shell), and SOAP 1.2
 * through the fetch transport the desktop app uses over Electron's network stack (Node's fetch stands in).
 */
const TRANSPORTS = { undici: undefined, fetch: fetchTransportFactory({ fetch: (url, init) => fetch(url, init) }) } satisfies Record<
  string,
  TransportFactory | undefined
>;
const CARRIAGES: { binding: Binding; transport: keyof typeof TRANSPORTS }[] = [
  ...(['soap12', 'soap11', 'httpGet', 'httpPost'] as const).map((binding) => ({ binding, transport: 'undici' as const })),
  { binding: 'soap12', transport: 'fetch' },
];
/** Modes that answer without asking the service: the write never arrived and is sent again, once. */
const NOT_FORWARDED = new Set<FaultMode>([
  'drop-before',
  'error-500',
  'garbage',
  'status-408',
  'status-429',
  'status-429-retry-after',
  'status-502',
  'status-503',
  'status-503-retry-after',
  'status-504',
  'html-page',
  'empty-body',
  'bad-gzip',
]);

let service: TestService;
let proxy: FaultProxy;
beforeAll(async () => {
  service = await startTestService();
  proxy = await startFaultProxy({ target: service.url, dripMs: 40, retryAfterSeconds: 1 });
});
afterAll(async () => {
  await proxy.close();
  await service.close();
});

const sends = (operation: string) => proxy.log.filter((l) => l.operation === operation).length;

/** Faults the first request of each of these operations with `mode`, passes everything else. */
function faultFirstOf(mode: FaultMode, ...operations: string[]): void {
  const left = new Set(operations);
  proxy.choose((req) => (left.delete(req.operation) ? mode : 'pass'));
}

interface Setup {
  s: UserSession;
  a: number;
  b: number;
}

/**
 * A user connected through the proxy in `binding`, with two accounts synced; its core then gives up on a
 * held answer ('slow', 'slow-drip') after a second.
 */
async function userOver(binding: Binding, tuning = TEST_SYNC_TUNING, transport?: TransportFactory): Promise<Setup> {
  proxy.choose(() => 'pass');
  const s = await newUser(service, {
    baseUrl: proxy.url,
    sync: { ...tuning, unavailableMs: 5000 },
    ...(transport ? { transport } : {}),
  });
  await s.core.setPreferences({ binding });
  for (const name of ['A', 'B']) {
    await s.core.addAccount({ name, description: '', currency: 203, type: 1, isActive: true, isHidden: false, locked: false, ord: 0 });
  }
  expect((await s.core.sync()).error).toBeNull();
  expect((await s.core.getStatus()).connection?.binding).toBe(binding);
  await s.reopen({ timeoutMs: GIVE_UP_MS });
  const accounts = (await s.core.listAccounts({})).accounts;
  return { s, a: accounts.find((x) => x.name === 'A')!.id, b: accounts.find((x) => x.name === 'B')!.id };
}

const onService = async (u: Setup, description: string) =>
  (await u.s.truth.call('TransactionListLast50_2', { AccountId: u.b })).filter((t) => t.Description === description).length;

describe.each(CARRIAGES)('over $binding through $transport', ({ binding, transport }) => {
  let u: Setup;
  beforeAll(async () => {
    u = await userOver(binding, TEST_SYNC_TUNING, TRANSPORTS[transport]);
  });
  afterAll(() => u.s.done());

  it.each(NETWORK_FAULT_MODES)('%s: the read is tried again, the write arrives exactly once and is never refused', async (mode) => {
    await u.s.core.transfer({
      sourceId: u.a,
      targetId: u.b,
      amount: '1.25',
      paymentDate: '2026-03-03T10:00',
      categoryId: 0,
      description: `${binding} ${transport} ${mode}`,
    });
    const writesBefore = sends('AddTranferToOtherAccount');
    const faultedBefore = proxy.counts.get(mode) ?? 0;
    faultFirstOf(mode, 'AddTranferToOtherAccount', 'CategoryTree');
    const summary = await u.s.core.sync();
    expect(summary, JSON.stringify(summary)).toMatchObject({ pushed: 1, refused: 0, unknown: 0, waiting: 0, error: null });
    expect((proxy.counts.get(mode) ?? 0) - faultedBefore, 'both faults happened').toBe(2);
    expect(sends('AddTranferToOtherAccount') - writesBefore).toBe(NOT_FORWARDED.has(mode) ? 2 : 1);
    expect(await onService(u, `${binding} ${transport} ${mode}`)).toBe(1);
    expect(await u.s.core.listOutbox()).toEqual([]);
  });

  it('a 503 in plain text while the service restarts is waited out, with the waits announced; the transfer arrives', async () => {
    await u.s.core.transfer({
      sourceId: u.a,
      targetId: u.b,
      amount: '2',
      paymentDate: '2026-03-04T10:00',
      categoryId: 0,
      description: `${binding} ${transport} restart`,
    });
    let unavailable = 4;
    proxy.choose(() => (unavailable-- > 0 ? 'status-503' : 'pass'));
    const events: AppEvent[] = [];
    const off = u.s.core.onEvent((e) => events.push(e));
    const summary = await u.s.core.sync();
    off();
    expect(summary).toMatchObject({ pushed: 1, refused: 0, waiting: 0, error: null });
    const waits = events.filter((e) => e.type === 'sync-waiting');
    expect(waits.length).toBeGreaterThan(0);
    expect(waits[0]).toMatchObject({ cause: 'unavailable', httpStatus: 503 });
    expect(await onService(u, `${binding} ${transport} restart`)).toBe(1);
  });
});

describe('the budget', () => {
  it('a service that stays unavailable ends the sync with "unavailable; N writes still waiting", the writes pending, never refused; the next sync delivers them', async () => {
    const u = await userOver('soap12');
    try {
      await u.s.core.transfer({
        sourceId: u.a,
        targetId: u.b,
        amount: '3',
        paymentDate: '2026-03-05T10:00',
        categoryId: 0,
        description: 'storm 1',
      });
      await u.s.core.transfer({
        sourceId: u.b,
        targetId: u.a,
        amount: '4',
        paymentDate: '2026-03-05T11:00',
        categoryId: 0,
        description: 'storm 2',
      });
      // A budget of 300 ms: the storm outlasts it, and the sync ends by it (the error says so), not by a limit of its calls.
      await u.s.reopen({ sync: { ...TEST_SYNC_TUNING, unavailableMs: 300 } });
      proxy.choose(() => 'status-503');
      const summary = await settles('the sync to give up on the storm', u.s.core.sync());
      expect(summary).toMatchObject({
        pushed: 0,
        refused: 0,
        waiting: 2,
        errorCode: 'unavailable',
        error: { code: 'serviceUnavailable', params: { waiting: 2 } },
      });
      expect(englishOf(summary.error)).toMatch(
        /^The service is unavailable; 2 writes still waiting\. The service is unavailable \(HTTP 503 Service Unavailable\)\. It kept failing for \d+ ms\.$/,
      );
      const left = await u.s.core.listOutbox();
      expect(left).toHaveLength(2);
      // Sent and answered 503 (unknown: looked for first) or never sent (pending): waiting either way.
      for (const e of left) expect(['pending', 'unknown']).toContain(e.status);
      expect((await u.s.core.getStatus()).offline).toBe(true);
      proxy.choose(() => 'pass');
      expect(await u.s.core.sync()).toMatchObject({ pushed: 2, refused: 0, waiting: 0, error: null });
      for (const [account, description] of [
        [u.a, 'storm 1'],
        [u.b, 'storm 1'],
        [u.a, 'storm 2'],
        [u.b, 'storm 2'],
      ] as const) {
        expect(
          (await u.s.truth.call('TransactionListLast50_2', { AccountId: account })).filter((t) => t.Description === description),
        ).toHaveLength(1);
      }
    } finally {
      await u.s.done();
    }
  });

  it('honours Retry-After: the next try waits the time the service asked for', async () => {
    const u = await userOver('soap12', { ...TEST_SYNC_TUNING, retry: { ...TEST_SYNC_TUNING.retry, maxBackoffMs: 5000 } });
    try {
      let first = true;
      proxy.choose((req) => {
        if (req.operation !== 'AccountListWithAmount2' || !first) return 'pass';
        first = false;
        return 'status-429-retry-after';
      });
      const logged = proxy.log.length;
      const events: AppEvent[] = [];
      const off = u.s.core.onEvent((e) => events.push(e));
      expect((await u.s.core.sync()).error).toBeNull();
      off();
      // When the proxy saw the two tries (a lower bound: a busy machine only makes the gap longer). A timer
      // may fire a millisecond before its time by the clock: the slack.
      const tries = proxy.log.slice(logged).filter((l) => l.operation === 'AccountListWithAmount2');
      expect(tries.map((t) => t.mode)).toEqual(['status-429-retry-after', 'pass']);
      expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(1000 - 5);
      const wait = events.find((e) => e.type === 'sync-waiting');
      expect(wait).toMatchObject({ cause: 'unavailable', httpStatus: 429 });
    } finally {
      await u.s.done();
    }
  });

  it('a service that drips its answers is cut off at the sync’s deadline, with nothing lost', async () => {
    const u = await userOver('soap12');
    try {
      await u.s.core.transfer({
        sourceId: u.a,
        targetId: u.b,
        amount: '6',
        paymentDate: '2026-03-07T10:00',
        categoryId: 0,
        description: 'dripped',
      });
      // Calls may take 20 s each, but the whole sync only 1.5 s.
      await u.s.reopen({ timeoutMs: 20_000, sync: { ...TEST_SYNC_TUNING, unavailableMs: 60_000, deadlineMs: 1500 } });
      proxy.choose(() => 'slow-drip');
      // Ended by the deadline (its error says so), not by a call's limit of 20 s.
      const summary = await settles('the sync to stop at its deadline', u.s.core.sync());
      expect(summary).toMatchObject({
        errorCode: 'unavailable',
        waiting: 1,
        refused: 0,
        error: { code: 'syncPastDeadline', params: { seconds: 1.5, waiting: 1 } },
      });
      expect(englishOf(summary.error)).toBe(
        'The sync did not finish within 1.5 s and was stopped; nothing is lost. 1 write still waiting.',
      );
      proxy.choose(() => 'pass');
      await u.s.reopen({ sync: TEST_SYNC_TUNING });
      expect(await u.s.core.sync()).toMatchObject({ pushed: 1, error: null });
      expect(await onService(u, 'dripped')).toBe(1);
    } finally {
      await u.s.done();
    }
  });

  it('Cancel stops a sync that waits for the service at once, and loses nothing', async () => {
    const u = await userOver('soap12');
    try {
      await u.s.core.transfer({
        sourceId: u.a,
        targetId: u.b,
        amount: '5',
        paymentDate: '2026-03-06T10:00',
        categoryId: 0,
        description: 'cancelled',
      });
      // Waits of at least 2 s, for a minute: only the cancel can end the sync soon, and its summary says it did.
      await u.s.reopen({
        sync: { ...TEST_SYNC_TUNING, unavailableMs: 60_000, retry: { attempts: 100, backoffMs: 2000, maxBackoffMs: 5000 } },
      });
      proxy.choose(() => 'status-503');
      const waiting = new Promise<void>((resolve) => u.s.core.onEvent((e) => e.type === 'sync-waiting' && resolve()));
      const sync = u.s.core.sync();
      await settles('the sync to wait for the service', waiting);
      expect(await u.s.core.cancelSync()).toEqual({ cancelled: true });
      const summary = await settles('the cancelled sync to end', sync);
      expect(summary).toMatchObject({ errorCode: 'cancelled', waiting: 1, refused: 0 });
      expect(await u.s.core.cancelSync()).toEqual({ cancelled: false });
      proxy.choose(() => 'pass');
      expect(await u.s.core.sync()).toMatchObject({ pushed: 1, error: null });
      expect(await onService(u, 'cancelled')).toBe(1);
    } finally {
      await u.s.done();
    }
  });
});
