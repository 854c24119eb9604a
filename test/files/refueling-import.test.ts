/**
 * The refueling import on real cores: the mapping guessed from the header, Czech files, rows with
 * problems named by column, duplicates, and the import queued in one transaction and synced to a real
 * service, partial marks included.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importProblemText, type ImportPreview, type ImportRow } from '../../src-shared/app-api';
import { REFUELING } from '../../src-shared/records/refueling';
import { localWrites, newUser, openCore, tempDir, type UserSession } from '../support/client';
import { startTestService, type TestService } from '../support/service';
import { refusal } from './refusal';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

/** A user with car 4 and one synced refueling of it (2026-01-05 08:00, 10000 km, 40 l). */
async function withCar(): Promise<UserSession> {
  const s = await newUser(service);
  await s.core.saveCar({ carId: 4, name: 'Superb' });
  await s.core.addRefueling({
    carId: 4,
    dateOfPurchase: '2026-01-05T08:00',
    tachometer: 10000,
    liter: '40',
    price: '1500',
    currency: 203,
    rate: '1',
    description: 'synced',
  });
  expect((await s.core.sync()).error).toBeNull();
  return s;
}

/** What our own export writes: lowercase English headers among other columns. */
const EXPORTED = [
  'id,car,date,odometer,liters,price,currency,rate,price per liter,partial,description',
  '11,4,2026-01-20 07:45,10650,38.5,1540.00,CZK,1,40,no,Benzina Brno',
  '12,4,2026-02-02 18:10:00,11200,20.125,45.50,EUR,25.15,2.26,yes,"Vienna, partial"',
  "13,4,2026-02-15 09:00,11700,41,1600,203,1,39.02,0,'=not a formula",
].join('\r\n');

/** Rows with their problems in the command line's English words. */
const worded = (rows: ImportRow[]) => rows.map((r) => ({ ...r, problems: r.problems.map(importProblemText) }));

