/**
 * The command line's refueling options follow the refueling's field table: `refuel` and `edit-refuel` take (and
 * their help names) every field a refueling is written with, the marks kept here included; `refuel` asks for
 * each field that has no fallback, and one left out holds its fallback.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { fallbackOf, type FieldSpec } from '../../src-shared/records/fields';
import { REFUELING } from '../../src-shared/records/refueling';
import { expectCliFailure, runCliOn } from '../support/cli';
import { tempDir } from '../support/client';

const tmp = tempDir('bookkeeping-cli-fields-');
const data = tmp.file('local.sqlite');
afterAll(() => tmp.remove());
const cli = (args: string[]) => runCliOn(data, args);

const FIELDS = [...REFUELING.sent, ...REFUELING.local].map((name) => {
  const f: FieldSpec = REFUELING.fields[name];
  return { name, option: `--${f.option ?? name}`, words: f.words ?? name, fallback: fallbackOf(f) };
});

/** The line of a command's help that describes an option. */
const helpLine = (help: string, option: string) => help.split('\n').find((l) => l.trimStart().startsWith(`${option} `)) ?? '';

describe("the command line's refueling fields", () => {
  it('are every field of the table, in the help of refuel and edit-refuel, with its words; refuel marks those it needs', async () => {
    const refuel = (await cli(['refuel', '--help'])).out;
    const edit = (await cli(['edit-refuel', '--help'])).out;
    for (const f of FIELDS) {
      for (const help of [refuel, edit]) expect(helpLine(help, f.option), f.name).toContain(`the ${f.words}`);
      // The command fills in the date and the currency; every other field without a fallback must be given.
      const needed = f.fallback === undefined && f.name !== 'dateOfPurchase' && f.name !== 'currency';
      expect(helpLine(refuel, f.option).includes('(required)'), f.name).toBe(needed);
      expect(helpLine(edit, f.option), f.name).not.toContain('(required)');
    }
  });

  it('queue a refueling with the fields given, the fallbacks for those left out, and change any of them', async () => {
    expect((await cli(['car', 'add', '1', 'Octavia'])).code).toBe(0);
    expectCliFailure(await cli(['refuel', '--car', '1', '--liter', '30.5', '--price', '1200']), /--tachometer is required/);
    const base = ['refuel', '--car', '1', '--liter', '30.5', '--price', '1200', '--tachometer', '150000', '--currency', 'CZK'];
    const made = (await cli([...base, '--date', '2026-08-02T10:00', '--json'])).json();
    const [listed] = (await cli(['refuelings', '1', '--json'])).json();
    expect(listed).toMatchObject({ id: made.id, liter: '30.5', currency: 203, dateOfPurchase: '2026-08-02T10:00:00' });
    for (const f of FIELDS.filter((x) => x.fallback !== undefined)) expect(listed[f.name], f.name).toBe(f.fallback);

    expect((await cli(['edit-refuel', String(made.id), '--partial', 'yes', '--description', 'Shell', '--rate', '1'])).code).toBe(0);
    const [edited] = (await cli(['refuelings', '1', '--json'])).json();
    expect(edited).toMatchObject({ id: made.id, partial: true, description: 'Shell', liter: '30.5', price: '1200' });
  });
});
