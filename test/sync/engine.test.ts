/**
 * The sync engine: one sync at a time (in this process and across processes on one local file),
 * progress events and the summary, writes to one account kept in order while independent writes go
 * in parallel, and writes made during a sync kept.
 */
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Store } from '../../src-main/core/store';
import type { AppError, AppEvent } from '../../src-shared/app-api';
import { newUser, TEST_SYNC_TUNING } from '../support/client';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { startTestService, type TestService } from '../support/service';
import { settles } from '../support/until';

let service: TestService;
let proxy: FaultProxy;
beforeAll(async () => {
  service = await startTestService();
  proxy = await startFaultProxy({ target: service.url });
});
afterAll(async () => {
  await proxy.close();
  await service.close();
});

const edited = (name: string) => ({ name, description: '', type: 1, isActive: true, isHidden: false, locked: false, ord: 0 });
const account = (name: string) => ({ ...edited(name), currency: 203 });

/** The pid of a process that has exited (and been reaped). */
function deadPid(): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['-e', '0']);
    child.on('exit', () => resolve(child.pid!));
  });
}

function writeLock(file: string, lock: { pid: number; host: string; at: number }): void {
  const store = new Store(file);
  try {
    store.settings.set('syncLock', lock);
  } finally {
    store.close();
  }
}

/**
 * Runs each action the first time the proxy sees its operation, passing every request. The proxy
 * sees a read a write needs while the push waits for it: the action lands between the push reading
 * the outbox entry and marking it sent. Returns the operations whose action ran.
 */
function onFirst(actions: Record<string, () => void>): Set<string> {
  const ran = new Set<string>();
  proxy.choose((req) => {
    const act = actions[req.operation];
    if (act && !ran.has(req.operation)) {
      ran.add(req.operation);
      act();
    }
    return 'pass';
  });
  return ran;
}

/** A user synced through the proxy, with one account on the service. */
async function userWithAccount(name: string) {
  const s = await newUser(service, { baseUrl: proxy.url });
  await s.core.addAccount(account(name));
  expect((await s.core.sync()).error).toBeNull();
  return { s, accountId: (await s.core.listAccounts({})).accounts[0]!.id };
}

describe('one sync at a time', () => {
  it('refuses a second sync while one runs, in this process', async () => {
    proxy.choose(() => 'pass');
    const s = await newUser(service, { baseUrl: proxy.url });
    try {
      await s.core.addAccount(account('A'));
      const first = s.core.sync();
      const second = await s.core.sync().catch((e: AppError) => e);
      expect(second).toMatchObject({ kind: 'busy' });
      expect((await s.core.getStatus()).syncing).toBe(true);
      expect((await first).error).toBeNull();
      expect((await s.core.getStatus()).syncing).toBe(false);
    } finally {
      await s.done();
    }
  });

  it('refuses while another live process syncs the same file, and takes over the lock of a dead one', async () => {
    const s = await newUser(service);
    try {
      const { hostname } = await import('node:os');
      await s.core.close();
      // Locks as fresh as can be (at the moment they are written), but for the last, an hour old.
      const now = () => new Date().getTime();
      writeLock(s.file, { pid: process.ppid, host: hostname(), at: now() });
      let core = await s.reopen();
      expect(await core.sync().catch((e: AppError) => e)).toMatchObject({
        kind: 'busy',
        message: expect.stringMatching(/another window or command/),
      });
      await core.close();
      writeLock(s.file, { pid: await deadPid(), host: hostname(), at: now() });
      core = await s.reopen();
      expect((await core.sync()).error).toBeNull();
      // A lock left by a process on another machine is taken over once it is stale.
      await core.close();
      writeLock(s.file, { pid: 1, host: 'elsewhere', at: now() - 60 * 60_000 });
      core = await s.reopen();
      expect((await core.sync()).error).toBeNull();
    } finally {
      await s.done();
    }
  });
});

