/**
 * What the service keeps: exact balances after many transfers, nothing left behind by a transfer that
 * fails halfway, data that survives a restart, the last-50 windows, favourites and dates in the service's
 * time zone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startService, silentLogger } from '../../src-service';
import type { ParamsOf } from '../../src-shared/catalog';
import { buildRequest } from '../../src-shared/wire';
import { describeBackends, takesEffect } from '../support/backends';
import { call, callRaw, send } from '../support/http';
import { seedUser, startTestService, type TestService } from '../support/service';
import { ANN, startFixtureService } from './fixture';
import { faultOf } from './wire-shape';

describeBackends(import.meta.url, (backend) => {
  const open: TestService[] = [];
  afterEach(async () => {
    await Promise.all(open.splice(0).map((s) => s.close()));
  });
  async function fresh(opts: Parameters<typeof startTestService>[0] = {}) {
    const service = await startTestService({ backend, ...opts });
    open.push(service);
    await seedUser(service, ANN);
    return service;
  }

  /** Balance and sum of transactions straight from the store, in minor units. */
  async function stored(service: TestService, accountId: number): Promise<{ balance: number; sum: number; count: number }> {
    const [{ balance }] = (await service.sql('SELECT balance_minor AS balance FROM accounts WHERE id = ?', [accountId])) as [
      { balance: number },
    ];
    const [{ sum, count }] = (await service.sql(
      'SELECT COALESCE(SUM(amount_minor), 0) AS sum, COUNT(*) AS count FROM transactions WHERE account_id = ?',
      [accountId],
    )) as [{ sum: number; count: number }];
    return { balance, sum, count };
  }

  const transfer = (
    from: number,
    to: number,
    amount: number,
    over: Partial<ParamsOf<'AddTranferToOtherAccount'>> = {},
  ): ParamsOf<'AddTranferToOtherAccount'> => ({
    Amount: amount,
    Description: 'move',
    Id_SourceAccount: from,
    Id_TargetAccount: to,
    Id_Category: 0,
    PaymentDate: '2026-05-01T12:00:00',
    ...over,
  });

  describe('balances', () => {
    it('are exact sums after many concurrent transfers of 0.1, 0.2 and other amounts', async () => {
      const service = await fresh();
      const a = await service.admin.addAccount('ann', { name: 'A', currency: 203 });
      const b = await service.admin.addAccount('ann', { name: 'B', currency: 203 });
      const c = await service.admin.addAccount('ann', { name: 'C', currency: 203 });
      const amounts = [0.1, 0.2, 0.3, 0.01, 0.07, 1.1, 2.2, 3.3, 1234.56, 0.99];
      let expectedHellers = [0, 0, 0];
      const ids = [a, b, c];
      const jobs: ParamsOf<'AddTranferToOtherAccount'>[] = [];
      for (let i = 0; i < 300; i++) {
        const from = i % 3;
        const to = (i * 7 + 1) % 3 === from ? (from + 1) % 3 : (i * 7 + 1) % 3;
        const amount = amounts[i % amounts.length]!;
        jobs.push(transfer(ids[from]!, ids[to]!, amount));
        const hellers = Math.round(amount * 100);
        expectedHellers = expectedHellers.map((h, k) => (k === from ? h - hellers : k === to ? h + hellers : h));
      }
      // Eight clients at once, over all four bindings.
      const bindings = ['soap12', 'soap11', 'httpGet', 'httpPost'] as const;
      let next = 0;
      await Promise.all(
        Array.from({ length: 8 }, async (_, worker) => {
          while (next < jobs.length) {
            const job = jobs[next++]!;
            await call(service, bindings[worker % 4]!, 'AddTranferToOtherAccount', ANN, job);
          }
        }),
      );
      const accounts = await call(service, 'soap12', 'AccountListWithAmount2', ANN, {});
      for (const [k, id] of ids.entries()) {
        const expected = expectedHellers[k]! / 100;
        expect(accounts.find((x) => x.Id === id)!.Amount).toBe(expected);
        const s = await stored(service, id);
        expect(s.balance).toBe(expectedHellers[k]);
        expect(s.sum).toBe(s.balance);
      }
      expect((await stored(service, a)).count + (await stored(service, b)).count + (await stored(service, c)).count).toBe(600);
    });

    it('0.1 + 0.2 is 0.3', async () => {
      const service = await fresh();
      const a = await service.admin.addAccount('ann', { name: 'A', currency: 203 });
      const b = await service.admin.addAccount('ann', { name: 'B', currency: 203 });
      await call(service, 'soap12', 'AddTranferToOtherAccount', ANN, transfer(a, b, 0.1));
      await call(service, 'soap12', 'AddTranferToOtherAccount', ANN, transfer(a, b, 0.2));
      const res = await callRaw(service, 'httpGet', 'AccountListWithAmount2', ANN, {});
      expect(res.body).toContain('<Name>B</Name>');
      expect(res.body).toMatch(/<Name>B<\/Name>.*?<Amount>0\.3<\/Amount>/);
      expect(res.body).toMatch(/<Name>A<\/Name>.*?<Amount>-0\.3<\/Amount>/);
    });

    it("keep the currency's digits: 0 for JPY, 3 for KWD", async () => {
      const service = await fresh();
      const y1 = await service.admin.addAccount('ann', { name: 'Y1', currency: 392 });
      const y2 = await service.admin.addAccount('ann', { name: 'Y2', currency: 392 });
      const k1 = await service.admin.addAccount('ann', { name: 'K1', currency: 414 });
      const k2 = await service.admin.addAccount('ann', { name: 'K2', currency: 414 });
      await call(service, 'soap12', 'AddTranferToOtherAccount', ANN, transfer(y1, y2, 150));
      await expect(call(service, 'soap12', 'AddTranferToOtherAccount', ANN, transfer(y1, y2, 1.5))).rejects.toThrow(
        'Amount 1.5 has more decimal places than JPY allows (0).',
      );
      await call(service, 'soap12', 'AddTranferToOtherAccount', ANN, transfer(k1, k2, 0.125));
      expect((await stored(service, k2)).balance).toBe(125);
      const accounts = await call(service, 'soap12', 'AccountList2', ANN, {});
      expect(accounts.map((x) => [x.Name, x.Amount])).toEqual([
        ['Y1', -150],
        ['Y2', 150],
        ['K1', -0.125],
        ['K2', 0.125],
      ]);
    });
  });

  describe('a write that fails', () => {
    it('halfway through a transfer leaves nothing behind', async () => {
      const service = await fresh();
      const a = await service.admin.addAccount('ann', { name: 'A', currency: 203 });
      const b = await service.admin.addAccount('ann', { name: 'B', currency: 203 });
      await service.admin.addTransaction('ann', { accountId: a, amount: 100, paymentDate: '2026-01-01T00:00:00' });
      const before = [await stored(service, a), await stored(service, b)];
      // The second half (on B) fails inside the store, after the first half was written.
      await service.failInserts('transactions', 'disk on fire', { column: 'account_id', value: b });
      for (const binding of ['soap12', 'httpPost'] as const) {
        const res = await callRaw(service, binding, 'AddTranferToOtherAccount', ANN, transfer(a, b, 25));
        expect(faultOf(binding, res).message).toBe('Server was unable to process request.');
      }
      expect([await stored(service, a), await stored(service, b)]).toEqual(before);
      const list = await call(service, 'soap12', 'TransactionListLast50_2', ANN, { AccountId: a });
      expect(list.map((t) => t.Amount)).toEqual([100]);
    });

    it('on a rule changes nothing either', async () => {
      const service = await fresh();
      const a = await service.admin.addAccount('ann', { name: 'A', currency: 203 });
      const b = await service.admin.addAccount('ann', { name: 'B', currency: 203, locked: true });
      await expect(call(service, 'soap12', 'AddTranferToOtherAccount', ANN, transfer(a, b, 1))).rejects.toThrow('is locked');
      expect(await stored(service, a)).toEqual({ balance: 0, sum: 0, count: 0 });
    });
  });

  describe('persistence', () => {
    it('everything written survives a restart on the same port, and a new service on the same file', async () => {
      const { service, fixture } = await startFixtureService({ backend });
      open.push(service);
      const account = await call(service, 'httpPost', 'AddAccount', ANN, {
        Name: 'Kept',
        Description: 'd',
        Currency: 978,
        Type: 4,
        IsActive: true,
        IsHidden: false,
        Locked: false,
        Ord: 3,
      });
      await call(service, 'soap11', 'AddTranferToOtherAccount', ANN, transfer(fixture.accounts.bank, fixture.accounts.cash, 12.34));
      await call(service, 'soap12', 'AddCategory', ANN, { Name: 'Kept category', Id_ParentCategory: 0 });
      await call(service, 'httpGet', 'EditCarFuel', ANN, {
        CarId: 5,
        Id_CarFuel: 0,
        Liter: 1,
        Price: 2,
        Tachometer: 3,
        DateOfPurchase: '2026-01-01T00:00:00',
        Currency: 203,
        Description: '',
        Rate: 1,
      });
      const snapshot = async () => ({
        accounts: await call(service, 'soap12', 'AccountListWithAmount2', ANN, {}),
        bank: await call(service, 'soap12', 'TransactionListLast50_2', ANN, { AccountId: fixture.accounts.bank }),
        tree: await call(service, 'soap12', 'CategoryTree', ANN, {}),
        fuel: await call(service, 'soap12', 'CarFuelList', ANN, { CarId: 5 }),
        templates: await call(service, 'soap12', 'DefineTransactionList2', ANN, {}),
      });
      const before = await snapshot();
      expect(before.accounts.some((a) => a.Id === account.Id)).toBe(true);
      await service.stop();
      await expect(fetch(`${service.url}/API/APIservice.asmx`)).rejects.toThrow();
      await service.start();
      expect(await snapshot()).toEqual(before);
      await service.stop();
      const other = await startService({ ...service.where, port: 0, logger: silentLogger, timeZone: 'Europe/Prague' });
      try {
        expect(await call({ url: other.url, namespace: other.namespace }, 'soap12', 'AccountListWithAmount2', ANN, {})).toEqual(
          before.accounts,
        );
      } finally {
        await other.close();
      }
    });

    it('a change made by another process (the admin tools) is seen at once (PostgreSQL: at its notification), cached answers included', async () => {
      const service = await fresh();
      const a = await service.admin.addAccount('ann', { name: 'A', currency: 203 });
      expect((await call(service, 'soap12', 'AccountListWithAmount2', ANN, {}))[0]!.Amount).toBe(0);
      expect((await call(service, 'soap12', 'AccountListWithAmount2', ANN, {}))[0]!.Amount).toBe(0);
      await service.admin.addTransaction('ann', { accountId: a, amount: 42.5, paymentDate: '2026-01-01T00:00:00' });
      await takesEffect(backend, async () =>
        expect((await call(service, 'soap12', 'AccountListWithAmount2', ANN, {}))[0]!.Amount).toBe(42.5),
      );
    });
  });

  describe('lists', () => {
    it('TransactionListLast50 gives the 50 newest, by PaymentDate then Id, descending', async () => {
      const service = await fresh();
      const a = await service.admin.addAccount('ann', { name: 'A', currency: 203 });
      const ids: { id: number; date: string }[] = [];
      for (let i = 0; i < 60; i++) {
        // Pairs share a date, so the tie goes by Id.
        const date = `2026-01-${String(1 + Math.floor((59 - i) / 2)).padStart(2, '0')}T10:00:00`;
        ids.push({ id: await service.admin.addTransaction('ann', { accountId: a, amount: i + 1, paymentDate: date }), date });
      }
      const expected = [...ids].sort((x, y) => (x.date === y.date ? y.id - x.id : x.date < y.date ? 1 : -1)).slice(0, 50);
      for (const op of ['TransactionListLast50_2', 'TransactionListLast50'] as const) {
        const list = await call(service, 'soap12', op, ANN, { AccountId: a });
        expect(list).toHaveLength(50);
        expect(list.map((t) => t.PaymentDate)).toEqual(expected.map((e) => e.date));
      }
      const list2 = await call(service, 'soap12', 'TransactionListLast50_2', ANN, { AccountId: a });
      expect(list2.map((t) => t.Id)).toEqual(expected.map((e) => e.id));
    });

    it('CarFuelList gives the 50 newest refuelings of that car', async () => {
      const service = await fresh();
      for (let i = 0; i < 55; i++) {
        await service.admin.addRefueling('ann', {
          carId: 1,
          dateOfPurchase: `2026-02-${String(1 + (i % 28)).padStart(2, '0')}T08:00:00`,
          tachometer: i,
          liter: 30,
          price: 1000,
          currency: 203,
        });
      }
      await service.admin.addRefueling('ann', {
        carId: 2,
        dateOfPurchase: '2027-01-01T00:00:00',
        tachometer: 1,
        liter: 1,
        price: 1,
        currency: 203,
      });
      const list = await call(service, 'soap12', 'CarFuelList', ANN, { CarId: 1 });
      expect(list).toHaveLength(50);
      expect(list.every((r) => r.Id_Car === 1)).toBe(true);
      const keys = list.map((r) => `${r.DateOfPurchase}#${String(r.Id).padStart(5, '0')}`);
      expect(keys).toEqual([...keys].sort().reverse());
    });

    it('FavoritCategories: up to 10 booked most often in the last 90 days, ties by Id, a transfer once', async () => {
      const now = Date.parse('2026-06-30T12:00:00Z');
      const service = await fresh({ service: { now: () => now } });
      const a = await service.admin.addAccount('ann', { name: 'A', currency: 203 });
      const b = await service.admin.addAccount('ann', { name: 'B', currency: 203 });
      const cats: number[] = [];
      for (let i = 0; i < 12; i++) cats.push(await service.admin.addCategory('ann', `C${i}`));
      const book = (cat: number, date: string) =>
        service.admin.addTransaction('ann', { accountId: a, amount: -1, paymentDate: date, categoryId: cat });
      // C0: 3 recent bookings; C1: 2 recent + 5 too old; C2 and C3 one each (tie by Id); C4 one in the future.
      for (let i = 0; i < 3; i++) await book(cats[0]!, '2026-06-01T10:00:00');
      for (let i = 0; i < 2; i++) await book(cats[1]!, '2026-05-01T10:00:00');
      for (let i = 0; i < 5; i++) await book(cats[1]!, '2026-03-01T10:00:00');
      await book(cats[3]!, '2026-04-15T10:00:00');
      await book(cats[2]!, '2026-04-15T10:00:00');
      await book(cats[4]!, '2026-08-01T10:00:00');
      // One transfer with C5 is one booking, though it writes two transactions; C6 gets two single bookings.
      await call(
        service,
        'soap12',
        'AddTranferToOtherAccount',
        ANN,
        transfer(a, b, 1, { Id_Category: cats[5]!, PaymentDate: '2026-06-10T10:00:00' }),
      );
      await book(cats[6]!, '2026-06-11T10:00:00');
      await book(cats[6]!, '2026-06-12T10:00:00');
      for (let i = 7; i < 12; i++) await book(cats[i]!, '2026-06-20T10:00:00');
      const tree = await call(service, 'soap12', 'CategoryTree', ANN, {});
      expect(tree.FavoritCategories.map((c) => c.Name)).toEqual(['C0', 'C1', 'C6', 'C2', 'C3', 'C5', 'C7', 'C8', 'C9', 'C10']);
      expect(tree.FavoritCategories.every((c) => c.ChildCategories === null)).toBe(true);
      expect(tree.AllCategories).toHaveLength(12);
    });
  });

  describe('dates', () => {
    it("an offset is converted to the service's zone; without one the wall clock is kept; fractions to milliseconds", async () => {
      const service = await fresh({ timeZone: 'Europe/Prague' });
      const a = await service.admin.addAccount('ann', { name: 'A', currency: 203 });
      const b = await service.admin.addAccount('ann', { name: 'B', currency: 203 });
      const cases = [
        ['2026-04-01T07:15:00Z', '2026-04-01T09:15:00'],
        ['2026-01-15T23:30:00-01:00', '2026-01-16T01:30:00'],
        ['2026-04-01T07:15:00', '2026-04-01T07:15:00'],
        ['2026-04-01T07:15:00.1234567', '2026-04-01T07:15:00.123'],
      ];
      for (const [sent, kept] of cases) {
        const req = buildRequest(
          'soap12',
          { operation: 'AddTranferToOtherAccount', credentials: ANN, params: transfer(a, b, 1) },
          service.namespace,
        );
        const res = await send(service.url, { ...req, body: req.body.replace('2026-05-01T12:00:00', sent!) });
        expect(res.body).toContain(`<PaymentDate>${kept}</PaymentDate>`);
      }
    });

    it('a service in UTC converts to UTC', async () => {
      const service = await fresh({ timeZone: 'UTC' });
      const a = await service.admin.addAccount('ann', { name: 'A', currency: 203 });
      const b = await service.admin.addAccount('ann', { name: 'B', currency: 203 });
      const req = buildRequest(
        'httpGet',
        { operation: 'AddTranferToOtherAccount', credentials: ANN, params: transfer(a, b, 1) },
        service.namespace,
      );
      const res = await send(service.url, {
        ...req,
        path: req.path.replace('2026-05-01T12%3A00%3A00', encodeURIComponent('2026-05-01T12:00:00+02:00')),
      });
      expect(res.body).toContain('<PaymentDate>2026-05-01T10:00:00</PaymentDate>');
    });
  });

  describe('the category forest', () => {
    it('nests at most 10 levels and compares sibling names without regard to case, accents kept apart', async () => {
      const service = await fresh();
      let parent = 0;
      const levels: number[] = [];
      for (let level = 1; level <= 10; level++) levels.push((parent = await service.admin.addCategory('ann', `Level ${level}`, parent)));
      await expect(call(service, 'soap12', 'AddCategory', ANN, { Name: 'Level 11', Id_ParentCategory: parent })).rejects.toThrow(
        'Id_ParentCategory: categories nest at most 10 levels deep.',
      );
      await call(service, 'soap12', 'AddCategory', ANN, { Name: 'Účty', Id_ParentCategory: 0 });
      await expect(call(service, 'soap12', 'AddCategory', ANN, { Name: 'úČTY', Id_ParentCategory: 0 })).rejects.toThrow(
        'already exists at this level',
      );
      // A different letter is a different name, and the same name is fine under another parent.
      await call(service, 'soap12', 'AddCategory', ANN, { Name: 'Ucty', Id_ParentCategory: 0 });
      const tree = await call(service, 'soap12', 'AddCategory', ANN, { Name: 'Účty', Id_ParentCategory: levels[0]! });
      let depth = 0;
      for (let level = tree.AllCategories[0]; level; level = level.ChildCategories?.[0]) depth++;
      expect(depth).toBe(10);
      expect(tree.AllCategories[0]!.ChildCategories!.map((c) => c.Name)).toEqual(['Level 2', 'Účty']);
      // Renaming to its own name in another case is allowed.
      const top = tree.AllCategories.find((c) => c.Name === 'Účty')!;
      const renamed = await call(service, 'soap12', 'EditCategory', ANN, { Id_Category: top.Id, Name: 'ÚČTY' });
      expect(renamed.AllCategories.map((c) => c.Name)).toEqual(['Level 1', 'ÚČTY', 'Ucty']);
    });
  });
});
