/** The command line's backup, restore and import-refuelings: output, --json, and refusals of bad input with one line. */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { helpText } from '../../src-main/cli/cli';
import { expectCliFailure, runCliOn } from '../support/cli';
import { tempDir } from '../support/client';

const tmp = tempDir('bookkeeping-cli-files-');
afterAll(() => tmp.remove());

const cli = (data: string, args: string[]) => runCliOn(data, args);
const expectFailure = expectCliFailure;

const CSV = [
  'date,odometer,liters,price,partial',
  '2026-01-20 07:45,10650,38.5,1540,no',
  '2026-02-02 18:10,11200,20,800,yes',
  'broken,1,1,1,no',
  '2026-02-02 18:10,11200,20,800,yes',
].join('\n');

describe('command line: files', () => {
  it('imports refuelings: a dry run first, then the import, with problems and duplicates listed', async () => {
    const data = tmp.file('import.sqlite');
    const csv = tmp.file('fuel.csv');
    writeFileSync(csv, CSV);
    expect((await cli(data, ['car', 'add', '3', 'Octavia'])).code).toBe(0);

    const dry = await cli(data, ['import-refuelings', '--car', '3', '--file', csv, '--currency', 'CZK', '--dry-run']);
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toBe(
      [
        'Read as: cells separated by commas, decimal points, no byte order mark.',
        'Line 4: Column "date": "broken" is not a date such as 2026-11-21 14:05 or 21.11.2026 14:05.',
        'Line 5: the same as line 3 (date, odometer and litres); skipped.',
        '4 rows: 2 ready, 1 with problems, 1 duplicates.',
        'Dry run: nothing was queued.',
      ].join('\n'),
    );
    expect((await cli(data, ['outbox', '--json'])).json()).toEqual([]);

    const done = await cli(data, ['import-refuelings', '--car', '3', '--file', csv, '--currency', '203', '--json']);
    expect(done.code, done.err).toBe(0);
    expect(done.json()).toMatchObject({ result: { queued: 2, skipped: 2 }, preview: { counts: { rows: 4, ready: 2 } } });
    const listed = (await cli(data, ['refuelings', '3', '--json'])).json();
    expect(listed.map((r: { tachometer: number; partial: boolean; pending: boolean }) => [r.tachometer, r.partial, r.pending])).toEqual([
      [11200, true, true],
      [10650, false, true],
    ]);
    // The car's last currency is the default now; a second import finds everything there.
    expectFailure(
      await cli(data, ['import-refuelings', '--car', '3', '--file', csv]),
      /Nothing to import: of 4 row\(s\), 1 have problems and 3 are already there/,
    );
  });

  it('refuses bad import arguments with one line', async () => {
    const data = tmp.file('bad-import.sqlite');
    const csv = tmp.file('ok.csv');
    writeFileSync(csv, CSV);
    const latin1 = tmp.file('latin1.csv');
    writeFileSync(latin1, Buffer.from('date,odometer,liters,price,description\n2026-01-01,1,1,1,Plze\xf2\n', 'latin1'));
    await cli(data, ['car', 'add', '3', 'Octavia']);
    expectFailure(await cli(data, ['import-refuelings', '--file', csv, '--currency', 'CZK']), /--car is required/);
    expectFailure(
      await cli(data, ['import-refuelings', '--car', 'three', '--file', csv, '--currency', 'CZK']),
      /--car must be a whole number/,
    );
    expectFailure(await cli(data, ['import-refuelings', '--car', '3', '--currency', 'CZK']), /--file is required/);
    expectFailure(
      await cli(data, ['import-refuelings', '--car', '3', '--file', tmp.file('missing.csv'), '--currency', 'CZK']),
      /Cannot read .*missing\.csv: ENOENT/,
    );
    expectFailure(
      await cli(data, ['import-refuelings', '--car', '3', '--file', csv, '--currency', 'XYZ']),
      /--currency: "XYZ" is not a currency the app knows/,
    );
    expectFailure(await cli(data, ['import-refuelings', '--car', '3', '--file', csv]), /--currency is required/);
    expectFailure(await cli(data, ['import-refuelings', '--car', '3', '--file', latin1, '--currency', 'CZK']), /is not UTF-8 text/);
    expectFailure(
      await cli(data, ['import-refuelings', '--car', '9', '--file', csv, '--currency', 'CZK']),
      /Car 9 is not in your car list/,
    );
    expectFailure(
      await cli(data, ['import-refuelings', '--car', '3', '--file', csv, '--currency', 'CZK', '--dry-run=yes']),
      /--dry-run takes no value/,
    );
  });

  it('refuel and edit-refuel read --currency as the import does: a code (CZK, eur) or its number, anything else refused by name', async () => {
    const data = tmp.file('currency.sqlite');
    expect((await cli(data, ['car', 'add', '3', 'Octavia'])).code).toBe(0);
    const fuel = ['refuel', '--car', '3', '--liter', '30', '--price', '900', '--tachometer', '500', '--date', '2026-01-01T10:00'];
    const czk = await cli(data, [...fuel, '--currency', 'CZK', '--json']);
    expect(czk.code, czk.err).toBe(0);
    expect((await cli(data, [...fuel.slice(0, 8), '600', '--date', '2026-01-02T10:00', '--currency', '203'])).code).toBe(0);
    expect((await cli(data, ['edit-refuel', String(czk.json().id), '--currency', 'eur'])).code).toBe(0);
    const rows = (await cli(data, ['refuelings', '3', '--json'])).json() as { tachometer: number; currency: number }[];
    expect(rows.map((r) => [r.tachometer, r.currency]).sort()).toEqual([
      [500, 978],
      [600, 203],
    ]);
    expectFailure(await cli(data, [...fuel, '--currency', 'XYZ']), /--currency: "XYZ" is not a currency the app knows/);
    expect(helpText('refuel')).toMatch(/--currency <CZK\|203>/);
    expect(helpText('import-refuelings')).toMatch(/--currency <CZK\|203>/);
  });

  it('writes a backup, refuses to overwrite it without --force, and restores it', async () => {
    const data = tmp.file('backup.sqlite');
    const file = tmp.file('books.backup');
    await cli(data, ['car', 'add', '3', 'Octavia']);
    await cli(data, [
      'refuel',
      '--car',
      '3',
      '--liter',
      '30',
      '--price',
      '900',
      '--tachometer',
      '500',
      '--currency',
      '203',
      '--date',
      '2026-01-01T10:00',
    ]);

    const made = await cli(data, ['backup', '--to', file, '--json']);
    expect(made.code, made.err).toBe(0);
    expect(made.json()).toMatchObject({ file, counts: { cars: 1, pendingWrites: 1 } });
    expect(readFileSync(file).subarray(0, 15).toString()).toBe('SQLite format 3');
    expect(made.json().bytes).toBe(readFileSync(file).length);

    expectFailure(await cli(data, ['backup', '--to', file]), /exists; add --force to overwrite it/);
    const forced = await cli(data, ['backup', '--to', file, '--force']);
    expect(forced.out).toMatch(
      /^Backup written to .* \(\d+ bytes\): 0 accounts, 0 transactions, 0 templates, 0 categories, 1 cars, 0 refuelings, 0 budgets, 0 car costs, 0 reminders, 1 writes in the outbox\.$/,
    );

    await cli(data, ['outbox', 'discard', '1']);
    await cli(data, ['car', 'remove', '3']);
    const restored = await cli(data, ['restore', '--from', file]);
    expect(restored.code, restored.err).toBe(0);
    expect(restored.out).toMatch(
      /^Restored the backup of \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}: 0 accounts, .* 1 cars, 0 refuelings, 0 budgets, 0 car costs, 0 reminders, 1 writes in the outbox\.\n1 write\(s\) may have reached the service/,
    );
    expect((await cli(data, ['cars', '--json'])).json()).toMatchObject([{ carId: 3, name: 'Octavia' }]);
    expect((await cli(data, ['outbox', '--json'])).json()).toMatchObject([{ kind: 'addRefueling', status: 'unknown' }]);
  });

  it('refuses bad backup and restore arguments with one line', async () => {
    const data = tmp.file('bad-backup.sqlite');
    const junk = tmp.file('junk.bin');
    writeFileSync(junk, 'not a backup at all');
    expectFailure(await cli(data, ['backup']), /--to is required/);
    expectFailure(await cli(data, ['backup', '--to', tmp.file('no-such-dir/x.backup')]), /Cannot write .*: ENOENT/);
    expect(existsSync(tmp.file('no-such-dir'))).toBe(false);
    expectFailure(await cli(data, ['restore']), /--from is required/);
    expectFailure(await cli(data, ['restore', '--from', tmp.file('nothing.backup')]), /Cannot read .*: ENOENT/);
    expectFailure(await cli(data, ['restore', '--from', tmp.dir]), /is not a file/);
    expectFailure(await cli(data, ['restore', '--from', junk]), /not a backup of this app: it is not an SQLite database/);
    expectFailure(await cli(data, ['restore', '--from', junk, 'extra']), /Unexpected argument "extra"/);
  });

  it('exports refuelings and transactions to CSV and shows fuel statistics', async () => {
    const data = tmp.file('export.sqlite');
    const csv = tmp.file('three.csv');
    writeFileSync(
      csv,
      [
        'date,odometer,liters,price',
        '2026-01-05 08:00,10000,40,1500',
        '2026-01-20 07:45,10500,30,1200',
        '2026-02-02 18:10,11100,42,1600.5',
      ].join('\n'),
    );
    expect((await cli(data, ['car', 'add', '3', 'Octavia'])).code).toBe(0);
    expect((await cli(data, ['import-refuelings', '--car', '3', '--file', csv, '--currency', 'CZK'])).code).toBe(0);

    // 30 + 42 l over 1100 km: 6.55 l/100 km; 2800.5 CZK over 1100 km: 254.59 CZK/100 km.
    const stats = await cli(data, ['fuel-stats', '3']);
    expect(stats.code, stats.err).toBe(0);
    expect(stats.out).toContain('3 refuelings, 2026-01-05 to 2026-02-02: 1100 km, 112 l, 4300.5 CZK');
    expect(stats.out).toContain('Consumption 6.55 l/100 km, 254.59 CZK/100 km');
    expect((await cli(data, ['fuel-stats', '3', '--from', '2026-01-10', '--json'])).json().summary).toMatchObject({
      refuelings: 2,
      distance: 1100,
      consumption: '6.55',
    });

    const out = tmp.file('fuel-export.csv');
    const exported = await cli(data, ['export', 'refuelings', '--car', '3', '--out', out]);
    expect(exported.code, exported.err).toBe(0);
    expect(exported.out).toBe(`3 refuelings written to ${out}.`);
    const lines = readFileSync(out, 'utf8').split('\r\n');
    expect(lines[0]).toMatch(/^car_id,car_name,date,odometer,liters,price,currency,rate/);
    expect(lines[3]).toMatch(/^3,Octavia,2026-02-02T18:10:00,11100,42,1600.5,CZK,1,/);
    expectFailure(await cli(data, ['export', 'refuelings', '--out', out]), /exists; add --force/);
    expect((await cli(data, ['export', 'refuelings', '--out', out, '--force', '--json'])).json()).toEqual({ file: out, rows: 3 });
    // For Excel in Czech: a BOM, semicolons, decimal commas, Czech dates; and that file imports back as it is.
    const czech = tmp.file('fuel-excel-cs.csv');
    expect((await cli(data, ['export', 'refuelings', '--car', '3', '--out', czech, '--dialect', 'excel-cs'])).code).toBe(0);
    const czechLines = readFileSync(czech, 'utf8').split('\r\n');
    expect(czechLines[0]).toMatch(/^\uFEFFcar_id;car_name;date;odometer;liters;price;currency;rate/);
    expect(czechLines[3]).toMatch(/^3;Octavia;2\.2\.2026 18:10:00;11100;42;1600,5;CZK;1;/);
    const back = await cli(data, ['import-refuelings', '--car', '3', '--file', czech, '--dry-run']);
    expect(back.out).toContain('Read as: cells separated by semicolons, decimal commas, a byte order mark.');
    expect(back.out).toContain('3 rows: 0 ready, 0 with problems, 3 duplicates.');

    const tx = tmp.file('tx.csv');
    expect((await cli(data, ['export', 'transactions', '--out', tx, '--from', '2026-01-01', '--json'])).json()).toEqual({
      file: tx,
      rows: 0,
    });
    expect(readFileSync(tx, 'utf8')).toMatch(
      /^date,account,account_id,currency,amount,type,category,category_id,description,id,pending\r\n$/,
    );
  });

  it('refuses bad export and fuel-stats arguments with one line', async () => {
    const data = tmp.file('bad-export.sqlite');
    const out = tmp.file('never.csv');
    expectFailure(await cli(data, ['export', '--out', out]), /What to export \(transactions or refuelings\) is required/);
    expectFailure(await cli(data, ['export', 'accounts', '--out', out]), /Export transactions or refuelings, not "accounts"/);
    expectFailure(await cli(data, ['export', 'refuelings']), /--out is required/);
    expectFailure(
      await cli(data, ['export', 'refuelings', '--out', out, '--dialect', 'excel']),
      /--dialect is one of excel-cs, excel-en, plain/,
    );
    expectFailure(await cli(data, ['export', 'refuelings', '--out', out, '--account', '5']), /--account does not apply to refuelings/);
    expectFailure(
      await cli(data, ['export', 'transactions', '--out', out, '--from', '2026-02-30']),
      /from.*must be a date such as 2026-11-21/,
    );
    expectFailure(await cli(data, ['export', 'transactions', '--out', out, '--car', 'x']), /--car does not apply to transactions/);
    expectFailure(await cli(data, ['fuel-stats', 'first']), /The car id/);
    expectFailure(await cli(data, ['fuel-stats', '3', '--to', 'tomorrow']), /to.*must be a date/);
    expect(existsSync(out)).toBe(false);
  });

  it('explains the new commands in --help', () => {
    expect(helpText()).toMatch(/backup --to <file> \[--force\]/);
    expect(helpText()).toMatch(/restore --from <file>/);
    expect(helpText()).toMatch(/export transactions\|refuelings --out <file>/);
    expect(helpText()).toMatch(/fuel-stats <carId>/);
    expect(helpText('import-refuelings')).toMatch(
      /^Usage: npm run cli -- import-refuelings --car <carId> --file <csv> \[--currency <CZK\|203>\] \[--dry-run\]/,
    );
  });
});