describe('events, order and parallelism', () => {
  it('reports progress and ends with the summary it returns', async () => {
    proxy.choose(() => 'pass');
    const s = await newUser(service, { baseUrl: proxy.url });
    try {
      await s.core.saveCar({ carId: 3, name: 'Car' });
      for (let i = 0; i < 5; i++) await s.core.addAccount(account(`Acc ${i}`));
      const events: AppEvent[] = [];
      const off = s.core.onEvent((e) => events.push(e));
      const summary = await s.core.sync();
      off();
      expect(events[0]).toEqual({ type: 'sync-started' });
      const progress = events.filter((e): e is Extract<AppEvent, { type: 'sync-progress' }> => e.type === 'sync-progress');
      const push = progress.filter((p) => p.phase === 'push');
      expect(push.map((p) => p.done)).toEqual([1, 2, 3, 4, 5]);
      expect(push.at(-1)!.total).toBe(5);
      const pull = progress.filter((p) => p.phase === 'pull');
      expect(pull.at(-1)).toMatchObject({ done: 5 + 4, total: 5 + 4 });
      expect(progress.at(-1)).toEqual({ type: 'sync-progress', phase: 'rebuild', done: 1, total: 1 });
      const finished = events.find((e) => e.type === 'sync-finished');
      expect(finished).toEqual({ type: 'sync-finished', summary });
      expect(events.at(-1)).toMatchObject({ type: 'data-changed', status: { syncing: false, lastSync: summary } });
      expect(summary).toMatchObject({
        pushed: 5,
        refused: 0,
        conflicts: 0,
        unknown: 0,
        pulled: { accounts: 5, transactions: 0, templates: 0, categories: 0, refuelings: 0 },
        error: null,
        errorCode: null,
      });
      expect(summary.finishedAt >= summary.startedAt).toBe(true);
      expect((await s.core.getStatus()).lastSyncAt).toBe(summary.finishedAt);
    } finally {
      await s.done();
    }
  });

  it('sends writes to one account in the order made, independent writes in parallel', async () => {
    proxy.choose(() => 'pass');
    const s = await newUser(service, { baseUrl: proxy.url, sync: { ...TEST_SYNC_TUNING, pushConcurrency: 4 } });
    try {
      for (const name of ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H']) await s.core.addAccount(account(name));
      expect((await s.core.sync()).error).toBeNull();
      const ids = Object.fromEntries((await s.core.listAccounts({})).accounts.map((a) => [a.name, a.id]));
      // Four independent pairs, ten transfers each, in a known order.
      const pairs = [
        ['A', 'B'],
        ['C', 'D'],
        ['E', 'F'],
        ['G', 'H'],
      ] as const;
      for (let i = 0; i < 10; i++) {
        for (const [from, to] of pairs) {
          await s.core.transfer({
            sourceId: ids[from]!,
            targetId: ids[to]!,
            amount: `${i + 1}`,
            paymentDate: '2026-07-01T10:00',
            categoryId: 0,
            description: `#${i}`,
          });
        }
      }
      let pushMax = 0;
      s.core.onEvent((e) => {
        if (e.type === 'sync-started') proxy.resetMaxInFlight();
        if (e.type === 'sync-progress' && e.phase === 'pull' && pushMax === 0) pushMax = proxy.maxInFlight();
      });
      expect(await s.core.sync()).toMatchObject({ pushed: 40, error: null });
      expect(pushMax).toBeGreaterThan(1);
      expect(pushMax).toBeLessThanOrEqual(4);
      for (const [from] of pairs) {
        const txs = await s.truth.call('TransactionListLast50_2', { AccountId: ids[from]! });
        // Same date: the service lists by id, newest first; ids follow the order the writes arrived.
        expect(txs.map((t) => t.Description)).toEqual(Array.from({ length: 10 }, (_, i) => `#${9 - i}`));
      }
    } finally {
      await s.done();
    }
  });

  it('keeps writes made while a sync runs', async () => {
    proxy.choose(() => 'pass');
    const s = await newUser(service, { baseUrl: proxy.url });
    try {
      for (let i = 0; i < 10; i++) await s.core.addAccount(account(`Early ${i}`));
      const running = s.core.sync();
      await s.core.addCategory({ name: 'During the sync', parentId: 0 });
      await running;
      const left = await s.core.listOutbox();
      expect(left.length <= 1).toBe(true);
      await s.core.sync();
      expect(await s.core.listOutbox()).toEqual([]);
      expect((await s.truth.call('CategoryTree', {})).AllCategories.map((c) => c.Name)).toEqual(['During the sync']);
    } finally {
      await s.done();
    }
  });

  it('a write discarded while the push prepares it is not sent', async () => {
    const s = await newUser(service, { baseUrl: proxy.url });
    try {
      const { outboxId } = await s.core.addCategory({ name: 'Dropped', parentId: 0 });
      const adds = () => proxy.log.filter((l) => l.operation === 'AddCategory').length;
      const before = adds();
      const ran = onFirst({ CategoryTree: () => void s.core.discardOutbox({ id: outboxId }) });
      expect(await s.core.sync()).toMatchObject({ pushed: 0, error: null });
      expect([...ran]).toEqual(['CategoryTree']);
      expect(adds()).toBe(before);
      expect((await s.truth.call('CategoryTree', {})).AllCategories).toEqual([]);
    } finally {
      await s.done();
    }
  });

  it('a write changed while the push prepares it is sent as changed, never the old one', async () => {
    const { s, accountId: wallet } = await userWithAccount('Wallet');
    try {
      const { outboxId: create } = await s.core.addCategory({ name: 'Before', parentId: 0 });
      // An edit that the service already has needs no request; changed meanwhile, it does.
      const { outboxId: edit } = await s.core.editAccount({ id: wallet, ...edited('Wallet') });
      const ran = onFirst({
        CategoryTree: () => void s.core.updateOutbox({ id: create, input: { name: 'After', parentId: 0 } }),
        AccountListWithAmount2: () => void s.core.updateOutbox({ id: edit, input: { id: wallet, ...edited('Wallet renamed') } }),
      });
      await s.core.sync();
      expect(ran.size).toBe(2);
      expect(await s.core.sync()).toMatchObject({ error: null });
      expect(await s.core.listOutbox()).toEqual([]);
      expect((await s.truth.call('CategoryTree', {})).AllCategories.map((c) => c.Name)).toEqual(['After']);
      expect((await s.truth.call('AccountListWithAmount2', {})).map((a) => a.Name)).toEqual(['Wallet renamed']);
    } finally {
      await s.done();
    }
  });

  it('a create discarded while its request is under way still passes its real id to the writes that use it', async () => {
    const { s, accountId: main } = await userWithAccount('Main');
    try {
      const late = await s.core.addAccount(account('Late'));
      await s.core.transfer({
        sourceId: main,
        targetId: late.id,
        amount: '5',
        paymentDate: '2026-07-01T10:00',
        categoryId: 0,
        description: 'to late',
      });
      onFirst({ AddAccount: () => void s.core.discardOutbox({ id: late.outboxId }) });
      expect(await s.core.sync()).toMatchObject({ pushed: 2, error: null });
      expect(await s.core.listOutbox()).toEqual([]);
      const onService = await s.truth.call('AccountListWithAmount2', {});
      expect(onService.find((a) => a.Name === 'Late')).toMatchObject({ Amount: 5 });
    } finally {
      await s.done();
    }
  });

  it('closing the app during a sync stops it between writes and loses nothing', async () => {
    proxy.choose(() => 'pass');
    const s = await newUser(service, { baseUrl: proxy.url, sync: { pushConcurrency: 1 } });
    try {
      for (let i = 0; i < 30; i++) await s.core.addAccount(account(`Closing ${i}`));
      // Closed as soon as the third write is told pushed (the rest of the push still to come).
      const thirdPushed = new Promise<void>((resolve) =>
        s.core.onEvent((e) => {
          if (e.type === 'sync-progress' && e.phase === 'push' && e.done >= 3) resolve();
        }),
      );
      const running = s.core.sync();
      await settles('three writes to be pushed', thirdPushed);
      await s.core.close();
      const summary = await running;
      expect(summary.pushed).toBeLessThan(30);
      const core = await s.reopen();
      const left = await core.listOutbox();
      expect(left.length).toBe(30 - summary.pushed);
      expect(await core.sync()).toMatchObject({ pushed: left.length, error: null });
      expect((await s.truth.call('AccountListWithAmount2', {})).filter((a) => a.Name.startsWith('Closing'))).toHaveLength(30);
    } finally {
      await s.done();
    }
  });
});
