/**
 * Writes whose outcome is unknown, one kind and one fault at a time, through the fault proxy: the
 * client looks for the write's effect before sending again. A write the service handled (its answer
 * lost) is found and never sent twice; a write that never arrived is sent again, once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contextOf, onFile, refuelingFor } from '../../src-service';
import { bookTransaction } from '../../src-service/operations/transactions';
import type { AppApi, AppError } from '../../src-shared/app-api';
import { GIVE_UP_MS, newUser, type UserSession } from '../support/client';
import { startFaultProxy, type FaultMode, type FaultProxy } from '../support/fault-proxy';
import { TEST_TIME_ZONE, startTestService, type TestService } from '../support/service';

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

/** Faults the first `times` requests of one operation, passes everything else. */
function faultFirst(operation: string, mode: FaultMode, times = 1): void {
  let left = times;
  proxy.choose((req) => (req.operation === operation && left-- > 0 ? mode : 'pass'));
}

const sent = (operation: string) => proxy.log.filter((l) => l.operation === operation).length;

interface Case {
  kind: string;
  operation: string;
  /** Queues the write (after the set-up sync). */
  write(core: AppApi, ids: { a: number; b: number; category: number; refueling: number }): Promise<unknown>;
  /** How many records of the effect the service holds. */
  count(s: UserSession, ids: { a: number; b: number; category: number; refueling: number }): Promise<number>;
}

const CASES: Case[] = [
  {
    kind: 'new account',
    operation: 'AddAccount',
    write: (core) =>
      core.addAccount({ name: 'Fresh', description: '', currency: 203, type: 1, isActive: true, isHidden: false, locked: false, ord: 0 }),
    count: async (s) => (await s.truth.call('AccountListWithAmount2', {})).filter((a) => a.Name === 'Fresh').length,
  },
  {
    kind: 'transfer',
    operation: 'AddTranferToOtherAccount',
    write: (core, ids) =>
      core.transfer({
        sourceId: ids.a,
        targetId: ids.b,
        amount: '42.42',
        paymentDate: '2026-02-02T10:00',
        categoryId: ids.category,
        description: 'once',
      }),
    count: async (s, ids) =>
      (await s.truth.call('TransactionListLast50_2', { AccountId: ids.b })).filter((t) => t.Description === 'once').length,
  },
  {
    kind: 'new category',
    operation: 'AddCategory',
    write: (core, ids) => core.addCategory({ name: 'Sub', parentId: ids.category }),
    count: async (s) => {
      const tree = await s.truth.call('CategoryTree', {});
      return (tree.AllCategories[0]!.ChildCategories ?? []).filter((c) => c.Name === 'Sub').length;
    },
  },
  {
    kind: 'new refueling',
    operation: 'EditCarFuel',
    write: (core) =>
      core.addRefueling({
        carId: 1,
        dateOfPurchase: '2026-02-03T07:30',
        tachometer: 777,
        liter: '33.3',
        price: '1234.5',
        currency: 203,
        rate: '1',
        description: 'once',
      }),
    count: async (s) => (await s.truth.call('CarFuelList', { CarId: 1 })).filter((r) => r.Tachometer === 777).length,
  },
  {
    kind: 'account edit',
    operation: 'EditAccount',
    write: (core, ids) =>
      core.editAccount({ id: ids.a, name: 'A edited', description: '', type: 1, isActive: true, isHidden: false, locked: false, ord: 0 }),
    count: async (s) => (await s.truth.call('AccountListWithAmount2', {})).filter((a) => a.Name === 'A edited').length,
  },
  {
    kind: 'category rename',
    operation: 'EditCategory',
    write: (core, ids) => core.renameCategory({ id: ids.category, name: 'Renamed' }),
    count: async (s) => (await s.truth.call('CategoryTree', {})).AllCategories.filter((c) => c.Name === 'Renamed').length,
  },
];

