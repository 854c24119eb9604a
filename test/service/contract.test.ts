/**
 * Every operation in every binding over real HTTP, answers checked element by element against the
 * interface: element names and order, namespaces, content types, status codes and the values the
 * fixture stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BINDINGS } from '../../src-shared/wire';
import { describeBackends } from '../support/backends';
import { callRaw } from '../support/http';
import type { TestService } from '../support/service';
import { ANN, startFixtureService, type Fixture } from './fixture';
import { category, list, record, resultNodes, type Node } from './wire-shape';

const NS = 'http://bookkeeping.example/api/';
/** "Now" of the service in these tests, so that the favourite categories (last 90 days) are known. */
const NOW = Date.parse('2026-03-01T12:00:00Z');

const yes = 'true';
const no = 'false';

function accountValues(fx: Fixture) {
  const a = fx.accounts;
  const acc = (
    Id: number,
    Name: string,
    Type: number,
    Currency: number,
    IsActive: string,
    Locked: string,
    Description: string,
    Ord: number,
    Perm: number,
    Amount: string,
    IsHidden: string,
  ) => ({
    Id: String(Id),
    Name,
    Type: String(Type),
    Currency: String(Currency),
    IsActive,
    Locked,
    Description,
    Ord: String(Ord),
    UserAccountPermission: String(Perm),
    Amount,
    IsHidden,
  });
  // By Ord, then Id: bob's shared accounts have Ord 1 and 2 too.
  return [
    acc(a.bank, 'Bank', 2, 203, yes, no, 'Main <account> & "savings"', 1, 3, '800.25', no),
    acc(a.bobRead, 'Bob household', 2, 203, yes, no, '', 1, 1, '99', no),
    acc(a.cash, 'Cash', 1, 203, yes, no, '', 2, 3, '0', no),
    acc(a.bobWrite, 'Bob shared wallet', 2, 203, yes, no, '', 2, 2, '50', no),
    acc(a.euro, 'Euro', 2, 978, yes, no, '', 3, 3, '10.01', no),
    acc(a.locked, 'Locked', 2, 203, yes, yes, '', 4, 3, '5', no),
    acc(a.inactive, 'Inactive', 2, 203, no, no, '', 5, 3, '5', no),
    acc(a.hidden, 'Hidden', 2, 203, yes, no, '', 6, 3, '0', yes),
  ];
}

function bankTransactions(fx: Fixture) {
  const common = { Id_User: String(fx.annId), Id_UserCreated: String(fx.annId), Id_Account: String(fx.accounts.bank) };
  return [
    {
      Id: String(fx.transactions.shopping),
      ...common,
      PaymentDate: '2026-02-01T08:30:00.5',
      Type: '2',
      Amount: '-200.25',
      Description: '',
      Id_Category: String(fx.categories.groceries),
    },
    {
      Id: String(fx.transactions.salary),
      ...common,
      PaymentDate: '2026-01-05T10:00:00',
      Type: '1',
      Amount: '1000.5',
      Description: 'Salary',
      Id_Category: '0',
    },
  ];
}

const without = <T extends Record<string, string>>(values: T, field: string): Record<string, string> => {
  const copy: Record<string, string> = { ...values };
  delete copy[field];
  return copy;
};