describe('refueling import preview', () => {
  it('maps an exported file without help and reads every row as the app would', async () => {
    const s = await withCar();
    try {
      const p = await s.core.previewRefuelingImport({ carId: 4, content: EXPORTED, currency: 203 });
      expect(p).toMatchObject({
        carId: 4,
        delimiter: ',',
        mapping: { dateOfPurchase: 2, tachometer: 3, liter: 4, price: 5, currency: 6, rate: 7, partial: 9, description: 10 },
      });
      expect(p.counts).toEqual({ rows: 3, ready: 3, problems: 0, duplicates: 0 });
      // Every field of the refueling's table: the file's, and the marks it has no column of at their defaults.
      expect(p.rows.map((r) => r.refueling)).toEqual([
        {
          ...REFUELING.localDefaults,
          carId: 4,
          dateOfPurchase: '2026-01-20T07:45:00',
          tachometer: 10650,
          liter: '38.5',
          price: '1540',
          currency: 203,
          rate: '1',
          description: 'Benzina Brno',
          partial: false,
        },
        {
          ...REFUELING.localDefaults,
          carId: 4,
          dateOfPurchase: '2026-02-02T18:10:00',
          tachometer: 11200,
          liter: '20.125',
          price: '45.5',
          currency: 978,
          rate: '25.15',
          description: 'Vienna, partial',
          partial: true,
        },
        {
          ...REFUELING.localDefaults,
          carId: 4,
          dateOfPurchase: '2026-02-15T09:00:00',
          tachometer: 11700,
          liter: '41',
          price: '1600',
          currency: 203,
          rate: '1',
          description: '=not a formula',
          partial: false,
        },
      ]);
      expect(p.rows.map((r) => r.line)).toEqual([2, 3, 4]);
      // A preview queues nothing.
      expect(await s.core.listOutbox()).toEqual([]);
    } finally {
      await s.done();
    }
  });

  it('reads a Czech file: semicolons, decimal commas, Czech dates, the default currency', async () => {
    const s = await withCar();
    try {
      const csv =
        '\uFEFFDatum;Stav tachometru;Litry;Cena;Poznámka;Částečné\n20.1.2026 7:45;10 650;38,5;1 540,00;Brno;ne\n2. 2. 2026;11 200;20,125;812,3;;ano\n';
      const p = await s.core.previewRefuelingImport({ carId: 4, content: csv, currency: 203 });
      expect(p.delimiter).toBe(';');
      expect(p.header).toEqual(['Datum', 'Stav tachometru', 'Litry', 'Cena', 'Poznámka', 'Částečné']);
      expect(p.counts).toEqual({ rows: 2, ready: 2, problems: 0, duplicates: 0 });
      expect(p.rows[0]!.refueling).toMatchObject({
        dateOfPurchase: '2026-01-20T07:45:00',
        tachometer: 10650,
        liter: '38.5',
        price: '1540',
        currency: 203,
        rate: '1',
        partial: false,
      });
      expect(p.rows[1]!.refueling).toMatchObject({
        dateOfPurchase: '2026-02-02T00:00:00',
        liter: '20.125',
        price: '812.3',
        description: '',
        partial: true,
      });
    } finally {
      await s.done();
    }
  });

  it('names the column of every problem of a row, and keeps the good rows ready: every row exactly, by its line', async () => {
    const s = await withCar();
    try {
      const csv = [
        'date,km,litres,total,currency,rate',
        '2026-03-01 10:00,12000,40,1600,CZK,1',
        'soon,12x,0,1600.555,XYZ,1',
        '2026-03-03 10:00,,40.1234,1600,,0',
        '2026-03-04 10:00,12500,40,10.5,JPY,0.2',
      ].join('\n');
      const p = await s.core.previewRefuelingImport({ carId: 4, content: csv, currency: 203 });
      const problem = (line: number, problems: string[]) => ({ line, refueling: null, problems, duplicateOf: null });
      expect({ mapping: p.mapping, rows: worded(p.rows), counts: p.counts }).toEqual({
        mapping: { dateOfPurchase: 0, tachometer: 1, liter: 2, price: 3, currency: 4, rate: 5 },
        rows: [
          {
            line: 2,
            refueling: {
              ...REFUELING.localDefaults,
              carId: 4,
              dateOfPurchase: '2026-03-01T10:00:00',
              tachometer: 12000,
              liter: '40',
              price: '1600',
              currency: 203,
              rate: '1',
              description: '',
              partial: false,
            },
            problems: [],
            duplicateOf: null,
          },
          problem(3, [
            'Column "date": "soon" is not a date such as 2026-11-21 14:05 or 21.11.2026 14:05.',
            'Column "km": "12x" is not a number.',
            'Column "currency": "XYZ" is not a currency the app knows (use a code such as CZK, EUR or 203).',
          ]),
          // A missing odometer is the row's one problem: the rest is not read further.
          problem(4, ['Column "km": the odometer is missing.']),
          problem(5, ['Column "total": The price has more decimal places than JPY allows (0).']),
        ],
        counts: { rows: 4, ready: 1, problems: 3, duplicates: 0 },
      });
      // Once the values read, the app's own schema and rules speak, naming the column all the same.
      const more = await s.core.previewRefuelingImport({
        carId: 4,
        content: 'date,km,litres,total,rate\n2026-03-05,12600,0,1600.555,0\n2026-03-06,12700,40.1234,100,1',
        currency: 203,
      });
      expect({ rows: worded(more.rows), counts: more.counts }).toEqual({
        rows: [
          problem(2, [
            'Column "litres": must be greater than zero.',
            'Column "rate": must be greater than zero.',
            'Column "total": The price has more decimal places than CZK allows (2).',
          ]),
          problem(3, ['Column "litres": must have at most 3 decimal places.']),
        ],
        counts: { rows: 2, ready: 0, problems: 2, duplicates: 0 },
      });
    } finally {
      await s.done();
    }
  });

  it('asks for a mapping when the header does not tell, and checks a mapping given', async () => {
    const s = await withCar();
    try {
      const csv = 'when,distance,amount of fuel,paid\n2026-03-01,12000,40,1600';
      const guessed = await s.core.previewRefuelingImport({ carId: 4, content: csv, currency: 203 });
      expect(guessed.mapping).toEqual({});
      expect(guessed.rows[0]!.problems.map(importProblemText)).toEqual([
        'No column is chosen for the date.',
        'No column is chosen for the odometer.',
        'No column is chosen for the litres.',
        'No column is chosen for the price.',
      ]);
      const mapped = await s.core.previewRefuelingImport({
        carId: 4,
        content: csv,
        currency: 978,
        mapping: { dateOfPurchase: 0, tachometer: 1, liter: 2, price: 3 },
      });
      expect(mapped.rows[0]!.refueling).toMatchObject({ tachometer: 12000, liter: '40', price: '1600', currency: 978 });
      expect(
        (
          await refusal(
            s.core.previewRefuelingImport({
              carId: 4,
              content: csv,
              currency: 203,
              mapping: { dateOfPurchase: 0, tachometer: 7, liter: 2, price: 3 },
            }),
          )
        ).message,
      ).toBe('The odometer is mapped to column 8, but the file has 4 columns.');
      expect(
        (
          await refusal(
            s.core.previewRefuelingImport({
              carId: 4,
              content: csv,
              currency: 203,
              mapping: { dateOfPurchase: 0, tachometer: 1, liter: 1, price: 3 },
            }),
          )
        ).message,
      ).toBe('Column 2 is mapped to both the odometer and the litres.');
      expect(await refusal(s.core.previewRefuelingImport({ carId: 5, content: csv, currency: 203 }))).toMatchObject({
        kind: 'not-found',
        field: 'carId',
      });
      expect(await refusal(s.core.previewRefuelingImport({ carId: 4, content: 'a,b\n"open', currency: 203 }))).toMatchObject({
        kind: 'invalid-input',
        code: 'csvQuoteOpen',
        params: { line: 2 },
        field: 'content',
        message: 'Line 2: a quoted field is not closed.',
      });
    } finally {
      await s.done();
    }
  });

  it('finds duplicates of stored and pending refuelings and of earlier rows, to the minute', async () => {
    const s = await withCar();
    try {
      const pending = await s.core.addRefueling({
        carId: 4,
        dateOfPurchase: '2026-01-10T12:00',
        tachometer: 10300,
        liter: '30.5',
        price: '1200',
        currency: 203,
        rate: '1',
        description: 'pending',
      });
      const stored = (await s.core.listRefuelings({ carId: 4 })).find((r) => r.tachometer === 10000)!;
      const csv = [
        'date,odometer,liters,price',
        '2026-01-05 08:00:40,10000,40.000,1499', // the stored one, seconds and trailing zeros aside
        '2026-01-10 12:00,10300,30.5,1200', // the pending one
        '2026-01-12 12:00,10500,35,1300',
        '2026-01-12 12:00,10500,35,1300', // an earlier row
        '2026-01-12 12:01,10500,35,1300', // another minute: not the same
      ].join('\n');
      const p = await s.core.previewRefuelingImport({ carId: 4, content: csv, currency: 203 });
      expect(p.rows.map((r) => r.duplicateOf)).toEqual([
        { id: stored.id, line: null },
        { id: pending.id, line: null },
        null,
        { id: null, line: 4 },
        null,
      ]);
      expect(p.counts).toEqual({ rows: 5, ready: 2, problems: 0, duplicates: 3 });
    } finally {
      await s.done();
    }
  });
});

