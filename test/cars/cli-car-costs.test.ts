/**
 * The command line's `car-cost` and `reminders`: their options follow the records' field tables, they add,
 * list, change, delete, export and import a car's costs and mark reminders done, and nothing of it is queued.
 */
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { CAR_COST } from '../../src-shared/records/car-cost';
import { fallbackOf, type FieldSpec } from '../../src-shared/records/fields';
import { REMINDER } from '../../src-shared/records/reminder';
import { expectCliFailure, runCliOn } from '../support/cli';
import { tempDir } from '../support/client';

const tmp = tempDir('bookkeeping-cli-car-costs-');
const data = tmp.file('local.sqlite');
afterAll(() => tmp.remove());
const cli = (args: string[]) => runCliOn(data, args);
const ok = async (args: string[]) => {
  const r = await cli(args);
  expect(r.err, args.join(' ')).toBe('');
  expect(r.code, args.join(' ')).toBe(0);
  return r;
};

/** The lines of a command's help that describe an option: its line, and those its words wrap to. */
function helpLine(help: string, option: string): string {
  const lines = help.split('\n');
  const at = lines.findIndex((l) => l.trimStart().startsWith(`${option} `));
  if (at < 0) return '';
  const wrapped = lines.slice(at + 1).findIndex((l) => !/^ {6,}\S/.test(l));
  return lines.slice(at, at + 1 + (wrapped < 0 ? 0 : wrapped)).join(' ');
}

