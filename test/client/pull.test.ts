/**
 * Pull against the real service: the demo data set pulled into an empty local copy equals the
 * service's data record by record; a second pull after changes on the service updates the copy; the
 * history older than the service's last 50 stays; reads run in parallel within their bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiCategory, ApiTransaction2 } from '../../src-shared/catalog';
import { decimalFromNumber, formatDecimal } from '../../src-shared/money';
import { fetchAll, pull } from '../../src-main/core/pull';
import { Store } from '../../src-main/core/store';
import { addAccount, addCategory, addRefueling, addTransaction } from '../../src-service';
import { readService, soapClient, tempDir, type ServiceState } from '../support/client';
import { startFaultProxy } from '../support/fault-proxy';
import { startTestService, type TestService } from '../support/service';

const dec = (n: number) => formatDecimal(decimalFromNumber(n));
const NOTHING = { accounts: 0, transactions: 0, templates: 0, categories: 0, refuelings: 0 };
const CARS = [1, 2];

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ demo: true });
});
afterAll(() => service.close());

function flatten(list: ApiCategory[], parentId: number, out: { id: number; name: string; parentId: number; position: number }[] = []) {
  list.forEach((c, position) => {
    out.push({ id: c.Id, name: c.Name, parentId, position });
    if (c.ChildCategories) flatten(c.ChildCategories, c.Id, out);
  });
  return out;
}

const txRow = (accountId: number, t: ApiTransaction2) => ({
  key: `id:${t.Id}`,
  id: t.Id,
  accountId,
  paymentDate: t.PaymentDate,
  type: t.Type,
  amount: dec(t.Amount),
  description: t.Description,
  categoryId: t.Id_Category,
  userId: t.Id_User,
  userCreatedId: t.Id_UserCreated,
});

/** The local copy equals the service, record by record (transactions: the service's last 50 are all there). */
function expectCopyEquals(store: Store, truth: ServiceState): void {
  expect(store.accounts().map((a) => a.id).sort()).toEqual(truth.accounts.map((a) => a.Id).sort());
  for (const a of truth.accounts) {
    expect(store.account(a.Id)).toEqual({
      id: a.Id,
      name: a.Name,
      description: a.Description,
      type: a.Type,
      currency: a.Currency,
      isActive: a.IsActive,
      locked: a.Locked,
      isHidden: a.IsHidden,
      ord: a.Ord,
      permission: a.UserAccountPermission,
      balance: dec(a.Amount),
    });
    const local = new Map(store.allTransactions(a.Id).map((t) => [t.id, t]));
    for (const t of truth.transactions.get(a.Id)!) expect(local.get(t.Id)).toEqual(txRow(a.Id, t));
  }
  expect(store.templates()).toEqual(
    truth.templates.map((t) => ({
      id: t.Id,
      accountId: t.Id_Account,
      type: t.Type,
      amount: dec(t.Amount),
      description: t.Description,
      categoryId: t.Id_Category,
      ord: t.Ord,
      userId: t.Id_User,
      userCreatedId: t.Id_UserCreated,
    })),
  );
  const byParent = (a: { parentId: number; position: number }, b: { parentId: number; position: number }) => a.parentId - b.parentId || a.position - b.position;
  expect(store.categories().sort(byParent)).toEqual(flatten(truth.categories.AllCategories, 0).sort(byParent));
  expect(store.favorites()).toEqual(truth.categories.FavoritCategories.map((c) => ({ id: c.Id, name: c.Name })));
  for (const carId of CARS) {
    const local = new Map(store.refuelings(carId).map((r) => [r.id, r]));
    for (const r of truth.refuelings.get(carId)!) {
      expect(local.get(r.Id)).toEqual({
        id: r.Id,
        carId,
        dateOfPurchase: r.DateOfPurchase,
        tachometer: r.Tachometer,
        liter: dec(r.Liter),
        price: dec(r.Price),
        currency: r.Currency,
        rate: dec(r.Rate),
        description: r.Description,
        userCreatedId: r.Id_UserCreated,
      });
    }
  }
}

