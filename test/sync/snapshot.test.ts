/**
 * The push's view of the service: a read that fails is never remembered, also when this push noted
 * its own writes into it while the read was still in flight (parallel writes do that all the time).
 * A remembered failure would fail every later write that needs the list, round after round.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MalformedResponseError, RetryBudget } from '../../src-main/core/soap-client';
import { ServerSnapshot } from '../../src-main/core/sync';
import type { ApiAccount2, ApiCarFuel, ApiTransaction2 } from '../../src-shared/catalog';
import { DEMO, soapClient } from '../support/client';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { startTestService, type TestService } from '../support/service';
import { turns } from '../support/until';

let service: TestService;
let proxy: FaultProxy;
beforeAll(async () => {
  service = await startTestService({ demo: true });
  proxy = await startFaultProxy({ target: service.url });
});
afterAll(async () => {
  await proxy.close();
  await service.close();
});

const account = {
  Id: 999_001,
  Name: 'Noted',
  Type: 1,
  Currency: 203,
  IsActive: true,
  Locked: false,
  Description: '',
  Ord: 0,
  UserAccountPermission: 3,
  Amount: 0,
  IsHidden: false,
} satisfies ApiAccount2;
const refueling = {
  Id: 999_002,
  Id_UserCreated: 1,
  DateOfPurchase: '2026-01-01T00:00:00',
  Id_Car: 2,
  Tachometer: 1,
  Liter: 1,
  Price: 1,
  Description: '',
  Currency: 203,
  Rate: 1,
} satisfies ApiCarFuel;
const transaction = (accountId: number): ApiTransaction2 => ({
  Id: 999_003,
  Id_User: 1,
  Id_UserCreated: 1,
  Id_Account: accountId,
  PaymentDate: '2026-01-01T00:00:00',
  Type: 3,
  Amount: 1,
  Description: '',
  Id_Category: 0,
});

describe('the server snapshot of one push', () => {
  it('forgets a failed read even when a write was noted into it meanwhile, and leaves no rejection unhandled', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    const client = soapClient(proxy.url, service.namespace, { credentials: { ...DEMO } });
    try {
      const accountId = (await client.listAccounts())[0]!.Id;
      let failing = true;
      proxy.choose(() => (failing ? 'garbage' : 'pass'));
      const snapshot = new ServerSnapshot(client, new RetryBudget({ attempts: 1, backoffMs: 0, maxBackoffMs: 0 }, { unavailableMs: 0 }));
      const reads = [snapshot.accounts(), snapshot.refuelings(1), snapshot.transactions(accountId)];
      // Other writes of the push finish while these reads are under way.
      snapshot.noteAccount(account);
      snapshot.noteRefueling(refueling);
      snapshot.noteTransactions(transaction(accountId));
      for (const r of reads) await expect(r).rejects.toBeInstanceOf(MalformedResponseError);

      failing = false;
      expect((await snapshot.accounts()).size).toBeGreaterThan(1);
      expect((await snapshot.refuelings(1)).length).toBeGreaterThan(0);
      expect((await snapshot.transactions(accountId)).items.length).toBeGreaterThan(0);
      // A rejection no one handles is reported once the turn it happened in has run its microtasks: let a few turns pass.
      await turns();
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      client.close();
    }
  });
});
