/**
 * The CSV dialects (src-shared/csv-dialect.ts) through a real core: each export written the way its
 * spreadsheet reads it, checked byte by byte where it matters (BOM, CRLF) and read by an independent
 * reader, Python's csv module with the Excel dialect (semicolons for Czech, utf-8-sig for the BOM),
 * against cells written out by hand; every dialect's refuelings imported back equal; and what the import
 * makes of files that are not quite right: mixed separators, a BOM in the middle, quoted semicolons and
 * line breaks, decimal commas in a comma-separated file.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCsv } from '../../src-main/core/files/csv-reader';
import { readDate, readNumber } from '../../src-main/core/files/import-values';
import { importProblemText, type ImportPreview, type RefuelingView } from '../../src-shared/app-api';
import { CSV_DIALECT_NAMES } from '../../src-shared/csv-dialect';
import { seededCore, type SeededCore } from '../insights/local-data';
import { tempDir } from '../support/client';

const tmp = tempDir('bookkeeping-csv-dialects-');
let local: SeededCore;

beforeAll(() => {
  local = seededCore({
    accounts: [
      { id: 1, name: 'Účet; hlavní', currency: 203, balance: '0' },
      { id: 2, name: 'Euro', currency: 978, balance: '0' },
    ],
    categories: [
      { id: 10, name: 'Jídlo', parentId: 0 },
      { id: 11, name: 'Potraviny', parentId: 10 },
    ],
    transactions: [
      {
        id: 1,
        accountId: 1,
        paymentDate: '2026-01-02T10:00:00',
        amount: '-1620.5',
        description: 'Nákup; "Albert"\nBrno',
        categoryId: 11,
      },
      { id: 2, accountId: 2, paymentDate: '2026-02-03T08:05:09', amount: '0.1', description: '=HYPERLINK("x")', type: 1 },
      { id: 3, accountId: 1, paymentDate: '2026-02-15T00:00:00', amount: '25000', description: 'Výplata', type: 1 },
    ],
    cars: [
      { carId: 1, name: 'Octavia' },
      { carId: 2, name: 'Kopie' },
    ],
    refuelings: [
      {
        id: 11,
        carId: 1,
        dateOfPurchase: '2026-01-01T08:00:00',
        tachometer: 9_500,
        liter: '10',
        price: '12.5',
        currency: 978,
        rate: '25.3',
        description: 'Wien, "Shell"; A1',
      },
      { id: 12, carId: 1, dateOfPurchase: '2026-02-01T18:10:30', tachometer: 10_000, liter: '41.27', price: '1650.8' },
    ],
  });
});
afterAll(async () => {
  await local.done();
  tmp.remove();
});

/** The rows Python's csv module reads from the file: the Excel dialect, with semicolons for excel-cs, the BOM taken by utf-8-sig. */
function pythonRows(content: string, separator: ',' | ';'): string[][] {
  const file = tmp.file(`python-${separator === ';' ? 'semicolon' : 'comma'}.csv`);
  writeFileSync(file, content, 'utf8');
  const script = [
    'import csv, json, sys',
    "with open(sys.argv[1], encoding='utf-8-sig', newline='') as f:",
    "    print(json.dumps(list(csv.reader(f, dialect='excel', delimiter=sys.argv[2]))))",
  ].join('\n');
  return JSON.parse(execFileSync('python3', ['-c', script, file, separator], { encoding: 'utf8' })) as string[][];
}

const TRANSACTION_HEADER = [
  'date',
  'account',
  'account_id',
  'currency',
  'amount',
  'type',
  'category',
  'category_id',
  'description',
  'id',
  'pending',
];

