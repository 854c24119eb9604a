/** A user sees and touches only their own data and what is shared with them, as far as it is shared. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeBackends } from '../support/backends';
import { call } from '../support/http';
import type { TestService } from '../support/service';
import { ANN, BOB, startFixtureService, type Fixture } from './fixture';

describeBackends(import.meta.url, (backend) => {
  let service: TestService;
  let fx: Fixture;
  beforeAll(async () => {
    ({ service, fixture: fx } = await startFixtureService({ backend }));
  });
  afterAll(() => service.close());

  describe('what each user sees', () => {
    it('accounts: own ones and shared ones, with the permission held', async () => {
      const ann = await call(service, 'soap12', 'AccountList2', ANN, {});
      const bob = await call(service, 'soap12', 'AccountList2', BOB, {});
      const a = fx.accounts;
      expect(ann.map((x) => [x.Id, x.UserAccountPermission]).sort((p, q) => p[0]! - q[0]!)).toEqual([
        [a.bank, 3],
        [a.cash, 3],
        [a.euro, 3],
        [a.locked, 3],
        [a.inactive, 3],
        [a.hidden, 3],
        [a.bobRead, 1],
        [a.bobWrite, 2],
      ]);
      expect(bob.map((x) => [x.Id, x.UserAccountPermission])).toEqual([
        [a.bobRead, 3],
        [a.bobWrite, 3],
        [a.bobOwn, 3],
      ]);
    });

    it("transactions of a shared account, not of anyone else's", async () => {
      expect((await call(service, 'soap12', 'TransactionListLast50_2', ANN, { AccountId: fx.accounts.bobRead })).map((t) => t.Id)).toEqual([
        fx.transactions.bobs,
      ]);
      await expect(call(service, 'soap12', 'TransactionListLast50_2', BOB, { AccountId: fx.accounts.bank })).rejects.toThrow(
        `AccountId: account ${fx.accounts.bank} does not exist.`,
      );
    });

    it("categories, templates and cars are each user's own (both have a car 7)", async () => {
      const bobTree = await call(service, 'soap12', 'CategoryTree', BOB, {});
      expect(bobTree.AllCategories.map((c) => c.Id)).toEqual([fx.categories.bobs]);
      expect(await call(service, 'soap12', 'DefineTransactionList2', BOB, {})).toEqual([]);
      expect((await call(service, 'soap12', 'CarFuelList', BOB, { CarId: 7 })).map((r) => r.Id)).toEqual([fx.refuelings.bobs]);
      expect((await call(service, 'soap12', 'CarFuelList', ANN, { CarId: 7 })).map((r) => r.Id)).toEqual([
        fx.refuelings.second,
        fx.refuelings.first,
      ]);
    });
  });

  describe('what each user may change', () => {
    it("bob cannot touch ann's records by their ids", async () => {
      await expect(
        call(service, 'httpPost', 'EditAccount', BOB, {
          Id_Account: fx.accounts.bank,
          Name: 'Stolen',
          Description: '',
          Type: 1,
          IsActive: true,
          IsHidden: false,
          Locked: false,
          Ord: 0,
        }),
      ).rejects.toThrow('does not exist');
      await expect(call(service, 'httpPost', 'EditCategory', BOB, { Id_Category: fx.categories.food, Name: 'Stolen' })).rejects.toThrow(
        'does not exist',
      );
      await expect(
        call(service, 'httpPost', 'AddCategory', BOB, { Name: 'Inside', Id_ParentCategory: fx.categories.food }),
      ).rejects.toThrow('does not exist');
      await expect(
        call(service, 'httpPost', 'EditCarFuel', BOB, {
          CarId: 7,
          Id_CarFuel: fx.refuelings.first,
          Liter: 1,
          Price: 1,
          Tachometer: 1,
          DateOfPurchase: '2026-01-01T00:00:00',
          Currency: 203,
          Description: '',
          Rate: 1,
        }),
      ).rejects.toThrow('does not exist');
      await expect(
        call(service, 'httpPost', 'AddTranferToOtherAccount', BOB, {
          Amount: 1,
          Description: '',
          Id_SourceAccount: fx.accounts.bank,
          Id_TargetAccount: fx.accounts.bobOwn,
          Id_Category: 0,
          PaymentDate: '2026-01-01T00:00:00',
        }),
      ).rejects.toThrow('does not exist');
      // Nothing of ann's changed.
      const bank = (await call(service, 'soap12', 'AccountList2', ANN, {})).find((a) => a.Id === fx.accounts.bank)!;
      expect([bank.Name, bank.Amount]).toEqual(['Bank', 800.25]);
    });

    it('write permission allows editing and transfers; the permission stays 2', async () => {
      const edited = await call(service, 'soap12', 'EditAccount', ANN, {
        Id_Account: fx.accounts.bobWrite,
        Name: 'Shared wallet',
        Description: 'ann was here',
        Type: 1,
        IsActive: true,
        IsHidden: false,
        Locked: false,
        Ord: 2,
      });
      expect([edited.Name, edited.UserAccountPermission]).toEqual(['Shared wallet', 2]);
      const pair = await call(service, 'soap12', 'AddTranferToOtherAccount', ANN, {
        Amount: 5,
        Description: '',
        Id_SourceAccount: fx.accounts.bobWrite,
        Id_TargetAccount: fx.accounts.cash,
        Id_Category: 0,
        PaymentDate: '2026-01-02T00:00:00',
      });
      expect([pair.Transaction1.Id_User, pair.Transaction1.Id_UserCreated, pair.Transaction2.Id_User]).toEqual([
        fx.bobId,
        fx.annId,
        fx.annId,
      ]);
      expect((await call(service, 'soap12', 'AccountList2', BOB, {})).find((a) => a.Id === fx.accounts.bobWrite)!.Amount).toBe(45);
    });

    it('a share can be narrowed to read and then refuses writes', async () => {
      await service.admin.shareAccount(fx.accounts.bobWrite, 'ann', 1);
      await expect(
        call(service, 'soap12', 'EditAccount', ANN, {
          Id_Account: fx.accounts.bobWrite,
          Name: 'x',
          Description: '',
          Type: 1,
          IsActive: true,
          IsHidden: false,
          Locked: false,
          Ord: 2,
        }),
      ).rejects.toThrow('is read-only for you');
      expect(
        (await call(service, 'soap12', 'AccountList2', ANN, {})).find((a) => a.Id === fx.accounts.bobWrite)!.UserAccountPermission,
      ).toBe(1);
    });

    it('an account ann adds is hers alone', async () => {
      const added = await call(service, 'soap12', 'AddAccount', ANN, {
        Name: 'Private',
        Description: '',
        Currency: 203,
        Type: 1,
        IsActive: true,
        IsHidden: false,
        Locked: false,
        Ord: 0,
      });
      expect((await call(service, 'soap12', 'AccountList2', BOB, {})).some((a) => a.Id === added.Id)).toBe(false);
    });
  });
});