/** A user with two accounts, a category and a refueling, synced through the proxy. */
async function setUp(): Promise<{ s: UserSession; ids: { a: number; b: number; category: number; refueling: number } }> {
  proxy.choose(() => 'pass');
  const s = await newUser(service, { baseUrl: proxy.url });
  for (const name of ['A', 'B']) {
    await s.core.addAccount({ name, description: '', currency: 203, type: 1, isActive: true, isHidden: false, locked: false, ord: 0 });
  }
  await s.core.addCategory({ name: 'Top', parentId: 0 });
  await s.core.saveCar({ carId: 1, name: 'Car' });
  await s.core.addRefueling({
    carId: 1,
    dateOfPurchase: '2026-01-01T00:00',
    tachometer: 1,
    liter: '1',
    price: '1',
    currency: 203,
    rate: '1',
    description: '',
  });
  expect((await s.core.sync()).error).toBeNull();
  const accounts = (await s.core.listAccounts({})).accounts;
  return {
    s,
    ids: {
      a: accounts.find((x) => x.name === 'A')!.id,
      b: accounts.find((x) => x.name === 'B')!.id,
      category: (await s.core.getCategoryTree()).all[0]!.id,
      refueling: (await s.core.listRefuelings({ carId: 1 }))[0]!.id,
    },
  };
}

