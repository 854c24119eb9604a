/**
 * How an unknown outcome is decided, for the shapes the real service does not produce: a service
 * that lists transactions without ids (the older TransactionListLast50), look-alike records that
 * existed before the write, and records this app already claimed. The service's lists are given by
 * hand (a snapshot stand-in); the decision logic is the real one.
 */
import { describe, expect, it } from 'vitest';
import { type Outbox, type AnyEntry } from '../../src-main/core/outbox';
import { RetryBudget, type ListedTransaction, type SoapClient } from '../../src-main/core/soap-client';
import { Store } from '../../src-main/core/store';
import { ServerSnapshot, WritePusher, type TransactionWindow } from '../../src-main/core/sync';
import { EffectUndecidable } from '../../src-main/core/write-kinds';
import type { ApiAccount2 } from '../../src-shared/catalog';
import { tempDir } from '../support/client';

class GivenSnapshot extends ServerSnapshot {
  constructor(
    private readonly windowsGiven: Map<number, TransactionWindow>,
    private readonly balances: Record<number, number> = {},
  ) {
    super(null as unknown as SoapClient, new RetryBudget({ attempts: 1, backoffMs: 0, maxBackoffMs: 0 }, { unavailableMs: 0 }));
  }
  override transactions(accountId: number): Promise<TransactionWindow> {
    return Promise.resolve(this.windowsGiven.get(accountId) ?? { items: [], hasIds: true });
  }
  override accounts(): Promise<Map<number, ApiAccount2>> {
    const account = (id: number, amount: number) =>
      [
        id,
        {
          Id: id,
          Name: `A${id}`,
          Type: 1,
          Currency: 203,
          IsActive: true,
          Locked: false,
          Description: '',
          Ord: 0,
          UserAccountPermission: 3,
          Amount: amount,
          IsHidden: false,
        },
      ] as const;
    return Promise.resolve(new Map(Object.entries(this.balances).map(([id, amount]) => account(Number(id), amount))));
  }
}

const tx = (id: number | null, account: number, amount: number, description = 'rent'): ListedTransaction => ({
  Id: id,
  Id_User: 1,
  Id_UserCreated: 1,
  Id_Account: account,
  PaymentDate: '2026-03-01T10:00:00',
  Type: 3,
  Amount: amount,
  Description: description,
  Id_Category: 0,
});

const transfer = (probe: unknown): AnyEntry => ({
  id: 1,
  kind: 'transfer',
  input: { sourceId: 1, targetId: 2, amount: '25', paymentDate: '2026-03-01T10:00:00', categoryId: 0, description: 'rent' },
  base: null,
  createdIds: [-1, -2],
  status: 'unknown',
  message: null,
  conflicts: [],
  attempts: 1,
  createdAt: '',
  sentAt: '',
  probe,
});

function withPusher(
  windows: Map<number, TransactionWindow>,
  fn: (pusher: WritePusher, outbox: Outbox) => Promise<void>,
  balances: Record<number, number> = {},
) {
  const tmp = tempDir();
  const store = new Store(tmp.file('a.sqlite'));
  const outbox = store.outbox;
  return fn(new WritePusher(null as unknown as SoapClient, store, new GivenSnapshot(windows, balances)), outbox).finally(() => {
    store.close();
    tmp.remove();
  });
}