describe('exports in the Czech Excel dialect', () => {
  it('write a BOM, semicolons, decimal commas, Czech dates and CRLF, which Python reads cell for cell', async () => {
    const file = await local.core.exportTransactionsCsv({ dialect: 'excel-cs' });
    const bytes = Buffer.from(file.content, 'utf8');
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(file.content.slice(1, file.content.indexOf('\r\n'))).toBe(TRANSACTION_HEADER.join(';'));
    expect(pythonRows(file.content, ';')).toEqual([
      TRANSACTION_HEADER,
      ['15.2.2026 0:00:00', 'Účet; hlavní', '1', 'CZK', '25000', '1', '', '0', 'Výplata', '3', 'false'],
      ['3.2.2026 8:05:09', 'Euro', '2', 'EUR', '0,1', '1', '', '0', `'=HYPERLINK("x")`, '2', 'false'],
      ['2.1.2026 10:00:00', 'Účet; hlavní', '1', 'CZK', '-1620,5', '2', 'Jídlo / Potraviny', '11', 'Nákup; "Albert"\nBrno', '1', 'false'],
    ]);

    const fuel = await local.core.exportRefuelingsCsv({ carId: 1, dialect: 'excel-cs' });
    expect(pythonRows(fuel.content, ';').slice(1)).toEqual([
      ['1', 'Octavia', '1.1.2026 8:00:00', '9500', '10', '12,5', 'EUR', '25,3', '1,25', 'false', 'Wien, "Shell"; A1', '11', 'false'],
      ['1', 'Octavia', '1.2.2026 18:10:30', '10000', '41,27', '1650,8', 'CZK', '1', '40', 'false', '', '12', 'false'],
    ]);
  });

  it('write a report by category and by month', async () => {
    const period = { from: '2026-01-01', to: '2026-02-28', currency: 203 };
    const byCategory = await local.core.exportReportCsv({ ...period, table: 'categories', dialect: 'excel-cs' });
    expect(byCategory).toMatchObject({ fileName: 'report-categories-2026-01-01-2026-02-28.csv', rows: 2 });
    // Largest expense first, then income; the figures by hand: 1 620.50 spent on food, 25 000 earned.
    expect(pythonRows(byCategory.content, ';')).toEqual([
      ['category', 'category_id', 'currency', 'income', 'expense', 'net', 'count'],
      ['Jídlo', '10', 'CZK', '0', '1620,5', '-1620,5', '1'],
      ['', '0', 'CZK', '25000', '0', '25000', '1'],
    ]);
    const byMonth = await local.core.exportReportCsv({ ...period, table: 'months', dialect: 'excel-cs' });
    expect(pythonRows(byMonth.content, ';')).toEqual([
      ['month', 'currency', 'income', 'expense', 'net', 'count'],
      ['1.1.2026', 'CZK', '0', '1620,5', '-1620,5', '1'],
      ['1.2.2026', 'CZK', '25000', '0', '25000', '1'],
    ]);
    const english = await local.core.exportReportCsv({ ...period, table: 'months', dialect: 'excel-en' });
    expect(pythonRows(english.content, ',').slice(1)).toEqual([
      ['2026-01-01', 'CZK', '0', '1620.5', '-1620.5', '1'],
      ['2026-02-01', 'CZK', '25000', '0', '25000', '1'],
    ]);
  });
});

describe('exports in the English Excel dialect and plain', () => {
  it('write commas and points with ISO dates: a BOM and a space for Excel, neither for programs', async () => {
    const en = await local.core.exportTransactionsCsv({ dialect: 'excel-en' });
    expect(en.content.startsWith('\uFEFFdate,account,')).toBe(true);
    expect(pythonRows(en.content, ',').slice(1)).toEqual([
      ['2026-02-15 00:00:00', 'Účet; hlavní', '1', 'CZK', '25000', '1', '', '0', 'Výplata', '3', 'false'],
      ['2026-02-03 08:05:09', 'Euro', '2', 'EUR', '0.1', '1', '', '0', `'=HYPERLINK("x")`, '2', 'false'],
      ['2026-01-02 10:00:00', 'Účet; hlavní', '1', 'CZK', '-1620.5', '2', 'Jídlo / Potraviny', '11', 'Nákup; "Albert"\nBrno', '1', 'false'],
    ]);
    const plain = await local.core.exportTransactionsCsv({ dialect: 'plain' });
    expect(plain.content).toBe((await local.core.exportTransactionsCsv({})).content);
    expect(plain.content.split('\r\n')[1]).toBe('2026-02-15T00:00:00,Účet; hlavní,1,CZK,25000,1,,0,Výplata,3,false');
  });
});

describe('every dialect reads back', () => {
  it.each(CSV_DIALECT_NAMES)(
    '%s: the transactions by the reader, the refuelings by the import, equal to what was exported',
    async (name) => {
      const file = await local.core.exportTransactionsCsv({ dialect: name });
      const table = readCsv(file.content);
      const comma = name === 'excel-cs';
      expect(table).toMatchObject({ bom: name !== 'plain', delimiter: comma ? ';' : ',' });
      const cell = (row: string[], header: string) => row[table.header.indexOf(header)]!;
      const read = table.rows.map(({ cells }) => [
        readDate(cell(cells, 'date')),
        readNumber(cell(cells, 'amount'), comma ? ',' : '.'),
        cell(cells, 'description'),
      ]);
      const { items } = await local.core.searchTransactions({});
      expect(read).toEqual(items.map((t) => [t.paymentDate, t.amount, t.description]));

      const target = await freshCar();
      const fuel = await local.core.exportRefuelingsCsv({ carId: 1, dialect: name });
      const preview = await local.core.previewRefuelingImport({ carId: target, content: fuel.content, currency: 203 });
      expect(detected(preview)).toEqual({ delimiter: comma ? ';' : ',', bom: name !== 'plain', decimalMark: comma ? ',' : '.' });
      expect(preview.counts).toEqual({ rows: 2, ready: 2, problems: 0, duplicates: 0 });
      expect((await local.core.importRefuelings({ carId: target, content: fuel.content, currency: 203 })).queued).toBe(2);
      const fields = (r: RefuelingView) => [r.dateOfPurchase, r.tachometer, r.liter, r.price, r.currency, r.rate, r.description, r.partial];
      expect((await local.core.listRefuelings({ carId: target })).map(fields)).toEqual(
        (await local.core.listRefuelings({ carId: 1 })).map(fields),
      );
    },
  );
});