describe('refueling import', () => {
  it('queues the ready rows in one go, syncs them once, and keeps the partial marks under the service ids', async () => {
    const s = await withCar();
    try {
      const csv = `${EXPORTED}\n14,4,2026-01-05 08:00,10000,40,1500,CZK,1,37.5,no,already there\n15,4,bad date,1,1,1,CZK,1,1,no,broken`;
      const result = await s.core.importRefuelings({ carId: 4, content: csv, currency: 203 });
      expect(result).toEqual({ queued: 3, skipped: 2 });
      const outbox = await s.core.listOutbox();
      expect(outbox.map((e) => [e.kind, e.status])).toEqual([
        ['addRefueling', 'pending'],
        ['addRefueling', 'pending'],
        ['addRefueling', 'pending'],
      ]);
      const listed = await s.core.listRefuelings({ carId: 4 });
      expect(listed.filter((r) => r.pending).map((r) => [r.tachometer, r.partial])).toEqual([
        [11700, false],
        [11200, true],
        [10650, false],
      ]);

      // The same file again: everything is there or broken.
      const again = await refusal(s.core.importRefuelings({ carId: 4, content: csv, currency: 203 }));
      expect(again).toMatchObject({ kind: 'rule', message: 'Nothing to import: of 5 row(s), 1 have problems and 4 are already there.' });

      const summary = await s.core.sync();
      expect(summary).toMatchObject({ error: null, pushed: 3 });
      const onService = await s.truth.call('CarFuelList', { CarId: 4 });
      expect(onService.map((r) => r.Tachometer).sort()).toEqual([10000, 10650, 11200, 11700]);
      const euro = onService.find((r) => r.Tachometer === 11200)!;
      expect(euro).toMatchObject({ Liter: 20.125, Price: 45.5, Currency: 978, Rate: 25.15, Description: 'Vienna, partial' });
      const after = await s.core.listRefuelings({ carId: 4 });
      expect(after.find((r) => r.tachometer === 11200)).toMatchObject({ id: euro.Id, partial: true, pending: false });
      expect(after.filter((r) => r.partial)).toHaveLength(1);
    } finally {
      await s.done();
    }
  });

  it('refuses while a sync runs, and queues nothing', async () => {
    const s = await withCar();
    try {
      const running = s.core.sync();
      expect(await refusal(s.core.importRefuelings({ carId: 4, content: EXPORTED, currency: 203 }))).toMatchObject({ kind: 'busy' });
      await running;
      expect(await s.core.listOutbox()).toEqual([]);
    } finally {
      await s.done();
    }
  });

  it('takes its writes back with the rest of the transaction: the view shows none of a rolled back import', () => {
    const tmp = tempDir();
    const { store, outbox, view, writes } = localWrites(tmp.file('local.sqlite'));
    try {
      expect(view.refuelings(1)).toEqual([]);
      const fill = {
        carId: 1,
        dateOfPurchase: '2026-01-01T10:00:00',
        tachometer: 5,
        liter: '1',
        price: '1',
        currency: 203,
        rate: '1',
        description: '',
      };
      expect(() =>
        store.transaction(() => {
          writes.queue('addRefueling', fill);
          expect(view.refuelings(1)).toHaveLength(1);
          writes.queue('addRefueling', { ...fill, carId: 2 });
        }),
      ).toThrow(/Car 2 is not in your car list/);
      expect(view.refuelings(1)).toEqual([]);
      expect(outbox.count()).toBe(0);
    } finally {
      store.close();
      tmp.remove();
    }
  });

  it('previews on a core without a service (offline import)', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('offline.sqlite'));
    try {
      await core.saveCar({ carId: 2, name: 'Offline' });
      const result = await core.importRefuelings({
        carId: 2,
        content: 'date,odometer,liters,price\n2026-01-01 10:00,100,10,300',
        currency: 203,
      });
      expect(result).toEqual({ queued: 1, skipped: 0 });
      const preview: ImportPreview = await core.previewRefuelingImport({
        carId: 2,
        content: 'date,odometer,liters,price\n2026-01-01 10:00,100,10,300',
        currency: 203,
      });
      expect(preview.rows[0]!.duplicateOf).toMatchObject({ line: null });
    } finally {
      await core.close();
      tmp.remove();
    }
  });
});