describe('unknown outcomes are decided by looking for the effect', () => {
  // Faults after the service handled the write: found, sent once. Faults before it arrived: sent again, once.
  const modes: [FaultMode, number][] = [
    ['drop-after', 1],
    ['error-500-after', 1],
    ['garbage-after', 1],
    ['slow', 1],
    ['truncate', 1],
    ['drop-before', 2],
    ['error-500', 2],
    ['garbage', 2],
  ];
  for (const c of CASES) {
    for (const [mode, sends] of modes) {
      const what =
        sends === 1 ? 'handled by the service, answer lost -> found, not sent again' : 'never reached the service -> sent again, once';
      it(`${c.kind}: ${mode}: ${what}`, async () => {
        const { s, ids } = await setUp();
        try {
          await c.write(s.core, ids);
          const before = sent(c.operation);
          faultFirst(c.operation, mode);
          // The sync under the fault gives up on a held answer ('slow') after a second.
          await s.reopen({ timeoutMs: GIVE_UP_MS });
          const summary = await s.core.sync();
          expect(summary, JSON.stringify(summary)).toMatchObject({ pushed: 1, refused: 0, unknown: 0, error: null });
          expect(sent(c.operation) - before).toBe(sends);
          expect(await c.count(s, ids)).toBe(1);
          expect(await s.core.listOutbox()).toEqual([]);
        } finally {
          await s.done();
        }
      });
    }
  }

  it('when the service cannot be asked, the write stays unknown (not sent again) until a later sync decides it', async () => {
    const { s, ids } = await setUp();
    try {
      await s.core.transfer({
        sourceId: ids.a,
        targetId: ids.b,
        amount: '5',
        paymentDate: '2026-02-02T10:00',
        categoryId: 0,
        description: 'later',
      });
      // The answer is lost and the service then stays unreachable for a while.
      let sentOnce = false;
      proxy.choose((req) => {
        if (req.operation === 'AddTranferToOtherAccount' && !sentOnce) {
          sentOnce = true;
          return 'drop-after';
        }
        return sentOnce ? 'drop-before' : 'pass';
      });
      const summary = await s.core.sync();
      expect(summary).toMatchObject({ pushed: 0, unknown: 1, errorCode: 'unavailable' });
      const [entry] = await s.core.listOutbox();
      expect(entry).toMatchObject({ status: 'unknown', attempts: 1 });
      expect((await s.core.getStatus()).outbox.unknown).toBe(1);
      // It cannot be changed while its outcome is unknown (it may have happened).
      const err = await s.core
        .updateOutbox({
          id: entry!.id,
          input: { sourceId: ids.a, targetId: ids.b, amount: '6', paymentDate: '2026-02-02T10:00', categoryId: 0, description: 'later' },
        })
        .catch((e: AppError) => e);
      expect(err).toMatchObject({ kind: 'rule' });
      // An app restart in between changes nothing.
      await s.reopen();
      proxy.choose(() => 'pass');
      const sends = sent('AddTranferToOtherAccount');
      expect(await s.core.sync()).toMatchObject({ pushed: 1, unknown: 0, error: null });
      expect(sent('AddTranferToOtherAccount')).toBe(sends);
      expect((await s.truth.call('TransactionListLast50_2', { AccountId: ids.b })).filter((t) => t.Description === 'later')).toHaveLength(
        1,
      );
    } finally {
      await s.done();
    }
  });

  it('a write whose target the service refuses to show is refused; one whose check is refused is undecidable until it can be made; others go on', async () => {
    const { s, ids } = await setUp();
    try {
      await s.core.transfer({
        sourceId: ids.a,
        targetId: ids.b,
        amount: '8',
        paymentDate: '2026-02-02T10:00',
        categoryId: 0,
        description: 'cannot read',
      });
      await s.core.addCategory({ name: 'Independent', parentId: 0 });
      proxy.choose((req) => (req.operation === 'TransactionListLast50_2' ? 'client-fault' : 'pass'));
      const first = await s.core.sync();
      expect(first).toMatchObject({ pushed: 1, refused: 1 });
      const [refused] = await s.core.listOutbox();
      expect(refused).toMatchObject({ kind: 'transfer', status: 'refused', message: 'AccountId: account does not exist.' });

      // Sent, answer lost, and then the check is refused: it is undecidable (never sent blindly), the rest goes on.
      await s.core.retryOutbox({ id: refused!.id });
      let sentOnce = false;
      proxy.choose((req) => {
        if (req.operation === 'AddTranferToOtherAccount' && !sentOnce) {
          sentOnce = true;
          return 'drop-after';
        }
        return sentOnce && req.operation === 'TransactionListLast50_2' ? 'client-fault' : 'pass';
      });
      await s.core.addCategory({ name: 'Also independent', parentId: 0 });
      const second = await s.core.sync();
      expect(second).toMatchObject({ unknown: 0, undecidable: 1 });
      const left = await s.core.listOutbox();
      expect(left.map((e) => [e.kind, e.status])).toEqual([['transfer', 'undecidable']]);
      expect(left[0]!.message).toMatch(/cannot be checked: AccountId/);
      expect((await s.truth.call('CategoryTree', {})).AllCategories.map((c) => c.Name)).toContain('Also independent');
      // Once the service shows the accounts again, the check finds the transfer: not sent twice.
      proxy.choose(() => 'pass');
      expect(await s.core.sync()).toMatchObject({ pushed: 1, unknown: 0, undecidable: 0, error: null });
      expect(
        (await s.truth.call('TransactionListLast50_2', { AccountId: ids.b })).filter((t) => t.Description === 'cannot read'),
      ).toHaveLength(1);
    } finally {
      await s.done();
    }
  });

  it('a write refused in words like refused credentials is refused alone when the credentials still work', async () => {
    const { s, ids } = await setUp();
    try {
      await s.core.renameCategory({ id: ids.category, name: 'Not allowed' });
      await s.core.addCategory({ name: 'Allowed', parentId: 0 });
      proxy.choose((req) => (req.operation === 'EditCategory' ? 'authorization-fault' : 'pass'));
      expect(await s.core.sync()).toMatchObject({ pushed: 1, refused: 1, error: null });
      expect((await s.core.listOutbox()).map((e) => [e.kind, e.status, e.message])).toEqual([
        ['renameCategory', 'refused', 'You are not authorized to change this record.'],
      ]);
      expect((await s.truth.call('CategoryTree', {})).AllCategories.map((c) => c.Name).sort()).toEqual(['Allowed', 'Top']);
    } finally {
      await s.done();
    }
  });

  it('two identical transfers, both answers lost: each finds its own effect, none is doubled', async () => {
    const { s, ids } = await setUp();
    try {
      const same = { sourceId: ids.a, targetId: ids.b, amount: '7', paymentDate: '2026-02-02T10:00', categoryId: 0, description: 'twin' };
      await s.core.transfer(same);
      await s.core.transfer(same);
      await s.core.transfer(same);
      let n = 0;
      // The first and the third are handled with their answers lost; the second never arrives.
      proxy.choose((req) =>
        req.operation === 'AddTranferToOtherAccount' ? (++n === 1 || n === 3 ? 'drop-after' : n === 2 ? 'drop-before' : 'pass') : 'pass',
      );
      expect(await s.core.sync()).toMatchObject({ pushed: 3, error: null });
      expect((await s.truth.call('TransactionListLast50_2', { AccountId: ids.b })).filter((t) => t.Description === 'twin')).toHaveLength(3);
    } finally {
      await s.done();
    }
  });
});