describe("the command line's car costs and reminders", () => {
  it("take every field of the records' tables, with their words; the new record's command marks those it needs", async () => {
    const cases = [
      { record: CAR_COST, add: 'car-cost add', edit: 'car-cost edit', filled: ['currency'] },
      { record: REMINDER, add: 'reminders add', edit: 'reminders edit', filled: [] as string[] },
    ];
    for (const c of cases) {
      const add = (await cli([...c.add.split(' '), '--help'])).out;
      const edit = (await cli([...c.edit.split(' '), '--help'])).out;
      for (const name of c.record.sent) {
        const f: FieldSpec = (c.record.fields as Record<string, FieldSpec>)[name]!;
        const option = `--${f.option ?? name}`;
        for (const help of [add, edit]) expect(helpLine(help, option), name).toContain(`the ${f.words ?? name}`);
        const needed = fallbackOf(f) === undefined && !f.nullable && !c.filled.includes(name);
        expect(helpLine(add, option).includes('(required)'), `${c.add} ${name}`).toBe(needed);
        expect(helpLine(edit, option), name).not.toContain('(required)');
      }
    }
  });

  it('add, list with the whole cost, change, delete, export and import costs, queueing nothing', async () => {
    await ok(['car', 'add', '1', 'Octavia']);
    await ok(['car', 'add', '2', 'Fabia']);
    await ok([
      'refuel',
      '--car',
      '1',
      '--date',
      '2026-01-05T08:00',
      '--tachometer',
      '10000',
      '--liter',
      '40',
      '--price',
      '1600',
      '--currency',
      'CZK',
    ]);
    await ok(['refuel', '--car', '1', '--date', '2026-03-05T08:00', '--tachometer', '11000', '--liter', '50', '--price', '2000']);
    expectCliFailure(await cli(['car-cost', 'add', '--car', '1', '--kind', 'service', '--amount', '100']), /--date is required/);
    const service = (
      await ok([
        'car-cost',
        'add',
        '--car',
        '1',
        '--date',
        '2026-02-10',
        '--kind',
        'service',
        '--amount',
        '2500.50',
        '--odometer',
        '10400',
        '--json',
      ])
    ).json();
    // The currency came from the car's refuelings; the rate and the note are their fallbacks.
    expect(service).toMatchObject({ carId: 1, currency: 203, rate: '1', note: '', odometer: 10_400, kind: 'service' });
    await ok([
      'car-cost',
      'add',
      '--car',
      '1',
      '--date',
      '2026-03-01',
      '--kind',
      'tolls',
      '--amount',
      '12.80',
      '--currency',
      'EUR',
      '--rate',
      '25',
      '--note',
      'A vignette, "10 days"',
    ]);
    expectCliFailure(await cli(['car-cost', 'add', '--car', '1', '--date', '2026-03-01', '--kind', 'fuel', '--amount', '1']), /kind/);

    const whole = (await ok(['car-cost', 'list', '1', '--json'])).json();
    // 1600 + 2000 fuel, 2500.50 + 12.80 × 25 = 2820.50 other, over 1000 km and 3 months (January to March... to today).
    expect(whole.totals).toEqual({ fuel: '3600', other: '2820.5', total: '6420.5' });
    expect(whole.distance).toBe(1000);
    expect(whole.perKm).toEqual({ fuel: '3.6', other: '2.8205', total: '6.4205' });
    const text = (await ok(['car-cost', 'list', '1', '--from', '2026-01-01', '--to', '2026-03-31'])).out;
    expect(text).toContain('Per month: 2140.17 CZK (fuel 1200, other 940.17)');
    expect(text).toContain('Kept on this computer only');

    await ok(['car-cost', 'edit', String(service.id), '--odometer', 'none', '--note', 'oil']);
    const [, edited] = (await ok(['car-cost', 'list', '1', '--json'])).json().costs;
    expect(edited).toMatchObject({ id: service.id, odometer: null, note: 'oil', amount: '2500.5', date: '2026-02-10' });

    const file = tmp.file('costs.csv');
    await ok(['car-cost', 'export', '--car', '1', '--out', file]);
    const csv = readFileSync(file, 'utf8');
    expect(csv.split('\r\n')[0]).toBe('car_id,car_name,date,kind,odometer,amount,currency,rate,note,id');
    expect(csv).toContain(',EUR,25,"A vignette, ""10 days""",');
    expect((await ok(['car-cost', 'import', '2', file, '--json'])).json()).toEqual({ imported: 2 });
    const copied = (await ok(['car-cost', 'list', '2', '--json'])).json().costs;
    const mine = (await ok(['car-cost', 'list', '1', '--json'])).json().costs;
    const fields = (c: Record<string, unknown>) => ({ ...c, id: 0, carId: 0 });
    expect(copied.map(fields)).toEqual(mine.map(fields));
    // For Excel in Czech: a BOM, semicolons and decimal commas; the import tells the dialect by itself.
    await ok(['car', 'add', '3', 'Felicia']);
    const czech = tmp.file('costs-cs.csv');
    await ok(['car-cost', 'export', '--car', '1', '--dialect', 'excel-cs', '--out', czech]);
    const czechCsv = readFileSync(czech, 'utf8');
    expect(czechCsv.startsWith('\uFEFFcar_id;car_name;date;kind;')).toBe(true);
    expect(czechCsv).toContain(';2500,5;');
    expect((await ok(['car-cost', 'import', '3', czech, '--json'])).json()).toEqual({ imported: 2 });
    expect((await ok(['car-cost', 'list', '3', '--json'])).json().costs.map(fields)).toEqual(mine.map(fields));
    expectCliFailure(
      await cli(['car-cost', 'export', '--dialect', 'excel', '--out', tmp.file('x.csv')]),
      /--dialect is one of excel-cs, excel-en, plain, not "excel"/,
    );

    await ok(['car-cost', 'delete', String(service.id)]);
    expect((await ok(['car-cost', 'list', '1', '--json'])).json().costs).toHaveLength(1);
    expectCliFailure(await cli(['car-cost', 'delete', String(service.id)]), /Car cost \d+ does not exist/);
    // Only the two refuelings wait to be sent.
    expect((await ok(['outbox', '--json'])).json().map((e: { kind: string }) => e.kind)).toEqual(['addRefueling', 'addRefueling']);
  });

  it('add reminders, list them as due, soon or later, and mark them done', async () => {
    expectCliFailure(await cli(['reminders', 'add', '--car', '1', '--kind', 'oilChange']), /needs a date or an odometer reading/);
    const oil = (
      await ok(['reminders', 'add', '--car', '1', '--kind', 'oilChange', '--due-km', '11500', '--every-km', '15000', '--json'])
    ).json();
    // The latest reading is 11,000 km: 500 km to go.
    expect(oil).toMatchObject({ state: 'soon', kmLeft: 500 });
    const stk = (
      await ok(['reminders', 'add', '--car', '1', '--kind', 'inspection', '--title', 'STK', '--due-date', '2020-01-01', '--json'])
    ).json();
    expect(stk.state).toBe('due');
    await ok(['reminders', 'add', '--car', '1', '--kind', 'insurance', '--due-date', '2999-12-31']);
    const listing = (await ok(['reminders', 'list', '1'])).out;
    expect(listing).toMatch(/DUE\s+STK\s+2020-01-01/);
    expect(listing).toMatch(/soon\s+oilChange\s+11500 km \(500 km\)\s+15000 km/);
    expect(listing).toContain('latest odometer reading 11000 km on 2026-03-05');

    expect((await ok(['reminders', 'done', String(oil.id), '--odometer', '11600'])).out).toMatch(/next due at 26600 km/);
    expect((await ok(['reminders', 'done', String(stk.id), '--date', '2020-01-02'])).out).toMatch(/closed/);
    const after = (await ok(['reminders', 'list', '1', '--json'])).json().reminders;
    expect(after.map((r: { kind: string; state: string }) => [r.kind, r.state])).toEqual([
      ['insurance', 'later'],
      ['oilChange', 'later'],
      ['inspection', 'done'],
    ]);
    await ok(['reminders', 'edit', String(oil.id), '--every-km', '10000', '--note', 'Castrol']);
    expect((await ok(['reminders', 'list', '1', '--json'])).json().reminders[1]).toMatchObject({
      everyKm: 10_000,
      note: 'Castrol',
      dueOdometer: 26_600,
    });
    await ok(['reminders', 'delete', String(oil.id)]);
    expect((await ok(['reminders', 'list', '1', '--json'])).json().reminders).toHaveLength(2);
  });
});