let nextCar = 100;
/** A car of its own for each import, so that nothing is a duplicate of an earlier test's. */
async function freshCar(): Promise<number> {
  const carId = nextCar++;
  await local.core.saveCar({ carId, name: `Target ${carId}` });
  return carId;
}

const detected = (p: ImportPreview) => ({ delimiter: p.delimiter, bom: p.bom, decimalMark: p.decimalMark });
const preview = async (content: string) => local.core.previewRefuelingImport({ carId: await freshCar(), content, currency: 203 });
const problems = (p: ImportPreview) => p.rows.map((r) => [r.line, r.problems.map(importProblemText)]);

describe('files that are not quite right', () => {
  it('mixed separators: a row of other separators than the header is named, the others read', async () => {
    const p = await preview(
      [
        'date;odometer;liters;price',
        '1.1.2026 8:00;1000;40,5;1600',
        '2026-01-15,1500,30.5,1200',
        '"15.2.2026 8:00";2000;"35,25";"1 400,50"',
      ].join('\r\n'),
    );
    expect(detected(p)).toEqual({ delimiter: ';', bom: false, decimalMark: ',' });
    expect(problems(p)).toEqual([
      [2, []],
      [3, ['The row has 1 cell(s) where the header has 4 column(s): is it separated by another character?']],
      [4, []],
    ]);
    expect(p.rows.map((r) => [r.refueling?.liter, r.refueling?.price])).toEqual([
      ['40.5', '1600'],
      [undefined, undefined],
      ['35.25', '1400.5'],
    ]);
  });

  it('a BOM in the middle (two files joined): the second header is a row with problems, its first cell read as written', async () => {
    const first = '\uFEFFdate;odometer;liters;price\r\n1.1.2026 8:00;1000;40,5;1600\r\n';
    const second = '\uFEFF"date";"odometer";"liters";"price"\r\n"2.1.2026 8:00";"1500";"30,5";"1200"\r\n';
    const p = await preview(first + second);
    expect(detected(p)).toEqual({ delimiter: ';', bom: true, decimalMark: ',' });
    expect(p.rows.map((r) => [r.line, r.refueling?.tachometer ?? r.problems.map(importProblemText)[0]])).toEqual([
      [2, 1000],
      [3, 'Column "date": "date" is not a date such as 2026-11-21 14:05 or 21.11.2026 14:05.'],
      [4, 1500],
    ]);
  });

  it('quoted semicolons, quotes and line breaks come through exactly', async () => {
    const p = await preview(
      '\uFEFFdate;odometer;liters;price;description\r\n2.1.2026 8:00;1500;30,5;1200;"Praha; D1\r\nexit 21 ""Shell"""\r\n',
    );
    expect(detected(p)).toEqual({ delimiter: ';', bom: true, decimalMark: ',' });
    expect(p.rows[0]!.refueling?.description).toBe('Praha; D1\r\nexit 21 "Shell"');
  });

  it('tells decimal commas in a comma-separated file by its numbers, and a thousands comma beside decimal points', async () => {
    const commas = await preview('date,odometer,liters,price\n2026-01-01 08:00,1000,"40,5","1 600,50"\n2026-01-09 08:00,1500,35,"1,500"\n');
    expect(detected(commas)).toEqual({ delimiter: ',', bom: false, decimalMark: ',' });
    expect(commas.rows.map((r) => [r.refueling?.liter, r.refueling?.price])).toEqual([
      ['40.5', '1600.5'],
      ['35', '1.5'],
    ]);
    const points = await preview('date,odometer,liters,price\n2026-01-01 08:00,1000,40.5,1600.50\n2026-01-09 08:00,1500,35,"1,500"\n');
    expect(detected(points).decimalMark).toBe('.');
    expect(points.rows.map((r) => r.refueling?.price)).toEqual(['1600.5', '1500']);
    // Nothing tells: each number by its look, one comma a decimal one (40,125 litres, not forty thousand).
    const neither = await preview('date,odometer,liters,price\n2026-01-01 08:00,1000,"40,125",1600\n');
    expect(detected(neither).decimalMark).toBeNull();
    expect(neither.rows[0]!.refueling?.liter).toBe('40.125');
  });
});
