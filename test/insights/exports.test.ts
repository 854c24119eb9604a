/** CSV exports through a real core: the exact files for transactions and refuelings, filters, names. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededCore, type SeededCore } from './local-data';

let local: SeededCore;
let pendingFuel = 0;
let pendingTransfer = 0;

beforeAll(async () => {
  local = seededCore({
    accounts: [
      { id: 1, name: 'Current, main', currency: 203, balance: '0' },
      { id: 2, name: 'Euro', currency: 978, balance: '0' },
      { id: 3, name: 'Odd', currency: 999, balance: '0' },
    ],
    categories: [
      { id: 10, name: 'Food', parentId: 0 },
      { id: 11, name: 'Groceries', parentId: 10 },
    ],
    transactions: [
      { id: 1, accountId: 1, paymentDate: '2026-01-02T10:00:00', amount: '-120.5', description: '=HYPERLINK("http://x")', categoryId: 11 },
      {
        id: 2,
        accountId: 2,
        paymentDate: '2026-01-03T10:00:00',
        amount: '0.1',
        description: 'Line one\nline "two"',
        categoryId: 0,
        type: 1,
      },
      { id: 3, accountId: 3, paymentDate: '2026-01-04T10:00:00', amount: '1000000', description: '-minus', categoryId: 77, type: 1 },
    ],
    cars: [
      { carId: 1, name: 'Octavia' },
      { carId: 2, name: '@Fabia' },
    ],
    refuelings: [
      { id: 11, carId: 1, dateOfPurchase: '2026-02-01T08:00:00', tachometer: 10_000, liter: '41.27', price: '1650.8' },
      {
        id: 12,
        carId: 1,
        dateOfPurchase: '2026-01-01T08:00:00',
        tachometer: 9_500,
        liter: '10',
        price: '12.5',
        currency: 978,
        rate: '25.3',
        description: 'Wien, "Shell"',
      },
      { id: 21, carId: 2, dateOfPurchase: '2026-01-15T08:00:00', tachometer: 500, liter: '30', price: '0' },
    ],
  });
  await local.core.setRefuelingPartial({ id: 12, partial: true });
  pendingFuel = (
    await local.core.addRefueling({
      carId: 1,
      dateOfPurchase: '2026-02-20T07:30',
      tachometer: 10_600,
      liter: '38',
      price: '1520',
      currency: 203,
      rate: '1',
      description: '',
    })
  ).id;
  await local.core.setRefuelingPartial({ id: pendingFuel, partial: true });
  // A transfer needs two accounts of one currency: a second CZK account.
  await local.core.addAccount({
    name: 'Cash',
    description: '',
    currency: 203,
    type: 1,
    isActive: true,
    isHidden: false,
    locked: false,
    ord: 9,
  });
  const cash = (await local.core.listAccounts({})).accounts.find((a) => a.name === 'Cash')!;
  pendingTransfer = (
    await local.core.transfer({
      sourceId: 1,
      targetId: cash.id,
      amount: '0.3',
      paymentDate: '2026-01-05T09:00',
      categoryId: 10,
      description: 'To cash',
    })
  ).id;
});
afterAll(() => local.done());

const lines = (content: string) => {
  expect(content.endsWith('\r\n')).toBe(true);
  return content.slice(0, -2).split('\r\n');
};

describe('exportTransactionsCsv', () => {
  it('writes every match with account, currency letters, category path and the pending mark', async () => {
    const file = await local.core.exportTransactionsCsv({ accountId: 1 });
    expect(file.fileName).toMatch(/^transactions-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file.rows).toBe(2);
    expect(lines(file.content)).toEqual([
      'date,account,account_id,currency,amount,type,category,category_id,description,id,pending',
      `2026-01-05T09:00:00,"Current, main",1,CZK,-0.3,3,Food,10,To cash,${pendingTransfer},true`,
      `2026-01-02T10:00:00,"Current, main",1,CZK,-120.5,2,Food / Groceries,11,"'=HYPERLINK(""http://x"")",1,false`,
    ]);
  });

  it('takes the search filters and writes unknown codes as they are', async () => {
    const file = await local.core.exportTransactionsCsv({ direction: 'in' });
    expect(lines(file.content).slice(1)).toEqual([
      expect.stringMatching(/^2026-01-05T09:00:00,Cash,-\d+,CZK,0\.3,3,Food,10,To cash,-\d+,true$/),
      "2026-01-04T10:00:00,Odd,3,#999,1000000,1,,77,'-minus,3,false",
      '2026-01-03T10:00:00,Euro,2,EUR,0.1,1,,0,"Line one\nline ""two""",2,false',
    ]);
    expect((await local.core.exportTransactionsCsv({ text: 'nothing like this' })).content).toBe(
      'date,account,account_id,currency,amount,type,category,category_id,description,id,pending\r\n',
    );
  });
});

describe('exportRefuelingsCsv', () => {
  const header = 'car_id,car_name,date,odometer,liters,price,currency,rate,price_per_liter,partial,description,id,pending';

  it('writes one car oldest first, with the partial mark and pending refuelings', async () => {
    const file = await local.core.exportRefuelingsCsv({ carId: 1 });
    expect(file.fileName).toMatch(/^refuelings-car-1-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(lines(file.content)).toEqual([
      header,
      // 12.5 / 10 = 1.25 EUR per litre (in the refueling's own currency)
      '1,Octavia,2026-01-01T08:00:00,9500,10,12.5,EUR,25.3,1.25,true,"Wien, ""Shell""",12,false',
      '1,Octavia,2026-02-01T08:00:00,10000,41.27,1650.8,CZK,1,40,false,,11,false',
      `1,Octavia,2026-02-20T07:30:00,10600,38,1520,CZK,1,40,true,,${pendingFuel},true`,
    ]);
  });

  it('writes every car when none is given, and refuses an unknown one', async () => {
    const file = await local.core.exportRefuelingsCsv({});
    expect(file.fileName).toMatch(/^refuelings-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file.rows).toBe(4);
    // Cars in the car list's order (by name): '@Fabia' before 'Octavia'; a name is text, so defused.
    expect(lines(file.content)[1]).toBe("2,'@Fabia,2026-01-15T08:00:00,500,30,0,CZK,1,0,false,,21,false");
    expect(
      lines(file.content)
        .slice(2)
        .map((l) => l.split(',')[0]),
    ).toEqual(['1', '1', '1']);
    await expect(local.core.exportRefuelingsCsv({ carId: 5 })).rejects.toMatchObject({ kind: 'not-found', field: 'carId' });
    await expect(local.core.exportRefuelingsCsv({ carId: 0 })).rejects.toMatchObject({ kind: 'invalid-input', field: 'carId' });
  });
});
