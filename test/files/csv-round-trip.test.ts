/**
 * CSV round trips: every text the writer is given comes back from the reader as it was, and refuelings
 * exported from one car and imported into another arrive on the service exactly as they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsv } from '../../src-main/core/files/csv-reader';
import { writeCsv, type CsvColumn } from '../../src-main/core/files/csv-writer';
import type { RefuelingView } from '../../src-shared/app-api';
import { CSV_DIALECTS } from '../../src-shared/csv-dialect';
import { REFUELING } from '../../src-shared/records/refueling';
import { newUser } from '../support/client';
import { seededRandom } from '../support/fault-proxy';
import { testSeed } from '../support/seed';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

describe('CSV writer and reader', () => {
  it('read back every text and number exactly, whatever characters it holds', () => {
    const random = seededRandom(testSeed('CSV_ROUND_TRIP_SEED', 20261121));
    const alphabet = ['a', 'Ž', 'ů', ',', ';', '"', "'", '\n', '\r', '\r\n', '\t', ' ', '=', '+', '-', '@', '1', '.', '€', '😀'];
    const text = () => Array.from({ length: Math.floor(random() * 12) }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
    const rows = Array.from({ length: 400 }, () => ({
      note: text(),
      amount: `${random() < 0.5 ? '-' : ''}${Math.floor(random() * 1e6)}.${Math.floor(random() * 100)}`,
      name: text(),
    }));
    rows.push({ note: "'=SUM(A1)", amount: '0', name: "''@x" }, { note: '-minus', amount: '-0.5', name: '=cmd|"/c calc"!A1' });
    const columns: CsvColumn<(typeof rows)[number]>[] = [
      { header: 'note', value: (r) => r.note },
      { header: 'amount', value: (r) => r.amount, numeric: true },
      { header: 'name', value: (r) => r.name },
    ];
    const table = readCsv(writeCsv(columns, rows, CSV_DIALECTS.plain));
    expect(table.header).toEqual(['note', 'amount', 'name']);
    expect(table.rows.map((r) => r.cells)).toEqual(rows.map((r) => [r.note, r.amount, r.name]));
  });
});

describe('refuelings exported and imported again', () => {
  it('arrive on another car with every field, the partial marks included, and a second import finds only duplicates', async () => {
    const s = await newUser(service);
    try {
      const { core } = s;
      await core.saveCar({ carId: 4, name: 'Octavia, "old"' });
      await core.saveCar({ carId: 9, name: 'Octavia copy' });
      const fills = [
        {
          dateOfPurchase: '2026-01-05T08:00',
          tachometer: 10000,
          liter: '40',
          price: '1500',
          currency: 203,
          rate: '1',
          description: 'Benzina, Brno',
        },
        {
          dateOfPurchase: '2026-01-20T07:45',
          tachometer: 10650,
          liter: '20.125',
          price: '45.5',
          currency: 978,
          rate: '25.155',
          description: '=HYPERLINK("x")',
        },
        {
          dateOfPurchase: '2026-02-02T18:10:30',
          tachometer: 11200,
          liter: '38.5',
          price: '1540.1',
          currency: 203,
          rate: '1',
          description: 'two\nlines "quoted"',
        },
        { dateOfPurchase: '2026-02-15T09:00', tachometer: 11700, liter: '41.333', price: '0', currency: 203, rate: '1', description: '' },
      ];
      const ids: number[] = [];
      for (const f of fills.slice(0, 3)) ids.push((await core.addRefueling({ carId: 4, ...f })).id);
      expect((await core.sync()).error).toBeNull();
      // The last one still waits in the outbox: the export takes the local view, pending writes included.
      ids.push((await core.addRefueling({ carId: 4, ...fills[3]! })).id);
      const synced = (await core.listRefuelings({ carId: 4 })).find((r) => r.tachometer === 10650)!;
      await core.setRefuelingPartial({ id: synced.id, partial: true });

      const file = await core.exportRefuelingsCsv({ carId: 4 });
      expect(file.rows).toBe(4);
      const preview = await core.previewRefuelingImport({ carId: 9, content: file.content, currency: 840 });
      expect(preview.counts).toEqual({ rows: 4, ready: 4, problems: 0, duplicates: 0 });
      // Our own export's header names a column for every field an import reads.
      expect(Object.keys(preview.mapping).sort()).toEqual([...REFUELING.imported].sort());
      expect((await core.importRefuelings({ carId: 9, content: file.content, currency: 840 })).queued).toBe(4);

      const fields = (r: RefuelingView) => [r.dateOfPurchase, r.tachometer, r.liter, r.price, r.currency, r.rate, r.description, r.partial];
      const original = (await core.listRefuelings({ carId: 4 })).map(fields);
      expect((await core.listRefuelings({ carId: 9 })).map(fields)).toEqual(original);
      expect(original.filter((f) => f[7] === true)).toHaveLength(1);

      // After a sync the service holds the copies, and the partial mark followed the new id.
      expect((await core.sync()).error).toBeNull();
      const onService = (await s.truth.call('CarFuelList', { CarId: 9 })).map((r) => [
        r.DateOfPurchase,
        r.Tachometer,
        r.Liter,
        r.Price,
        r.Currency,
        r.Rate,
        r.Description,
      ]);
      expect(onService).toEqual(original.map((f) => [f[0], f[1], Number(f[2]), Number(f[3]), f[4], Number(f[5]), f[6]]));
      const copies = await core.listRefuelings({ carId: 9 });
      expect(copies.every((r) => r.id > 0 && !r.pending)).toBe(true);
      expect(copies.map(fields)).toEqual(original);

      // The same file again: every row is already there.
      const again = await core.previewRefuelingImport({ carId: 9, content: file.content, currency: 840 });
      expect(again.counts).toMatchObject({ ready: 0, duplicates: 4 });
      await expect(core.importRefuelings({ carId: 9, content: file.content, currency: 840 })).rejects.toMatchObject({ kind: 'rule' });
      expect(ids).toHaveLength(4);
    } finally {
      await s.done();
    }
  });
});