describe('pull', () => {
  it('copies the demo data set exactly, then follows changes on the service, keeping older history', async () => {
    const tmp = tempDir();
    const store = new Store(tmp.file('local.sqlite'));
    const client = soapClient(service.url, service.namespace);
    try {
      for (const carId of CARS) store.saveCar(carId, `Car ${carId}`, '2026-01-01T00:00:00');
      const first = await pull(client, store);
      const counts = first.listed;
      const truth = await readService(client, CARS);
      expectCopyEquals(store, truth);
      let total = 0;
      for (const list of truth.transactions.values()) total += list.length;
      expect(counts).toEqual({
        accounts: truth.accounts.length,
        transactions: total,
        templates: truth.templates.length,
        categories: flatten(truth.categories.AllCategories, 0).length,
        refuelings: truth.refuelings.get(1)!.length + truth.refuelings.get(2)!.length,
      });
      expect(counts.transactions).toBeGreaterThan(100);
      // Into an empty copy, everything listed is new.
      expect(first.changed).toEqual(counts);
      expect(store.favorites().length).toBeGreaterThan(0);
      // Nothing changed on the service: nothing received, although the service listed everything again.
      expect(await pull(client, store)).toEqual({ listed: counts, changed: NOTHING });

      // Changes on the service: a new account, 60 new transactions on the wallet in two batches
      // (each pulled), an edited account, a new category and a new refueling.
      const wallet = truth.accounts.find((a) => a.Name === 'Peněženka')!;
      const before = store.allTransactions(wallet.Id);
      const newAccount = addAccount(service.dataFile, 'demo', { name: 'Pulled later', currency: 203, ord: 3 });
      await client.call('EditAccount', { Id_Account: wallet.Id, Name: 'Peněženka 2', Description: 'edited', Type: wallet.Type, IsActive: true, IsHidden: false, Locked: false, Ord: wallet.Ord });
      const newCategory = addCategory(service.dataFile, 'demo', 'Pulled category');
      addRefueling(service.dataFile, 'demo', { carId: 2, dateOfPurchase: '2026-12-01T08:00:00', tachometer: 123456, liter: 40.01, price: 1500.5, currency: 203 });
      const added: number[] = [];
      const received = [];
      for (let batch = 0; batch < 2; batch++) {
        for (let i = 0; i < 30; i++) {
          const n = batch * 30 + i;
          added.push(addTransaction(service.dataFile, 'demo', { accountId: wallet.Id, amount: -(n + 1) / 100, paymentDate: `2027-01-${String(1 + Math.floor(n / 10)).padStart(2, '0')}T${String(n % 10).padStart(2, '0')}:00:00`, description: `later ${n}` }));
        }
        received.push((await pull(client, store)).changed);
      }
      // What each pull brought, per kind: the new and the edited account (the wallet's new balance comes
      // with its transactions, so it is not counted again), 30 transactions a time, the category, the refueling.
      expect(received).toEqual([
        { accounts: 2, transactions: 30, templates: 0, categories: 1, refuelings: 1 },
        { ...NOTHING, transactions: 30 },
      ]);
      const truth2 = await readService(client, CARS);
      expectCopyEquals(store, truth2);
      expect(store.account(newAccount)!.name).toBe('Pulled later');
      expect(store.account(wallet.Id)).toMatchObject({ name: 'Peněženka 2', description: 'edited' });
      expect(store.categories().some((c) => c.id === newCategory)).toBe(true);
      expect(store.refuelings(2).some((r) => r.tachometer === 123456 && r.liter === '40.01')).toBe(true);

      // The service lists only the last 50; the local history keeps everything it ever listed.
      expect(truth2.transactions.get(wallet.Id)!).toHaveLength(50);
      const history = store.allTransactions(wallet.Id);
      expect(history).toHaveLength(before.length + 60);
      const ids = new Set(history.map((t) => t.id));
      for (const t of before) expect(ids.has(t.id)).toBe(true);
      for (const id of added) expect(ids.has(id)).toBe(true);
      expect(store.countTransactions(wallet.Id)).toBe(before.length + 60);
      // Paging the whole history: newest first, no gaps, no repeats.
      const paged = [...store.transactions(wallet.Id, 0, 40), ...store.transactions(wallet.Id, 40, 40), ...store.transactions(wallet.Id, 80, 40)];
      expect(paged.map((t) => t.key)).toEqual(history.map((t) => t.key));
      expect(paged[0]!.paymentDate >= paged.at(-1)!.paymentDate).toBe(true);
    } finally {
      client.close();
      store.close();
      tmp.remove();
    }
  });

  it('reads in parallel, but never more at once than its bound', async () => {
    const proxy = await startFaultProxy({ target: service.url });
    const client = soapClient(proxy.url, service.namespace, { maxSockets: 16 });
    try {
      const started = Date.now();
      const data = await fetchAll(client, CARS, { concurrency: 3 });
      expect(data.accounts.length).toBeGreaterThan(3);
      expect(proxy.maxInFlight()).toBeGreaterThan(1);
      expect(proxy.maxInFlight()).toBeLessThanOrEqual(3);
      expect(Date.now() - started).toBeLessThan(5000);
    } finally {
      client.close();
      await proxy.close();
    }
  });
});