describe('writes dated before the last 50 records the service lists', () => {
  /** 55 later transactions on each account and 55 later refuelings of car 1: a backdated write is not listed. */
  function crowd(s: UserSession, ids: { a: number; b: number }): void {
    onFile(service.dataFile, function* (store) {
      const ctx = yield* contextOf(store, s.login, TEST_TIME_ZONE);
      for (let n = 0; n < 55; n++) {
        const paymentDate = `2026-06-${String(1 + (n % 28)).padStart(2, '0')}T10:00:00`;
        for (const accountId of [ids.a, ids.b]) {
          yield* bookTransaction(ctx, { accountId, amount: 1000, paymentDate, description: `later ${n}` });
        }
        yield* refuelingFor(ctx, { carId: 1, dateOfPurchase: paymentDate, tachometer: 10_000 + n, liter: 30, price: 900, currency: 203 });
      }
    });
  }
  const balanceOf = async (s: UserSession, id: number) =>
    (await s.truth.call('AccountListWithAmount2', {})).find((a) => a.Id === id)!.Amount;

  for (const [mode, sends] of [
    ['drop-after', 1],
    ['drop-before', 2],
  ] as const) {
    it(`a backdated transfer, ${mode}: decided by the balances, booked once`, async () => {
      const { s, ids } = await setUp();
      try {
        crowd(s, ids);
        const [a, b] = [await balanceOf(s, ids.a), await balanceOf(s, ids.b)];
        await s.core.transfer({
          sourceId: ids.a,
          targetId: ids.b,
          amount: '7.5',
          paymentDate: '2026-01-01T09:00',
          categoryId: 0,
          description: 'old receipt',
        });
        const before = sent('AddTranferToOtherAccount');
        faultFirst('AddTranferToOtherAccount', mode);
        expect(await s.core.sync()).toMatchObject({ pushed: 1, unknown: 0, error: null });
        expect(sent('AddTranferToOtherAccount') - before).toBe(sends);
        expect([await balanceOf(s, ids.a), await balanceOf(s, ids.b)]).toEqual([a - 7.5, b + 7.5]);
      } finally {
        await s.done();
      }
    });
  }

  it('a backdated refueling whose answer was lost is undecidable, never sent blindly; the user decides', async () => {
    const { s, ids } = await setUp();
    try {
      crowd(s, ids);
      const old = {
        carId: 1,
        dateOfPurchase: '2026-01-02T07:00',
        tachometer: 4242,
        liter: '20',
        price: '700',
        currency: 203,
        rate: '1',
        description: 'old',
      };
      const { outboxId } = await s.core.addRefueling(old);
      const before = sent('EditCarFuel');
      faultFirst('EditCarFuel', 'drop-after');
      expect(await s.core.sync()).toMatchObject({ pushed: 0, unknown: 0, undecidable: 1 });
      expect(await s.core.sync()).toMatchObject({ pushed: 0, unknown: 0, undecidable: 1 });
      expect(sent('EditCarFuel') - before).toBe(1);
      const [entry] = await s.core.listOutbox();
      expect(entry).toMatchObject({ id: outboxId, status: 'undecidable', message: expect.stringMatching(/last 50 refuelings/) });
      // The status counts it apart, as one the user must decide.
      expect((await s.core.getStatus()).outbox).toMatchObject({ unknown: 0, undecidable: 1 });
      // It arrived (the user looks on the service): discarding it keeps the one there.
      await s.core.discardOutbox({ id: outboxId });

      // One that never arrived: the user sends it again, and it is sent once more.
      const second = await s.core.addRefueling({ ...old, tachometer: 4343 });
      faultFirst('EditCarFuel', 'drop-before');
      expect(await s.core.sync()).toMatchObject({ undecidable: 1 });
      // Changing it is refused: it may be on the service already.
      await expect(s.core.updateOutbox({ id: second.outboxId, input: { ...old, tachometer: 4444 } })).rejects.toMatchObject({
        code: 'entryUndecidable',
      });
      await s.core.retryOutbox({ id: second.outboxId });
      expect(await s.core.sync()).toMatchObject({ pushed: 1, unknown: 0, undecidable: 0, error: null });
      expect(sent('EditCarFuel') - before).toBe(3);
      expect(await s.core.listOutbox()).toEqual([]);
    } finally {
      await s.done();
    }
  });
});
