/**
 * A small data set with known values for the service tests, made with the admin functions: user ann
 * (the caller of most tests) with accounts in every state, a category tree, transactions, a template and
 * refuelings; user bob, who shares one account with ann read-only and one writable, and keeps the rest
 * to himself.
 */
import { TEST_HASH_PARAMS, type AdminSession } from '../../src-service';
import type { Credentials } from '../../src-shared/catalog';
import { startTestService, type TestService, type TestServiceOptions } from '../support/service';

export const CLIENT_KEY = 'test-app';
export const ANN: Credentials = { clientKey: CLIENT_KEY, login: 'ann', password: 'ann-secret' };
export const BOB: Credentials = { clientKey: CLIENT_KEY, login: 'bob', password: 'bob-secret' };

export interface Fixture {
  annId: number;
  bobId: number;
  accounts: {
    bank: number;
    cash: number;
    euro: number;
    locked: number;
    inactive: number;
    hidden: number;
    /** bob's, shared with ann read-only. */
    bobRead: number;
    /** bob's, shared with ann for writing. */
    bobWrite: number;
    /** bob's alone. */
    bobOwn: number;
  };
  categories: { food: number; groceries: number; car: number; bobs: number };
  transactions: { salary: number; shopping: number; bobs: number };
  template: number;
  refuelings: { first: number; second: number; bobs: number };
}

const opts = { hashParams: TEST_HASH_PARAMS };

/** The fixture's data, made through the operator functions of either store. */
export async function createFixture(admin: AdminSession): Promise<Fixture> {
  await admin.addClient(CLIENT_KEY, 'tests');
  const annId = await admin.addUser(ANN.login, ANN.password, opts);
  const bobId = await admin.addUser(BOB.login, BOB.password, opts);
  const account = (login: string, name: string, extra: Partial<Parameters<AdminSession['addAccount']>[1]> = {}) =>
    admin.addAccount(login, { name, currency: 203, ...extra });
  const accounts = {
    bank: await account('ann', 'Bank', { type: 2, ord: 1, description: 'Main <account> & "savings"' }),
    cash: await account('ann', 'Cash', { type: 1, ord: 2 }),
    euro: await account('ann', 'Euro', { currency: 978, ord: 3 }),
    locked: await account('ann', 'Locked', { ord: 4, locked: true }),
    inactive: await account('ann', 'Inactive', { ord: 5, isActive: false }),
    hidden: await account('ann', 'Hidden', { ord: 6, isHidden: true }),
    bobRead: await account('bob', 'Bob household', { ord: 1 }),
    bobWrite: await account('bob', 'Bob shared wallet', { ord: 2 }),
    bobOwn: await account('bob', 'Bob private', { ord: 3 }),
  };
  await admin.shareAccount(accounts.bobRead, 'ann', 1);
  await admin.shareAccount(accounts.bobWrite, 'ann', 2);
  const food = await admin.addCategory('ann', 'Food');
  const categories = {
    food,
    groceries: await admin.addCategory('ann', 'Groceries', food),
    car: await admin.addCategory('ann', 'Car'),
    bobs: await admin.addCategory('bob', 'Bob stuff'),
  };
  const transactions = {
    salary: await admin.addTransaction('ann', {
      accountId: accounts.bank,
      amount: 1000.5,
      paymentDate: '2026-01-05T10:00:00',
      description: 'Salary',
    }),
    shopping: await admin.addTransaction('ann', {
      accountId: accounts.bank,
      amount: -200.25,
      paymentDate: '2026-02-01T08:30:00.5',
      description: '',
      categoryId: categories.groceries,
    }),
    bobs: await admin.addTransaction('bob', { accountId: accounts.bobRead, amount: 99, paymentDate: '2026-01-01T00:00:00' }),
  };
  await admin.addTransaction('ann', { accountId: accounts.euro, amount: 10.01, paymentDate: '2026-01-01T00:00:00' });
  await admin.addTransaction('ann', { accountId: accounts.locked, amount: 5, paymentDate: '2026-01-01T00:00:00' });
  await admin.addTransaction('ann', { accountId: accounts.inactive, amount: 5, paymentDate: '2026-01-01T00:00:00' });
  await admin.addTransaction('bob', { accountId: accounts.bobWrite, amount: 50, paymentDate: '2026-01-01T00:00:00' });
  const template = await admin.addTemplate('ann', {
    accountId: accounts.bank,
    type: 2,
    amount: -14500,
    description: 'Rent',
    categoryId: food,
    ord: 1,
  });
  const refuelings = {
    first: await admin.addRefueling('ann', {
      carId: 7,
      dateOfPurchase: '2026-03-01T07:30:00',
      tachometer: 120500,
      liter: 41.27,
      price: 1650.8,
      currency: 203,
      description: 'Shell',
    }),
    second: await admin.addRefueling('ann', {
      carId: 7,
      dateOfPurchase: '2026-03-15T18:00:00',
      tachometer: 121100,
      liter: 38.5,
      price: 60.25,
      currency: 978,
      rate: 25.1,
      description: 'OMV',
    }),
    bobs: await admin.addRefueling('bob', {
      carId: 7,
      dateOfPurchase: '2026-03-02T07:30:00',
      tachometer: 5000,
      liter: 30,
      price: 1200,
      currency: 203,
    }),
  };
  return { annId, bobId, accounts, categories, transactions, template, refuelings };
}

export async function startFixtureService(
  opts: Omit<TestServiceOptions, 'demo'> = {},
): Promise<{ service: TestService; fixture: Fixture }> {
  const service = await startTestService(opts);
  return { service, fixture: await createFixture(service.admin) };
}