describe('finding the effect of a transfer whose outcome is unknown', () => {
  it('with ids: a new look-alike counts, one that existed before or that is already ours does not', async () => {
    const before = { ids: [10], matching: 1 };
    const windows = new Map([
      [1, { items: [tx(12, 1, -25), tx(11, 1, -25), tx(10, 1, -25)], hasIds: true }],
      [2, { items: [tx(13, 2, 25), tx(10, 2, 25)], hasIds: true }],
    ]);
    await withPusher(windows, async (pusher, outbox) => {
      outbox.markOwn('transaction', 11);
      const effect = await pusher.findEffect(transfer({ source: before, target: { ids: [10], matching: 1 } }));
      expect(effect).toMatchObject({ kind: 'transactions', transactions: [{ Id: 12 }, { Id: 13 }] });
      outbox.markOwn('transaction', 12);
      outbox.markOwn('transaction', 13);
      expect(await pusher.findEffect(transfer({ source: before, target: { ids: [10], matching: 1 } }))).toBeNull();
    });
  });

  it('compares amounts as decimals, without regard to which side the service made negative', async () => {
    const windows = new Map([[1, { items: [tx(20, 1, 25.0)], hasIds: true }]]);
    await withPusher(windows, async (pusher) => {
      expect(await pusher.findEffect(transfer({ source: { ids: [], matching: 0 }, target: { ids: [], matching: 0 } }))).toMatchObject({
        transactions: [{ Id: 20 }],
      });
    });
    const other = new Map([[1, { items: [tx(20, 1, -25.01), tx(21, 1, -25, 'other text')], hasIds: true }]]);
    await withPusher(other, async (pusher) => {
      expect(await pusher.findEffect(transfer({ source: { ids: [], matching: 0 }, target: { ids: [], matching: 0 } }))).toBeNull();
    });
  });

  it('without ids: a rise in the number of look-alikes is the effect; the same number is not', async () => {
    const twoNow = new Map([[1, { items: [tx(null, 1, -25), tx(null, 1, -25), tx(null, 1, -9)], hasIds: false }]]);
    await withPusher(twoNow, async (pusher) => {
      const found = await pusher.findEffect(transfer({ source: { ids: null, matching: 1 }, target: { ids: null, matching: 0 } }));
      // Found, though without ids nothing can be stored until the next pull lists it.
      expect(found).toMatchObject({ kind: 'transactions', transactions: [] });
      expect(await pusher.findEffect(transfer({ source: { ids: null, matching: 2 }, target: { ids: null, matching: 0 } }))).toBeNull();
    });
  });

  it('a full list that may leave the transfer out decides nothing by its absence: the balances do, or no one', async () => {
    // 50 later transactions on each account: the service lists those, not a transfer of 1 March.
    const later = (account: number) =>
      Array.from({ length: 50 }, (_, n) => ({ ...tx(100 + n, account, -1), PaymentDate: '2026-04-01T10:00:00' }));
    const windows = new Map([
      [1, { items: later(1), hasIds: true }],
      [2, { items: later(2), hasIds: true }],
    ]);
    const probe = (balances?: { source: string; target: string }) =>
      transfer({ source: { ids: [], matching: 0 }, target: { ids: [], matching: 0 }, ...(balances ? { balances } : {}) });
    const check = async (balances: Record<number, number>, p: AnyEntry) => {
      let outcome: unknown;
      await withPusher(windows, async (pusher) => void (outcome = await pusher.findEffect(p).catch((e: unknown) => e)), balances);
      return outcome;
    };
    expect(await check({ 1: 75, 2: 25 }, probe({ source: '100', target: '0' }))).toMatchObject({ kind: 'transactions', transactions: [] });
    expect(await check({ 1: 100, 2: 0 }, probe({ source: '100', target: '0' }))).toBeNull();
    expect(await check({ 1: 70, 2: 25 }, probe({ source: '100', target: '0' }))).toBeInstanceOf(EffectUndecidable);
    expect(await check({ 1: 75, 2: 25 }, probe())).toBeInstanceOf(EffectUndecidable);
    // One list that would show it and does not: it did not happen.
    windows.set(2, { items: later(2).slice(0, 10), hasIds: true });
    expect(await check({ 1: 75, 2: 25 }, probe())).toBeNull();
  });

  it('finds it when the service wrote the date in its own zone with an offset (read back shifted by whole quarter hours)', async () => {
    const at = (date: string) => ({ ...tx(30, 2, 25), PaymentDate: date });
    const probe = transfer({ source: { ids: [], matching: 0 }, target: { ids: [], matching: 0 } });
    for (const [date, found] of [
      ['2026-03-01T11:00:00', true],
      ['2026-02-28T22:30:00', true],
      ['2026-03-01T10:07:00', false],
      ['2026-03-02T10:00:00', false],
    ] as const) {
      await withPusher(new Map([[2, { items: [at(date)], hasIds: true }]]), async (pusher) => {
        const effect = await pusher.findEffect(probe);
        expect(effect === null ? null : effect.kind, date).toBe(found ? 'transactions' : null);
      });
    }
  });
});