describeBackends(import.meta.url, (backend) => {
  describe.each(BINDINGS)('%s', (binding) => {
    let service: TestService;
    let fx: Fixture;
    beforeAll(async () => {
      ({ service, fixture: fx } = await startFixtureService({ backend, namespace: NS, service: { now: () => NOW } }));
    });
    afterAll(() => service.close());
    const nodes = async <N extends Parameters<typeof callRaw>[2]>(operation: N, params: Parameters<typeof callRaw<N>>[4]) =>
      resultNodes(binding, operation, await callRaw(service, binding, operation, ANN, params), NS);

    describe('reads', () => {
      it('AccountList2 and AccountListWithAmount2: apiAccount2 records with balances, by Ord then Id', async () => {
        const expected = [list(accountValues(fx).map((v) => record('apiAccount2', v)))];
        expect(await nodes('AccountList2', {})).toEqual(expected);
        expect(await nodes('AccountListWithAmount2', {})).toEqual(expected);
      });

      it('AccountListWithAmount: apiAccount records without IsHidden', async () => {
        expect(await nodes('AccountListWithAmount', {})).toEqual([
          list(accountValues(fx).map((v) => record('apiAccount', without(v, 'IsHidden')))),
        ]);
      });

      it('TransactionListLast50_2 and TransactionListLast50: newest first', async () => {
        const rows = bankTransactions(fx);
        expect(await nodes('TransactionListLast50_2', { AccountId: fx.accounts.bank })).toEqual([
          list(rows.map((v) => record('apiTransaction2', v))),
        ]);
        expect(await nodes('TransactionListLast50', { AccountId: fx.accounts.bank })).toEqual([
          list(rows.map((v) => record('apiTransaction', without(v, 'Id')))),
        ]);
        expect(await nodes('TransactionListLast50_2', { AccountId: fx.accounts.cash })).toEqual([list([])]);
      });

      it('DefineTransactionList and DefineTransactionList2', async () => {
        const values = {
          Id: String(fx.template),
          Id_User: String(fx.annId),
          Id_UserCreated: String(fx.annId),
          Id_Account: String(fx.accounts.bank),
          Type: '2',
          Amount: '-14500',
          Description: 'Rent',
          Id_Category: String(fx.categories.food),
        };
        expect(await nodes('DefineTransactionList', {})).toEqual([list([record('apiDefineTransaction', values)])]);
        expect(await nodes('DefineTransactionList2', {})).toEqual([list([record('apiDefineTransaction2', { ...values, Ord: '1' })])]);
      });

      it('CarFuelList: the car of the caller only, newest first', async () => {
        const common = { Id_UserCreated: String(fx.annId), Id_Car: '7' };
        expect(await nodes('CarFuelList', { CarId: 7 })).toEqual([
          list([
            record('apiCarFuel', {
              Id: String(fx.refuelings.second),
              ...common,
              DateOfPurchase: '2026-03-15T18:00:00',
              Tachometer: '121100',
              Liter: '38.5',
              Price: '60.25',
              Description: 'OMV',
              Currency: '978',
              Rate: '25.1',
            }),
            record('apiCarFuel', {
              Id: String(fx.refuelings.first),
              ...common,
              DateOfPurchase: '2026-03-01T07:30:00',
              Tachometer: '120500',
              Liter: '41.27',
              Price: '1650.8',
              Description: 'Shell',
              Currency: '203',
              Rate: '1',
            }),
          ]),
        ]);
        expect(await nodes('CarFuelList', { CarId: 8 })).toEqual([list([])]);
      });

      it('CategoryTree: FavoritCategories flat, AllCategories nested, nil ChildCategories for leaves', async () => {
        const c = fx.categories;
        expect(await nodes('CategoryTree', {})).toEqual([
          [
            'Data',
            [
              ['FavoritCategories', [category(c.groceries, 'Groceries', null)]],
              ['AllCategories', [category(c.food, 'Food', [category(c.groceries, 'Groceries', null)]), category(c.car, 'Car', null)]],
            ],
          ],
        ]);
      });
    });

    describe('writes', () => {
      it('AddAccount answers the new account under Data, owned by the caller', async () => {
        const [data] = await nodes('AddAccount', {
          Name: `New ${binding}`,
          Description: 'd & <x>',
          Currency: 978,
          Type: 4,
          IsActive: true,
          IsHidden: true,
          Locked: false,
          Ord: 9,
        });
        const id = Number((data![1] as Node[])[0]![1]);
        expect(id).toBeGreaterThan(fx.accounts.bobOwn);
        expect(data).toEqual([
          'Data',
          record('apiAccount2', {
            Id: String(id),
            Name: `New ${binding}`,
            Type: '4',
            Currency: '978',
            IsActive: yes,
            Locked: no,
            Description: 'd & <x>',
            Ord: '9',
            UserAccountPermission: '3',
            Amount: '0',
            IsHidden: yes,
          })[1],
        ]);
      });

      it('EditAccount replaces every field but the currency and the balance', async () => {
        expect(
          await nodes('EditAccount', {
            Id_Account: fx.accounts.euro,
            Name: 'Euro renamed',
            Description: '',
            Type: 6,
            IsActive: false,
            IsHidden: true,
            Locked: true,
            Ord: 7,
          }),
        ).toEqual([
          [
            'Data',
            record('apiAccount2', {
              Id: String(fx.accounts.euro),
              Name: 'Euro renamed',
              Type: '6',
              Currency: '978',
              IsActive: no,
              Locked: yes,
              Description: '',
              Ord: '7',
              UserAccountPermission: '3',
              Amount: '10.01',
              IsHidden: yes,
            })[1],
          ],
        ]);
      });

      it('AddTranferToOtherAccount answers Transaction1 (-Amount on the source) and Transaction2 (+Amount), no Data', async () => {
        const result = await nodes('AddTranferToOtherAccount', {
          Amount: 0.1,
          Description: 'Move',
          Id_SourceAccount: fx.accounts.bank,
          Id_TargetAccount: fx.accounts.bobWrite,
          Id_Category: fx.categories.car,
          PaymentDate: '2026-04-01T09:15:00.25',
        });
        const id1 = Number((result[0]![1] as Node[])[0]![1]);
        const common = {
          Id_UserCreated: String(fx.annId),
          PaymentDate: '2026-04-01T09:15:00.25',
          Type: '3',
          Description: 'Move',
          Id_Category: String(fx.categories.car),
        };
        expect(result).toEqual([
          [
            'Transaction1',
            record('apiTransaction2', {
              Id: String(id1),
              Id_User: String(fx.annId),
              Id_Account: String(fx.accounts.bank),
              Amount: '-0.1',
              ...common,
            })[1],
          ],
          // Id_User is the owner of the account: the target is bob's, shared with ann for writing.
          [
            'Transaction2',
            record('apiTransaction2', {
              Id: String(id1 + 1),
              Id_User: String(fx.bobId),
              Id_Account: String(fx.accounts.bobWrite),
              Amount: '0.1',
              ...common,
            })[1],
          ],
        ]);
        const [accounts] = await nodes('AccountListWithAmount2', {});
        const amountOf = (id: number) =>
          ((accounts![1] as Node[]).find((r) => (r[1] as Node[])[0]![1] === String(id))![1] as Node[]).find((f) => f[0] === 'Amount')![1];
        expect(amountOf(fx.accounts.bank)).toBe('800.15');
        expect(amountOf(fx.accounts.bobWrite)).toBe('50.1');
      });

      it('AddCategory answers the whole tree with the new category', async () => {
        const [data] = await nodes('AddCategory', { Name: 'Fuel', Id_ParentCategory: fx.categories.car });
        const all = (data![1] as Node[])[1]!;
        const car = (all[1] as Node[])[1]!;
        const fuel = ((car[1] as Node[])[2]![1] as Node[])[0]!;
        const fuelId = Number((fuel[1] as Node[])[0]![1]);
        expect(fuelId).toBeGreaterThan(fx.categories.bobs);
        expect(car).toEqual(category(fx.categories.car, 'Car', [category(fuelId, 'Fuel', null)]));
      });

      it('EditCategory renames and answers the tree', async () => {
        const [data] = await nodes('EditCategory', { Id_Category: fx.categories.groceries, Name: 'Supermarket' });
        const [favorites, all] = data![1] as Node[];
        expect(favorites).toEqual(['FavoritCategories', [category(fx.categories.groceries, 'Supermarket', null)]]);
        expect((all![1] as Node[])[0]).toEqual(
          category(fx.categories.food, 'Food', [category(fx.categories.groceries, 'Supermarket', null)]),
        );
      });

      it('EditCarFuel with Id_CarFuel 0 creates a refueling; with its Id replaces it', async () => {
        const fields = {
          CarId: 7,
          Liter: 40.5,
          Price: 1500.5,
          Tachometer: 130000,
          DateOfPurchase: '2026-05-01T10:00:00',
          Currency: 203,
          Description: '',
          Rate: 1,
        };
        const [created] = await nodes('EditCarFuel', { ...fields, Id_CarFuel: 0 });
        const id = Number((created![1] as Node[])[0]![1]);
        expect(id).toBeGreaterThan(fx.refuelings.bobs);
        const values = {
          Id: String(id),
          Id_UserCreated: String(fx.annId),
          DateOfPurchase: '2026-05-01T10:00:00',
          Id_Car: '7',
          Tachometer: '130000',
          Liter: '40.5',
          Price: '1500.5',
          Description: '',
          Currency: '203',
          Rate: '1',
        };
        expect(created).toEqual(['Data', record('apiCarFuel', values)[1]]);
        const [edited] = await nodes('EditCarFuel', { ...fields, Id_CarFuel: id, CarId: 9, Liter: 12.25, Currency: 978, Rate: 24.95 });
        expect(edited).toEqual([
          'Data',
          record('apiCarFuel', { ...values, Id_Car: '9', Liter: '12.25', Currency: '978', Rate: '24.95' })[1],
        ]);
        const [car9] = await nodes('CarFuelList', { CarId: 9 });
        expect((car9![1] as Node[]).map((r) => (r[1] as Node[])[0]![1])).toEqual([String(id)]);
      });
    });
  });

  describe('raw wire text', () => {
    let service: TestService;
    beforeAll(async () => {
      ({ service } = await startFixtureService({ backend }));
    });
    afterAll(() => service.close());

    it('uses the default namespace http://tempuri.org/, writes empty strings as <X />, and escapes text', async () => {
      expect(service.namespace).toBe('http://tempuri.org/');
      const res = await callRaw(service, 'soap12', 'AccountList2', ANN, {});
      expect(res.body).toContain('<AccountList2Response xmlns="http://tempuri.org/"><AccountList2Result><Data><apiAccount2><Id>');
      expect(res.body).toContain('<Description>Main &lt;account&gt; &amp; "savings"</Description>');
      expect(res.body).toContain('<Description />');
      expect(res.body).toMatch(
        /^<\?xml version="1\.0" encoding="utf-8"\?><soap:Envelope xmlns:soap="http:\/\/www\.w3\.org\/2003\/05\/soap-envelope" xmlns:xsi="http:\/\/www\.w3\.org\/2001\/XMLSchema-instance" xmlns:xsd="http:\/\/www\.w3\.org\/2001\/XMLSchema"><soap:Body>/,
      );
    });

    it('writes nil ChildCategories with xsi:nil="true"', async () => {
      const res = await callRaw(service, 'httpGet', 'CategoryTree', ANN, {});
      expect(res.body).toContain('<Name>Car</Name><ChildCategories xsi:nil="true" /></apiCategory>');
    });
  });
});
