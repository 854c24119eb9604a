/**
 * A car's whole cost and its reminders through a real app core on real SQLite: a year of refuelings drawn
 * from a fixed seed, six other costs and three reminders. The figures are checked against a plain
 * recomputation with exact decimals written here (test/support/decimal-oracle.ts, apart from the app's
 * money code), the reminders' states day by day across the year against the rule recomputed here, and at
 * the days worked out by hand.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppCore } from '../../src-main/core/app/app-core';
import type { AppError } from '../../src-shared/app-api';
import { daysFrom } from '../../src-shared/calendar';
import { seedLocal, type RefuelingSeed } from '../insights/local-data';
import { openCore, tempDir } from '../support/client';
import { SCALE, text, units } from '../support/decimal-oracle';
import { testSeed } from '../support/seed';
import { CAR_ID, YEAR_COSTS, yearOfRefuelings, yearReminders } from './car-year';

const SEED = testSeed('CAR_YEAR_SEED', 2026);
const refuelings = yearOfRefuelings(SEED);

let today = '2026-01-01';
let opened: { core: AppCore; remove(): void } | null = null;
afterEach(async () => {
  await opened?.core.close();
  opened?.remove();
  opened = null;
});

/** A core on a copy holding the car and its refuelings, its clock at noon of `today` (Prague). */
function open(seed: { refuelings?: RefuelingSeed[] } = {}): AppCore {
  const tmp = tempDir('bookkeeping-car-costs-');
  const file = tmp.file('local.sqlite');
  seedLocal(file, { cars: [{ carId: CAR_ID, name: 'Octavia' }], refuelings: seed.refuelings ?? refuelings });
  const core = openCore(file, { clock: () => Date.parse(`${today}T10:00:00Z`) });
  opened = { core, remove: tmp.remove };
  return core;
}

async function withYear(): Promise<AppCore> {
  const core = open();
  for (const c of YEAR_COSTS) await core.addCarCost(c);
  for (const r of yearReminders(refuelings)) await core.addReminder(r);
  return core;
}

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e as AppError,
  );

// ---- the oracle: plain recomputation -----------------------------------------------------------------

/** a / b rounded half away from zero to `places` decimals, as text (a, b in oracle units). */
function divided(a: bigint, b: bigint, places: number): string {
  const num = a * 10n ** BigInt(places);
  const q = (num * 2n + (num < 0n ? -b : b)) / (2n * b);
  return text(q * 10n ** BigInt(SCALE - places));
}

/** A cost in crowns: as it is, or times its rate rounded half away from zero to hellers. */
function crowns(amount: string, currency: number, rate = '1'): bigint {
  if (currency === 203) return units(amount);
  const exact = (units(amount) * units(rate)) / 10n ** BigInt(SCALE);
  const hellers = 10n ** BigInt(SCALE - 2);
  return ((exact * 2n + hellers) / (2n * hellers)) * hellers;
}

describe('the whole cost of a car', () => {
  it('adds fuel and every other cost by kind, per km and per month, as the oracle does', async () => {
    today = '2026-12-31';
    const core = await withYear();
    const fuel = refuelings.reduce((s, r) => s + units(r.price), 0n);
    const other = YEAR_COSTS.reduce((s, c) => s + crowns(c.amount, c.currency, c.rate), 0n);
    const readings = [...refuelings.map((r) => r.tachometer), 52_100, 54_800];
    const distance = Math.max(...readings) - Math.min(...readings);

    const whole = await core.getCarWholeCost({ carId: CAR_ID });
    expect(whole).toMatchObject({ currency: 203, from: '2026-01-03', to: '2026-12-31', months: 12, distance });
    expect(whole.totals).toEqual({ fuel: text(fuel), other: text(other), total: text(fuel + other) });
    // The Austrian vignette: 12.80 EUR × 25.125 = 321.60 CZK, with the Czech one 2761.60.
    expect(whole.byKind.find((k) => k.kind === 'tolls')).toEqual({ kind: 'tolls', total: '2761.6', count: 2 });
    expect(whole.byKind.find((k) => k.kind === 'fuel')).toEqual({ kind: 'fuel', total: text(fuel), count: 25 });
    expect(whole.byKind.find((k) => k.kind === 'repairs')).toEqual({ kind: 'repairs', total: '0', count: 0 });
    const d = BigInt(distance) * 10n ** BigInt(SCALE);
    const twelve = 12n * 10n ** BigInt(SCALE);
    expect(whole.perKm).toEqual({ fuel: divided(fuel, d, 4), other: divided(other, d, 4), total: divided(fuel + other, d, 4) });
    expect(whole.perMonth).toEqual({
      fuel: divided(fuel, twelve, 2),
      other: divided(other, twelve, 2),
      total: divided(fuel + other, twelve, 2),
    });
    // Month by month, the same records.
    const june = whole.byMonth.find((m) => m.month === '2026-06')!;
    const juneFuel = refuelings.filter((r) => r.dateOfPurchase.startsWith('2026-06')).reduce((s, r) => s + units(r.price), 0n);
    expect(june).toEqual({ month: '2026-06', fuel: text(juneFuel), other: '5890', total: text(juneFuel + units('5890')) });
    expect(whole.byMonth).toHaveLength(12);
    expect(whole.costs.map((c) => c.date)).toEqual(YEAR_COSTS.map((c) => c.date).reverse());
  });

  it('counts a period: its records only, its calendar months, its readings', async () => {
    today = '2026-12-31';
    const core = await withYear();
    const inQ2 = refuelings.filter((r) => r.dateOfPurchase >= '2026-04-01' && r.dateOfPurchase < '2026-07');
    const fuel = inQ2.reduce((s, r) => s + units(r.price), 0n);
    const other = units('1200.50') + units('5890');
    const readings = [...inQ2.map((r) => r.tachometer), 52_100, 54_800];
    const distance = Math.max(...readings) - Math.min(...readings);
    const q2 = await core.getCarWholeCost({ carId: CAR_ID, from: '2026-04-01', to: '2026-06-30' });
    expect(q2).toMatchObject({ from: '2026-04-01', to: '2026-06-30', months: 3, distance });
    expect(q2.totals.total).toBe(text(fuel + other));
    expect(q2.perMonth!.total).toBe(divided(fuel + other, 3n * 10n ** BigInt(SCALE), 2));
    expect(q2.costs.map((c) => c.kind)).toEqual(['service', 'tyres']);
  });

  it('keeps costs on this computer only: never in the outbox; edits and deletes them; refuses what it cannot keep', async () => {
    today = '2026-06-01';
    const core = open();
    const added = await core.addCarCost({ carId: CAR_ID, date: '2026-05-30', kind: 'repairs', amount: '999.90', currency: 203 });
    expect(added).toMatchObject({ odometer: null, rate: '1', note: '', kind: 'repairs' });
    expect(await core.listOutbox()).toEqual([]);
    expect((await core.getStatus()).outbox.pending).toBe(0);

    const edited = await core.editCarCost({ ...added, odometer: 50_000, amount: '1000', note: 'brakes' });
    expect(edited).toEqual({ ...added, odometer: 50_000, amount: '1000', note: 'brakes' });
    expect((await core.getCarWholeCost({ carId: CAR_ID })).costs).toEqual([edited]);

    expect(await errorOf(core.addCarCost({ carId: 99, date: '2026-05-30', kind: 'other', amount: '1', currency: 203 }))).toMatchObject({
      code: 'carNotListed',
      field: 'carId',
    });
    expect(
      await errorOf(core.addCarCost({ carId: CAR_ID, date: '2026-05-30', kind: 'other', amount: '1.005', currency: 203 })),
    ).toMatchObject({
      code: 'amountDecimals',
      field: 'amount',
    });
    expect(await errorOf(core.addCarCost({ carId: CAR_ID, date: '2026-02-30', kind: 'other', amount: '1', currency: 203 }))).toMatchObject({
      code: 'notDate',
      field: 'date',
    });
    expect(
      await errorOf(core.addCarCost({ carId: CAR_ID, date: '2026-02-03', kind: 'fuel' as 'other', amount: '1', currency: 203 })),
    ).toMatchObject({ code: 'notOneOf' });

    await core.removeCarCost({ id: added.id });
    expect((await core.getCarWholeCost({ carId: CAR_ID })).costs).toEqual([]);
    expect(await errorOf(core.removeCarCost({ id: added.id }))).toMatchObject({ code: 'carCostMissing' });
    expect(await core.listOutbox()).toEqual([]);
  });
});

describe("a car's costs as CSV", () => {
  it('a Czech spreadsheet file (semicolons, decimal commas, Czech names) is read, all rows or none; the export reads back', async () => {
    today = '2026-12-31';
    const core = open();
    const czech = [
      '\uFEFFDatum;Druh;Stav tachometru;Částka;Měna;Poznámka',
      '3. 2. 2026;Servis;12 500;4 200,50;CZK;olej',
      '2026-03-01;dálniční známka;;2 440;;',
      '15.4.2026;pneumatiky;13 900;1 200;Kč;"zimní; 4 ks"',
    ].join('\r\n');
    expect(await core.importCarCosts({ carId: CAR_ID, content: czech, currency: 203 })).toEqual({ imported: 3 });
    const costs = (await core.getCarWholeCost({ carId: CAR_ID })).costs;
    expect(costs.map((c) => [c.date, c.kind, c.odometer, c.amount, c.currency, c.note])).toEqual([
      ['2026-04-15', 'tyres', 13_900, '1200', 203, 'zimní; 4 ks'],
      ['2026-03-01', 'tolls', null, '2440', 203, ''],
      ['2026-02-03', 'service', 12_500, '4200.5', 203, 'olej'],
    ]);
    // A row that cannot be read: nothing of the file is added.
    const wrong = 'date,kind,amount\r\n2026-05-01,parking,100\r\n2026-05-02,fuel,50\r\n';
    expect(await errorOf(core.importCarCosts({ carId: CAR_ID, content: wrong, currency: 203 }))).toMatchObject({
      code: 'importLineRefused',
      params: { line: 3 },
    });
    expect(await errorOf(core.importCarCosts({ carId: CAR_ID, content: 'date,amount\r\n2026-05-01,1\r\n', currency: 203 }))).toMatchObject({
      code: 'importNoColumn',
      params: { field: 'kind' },
    });
    expect((await core.getCarWholeCost({ carId: CAR_ID })).costs).toHaveLength(3);

    const exported = await core.exportCarCostsCsv({ carId: CAR_ID });
    expect(exported).toMatchObject({ fileName: 'car-costs-car-7-2026-12-31.csv', rows: 3 });
    await core.saveCar({ carId: 8, name: 'Fabia' });
    expect(await core.importCarCosts({ carId: 8, content: exported.content, currency: 978 })).toEqual({ imported: 3 });
    const strip = ({ id: _i, carId: _c, ...rest }: { id: number; carId: number }) => rest;
    expect((await core.getCarWholeCost({ carId: 8 })).costs.map(strip)).toEqual(costs.map(strip));
  });
});

// ---- reminders -----------------------------------------------------------------------------------------

type State = 'due' | 'soon' | 'later' | 'done';

/** The rule recomputed: the latest refueling on or before the day (the year's costs' readings are older than the next refueling). */
function expectedStates(day: string): State[] {
  const costsSeen = [
    { date: '2026-04-11', km: 52_100 },
    { date: '2026-06-02', km: 54_800 },
  ].filter((c) => c.date <= day);
  const fills = refuelings
    .filter((r) => r.dateOfPurchase.slice(0, 10) <= day)
    .map((r) => ({ date: r.dateOfPurchase.slice(0, 10), km: r.tachometer }));
  const latest = [...fills, ...costsSeen].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.km - b.km)).at(-1);
  const byDate = (due: string): State => {
    const days = (Date.parse(due) - Date.parse(day)) / 86_400_000;
    return days <= 0 ? 'due' : days <= 30 ? 'soon' : 'later';
  };
  const dueKm = refuelings[14]!.tachometer;
  const oil: State = !latest ? 'later' : latest.km >= dueKm ? 'due' : dueKm - latest.km <= 1000 ? 'soon' : 'later';
  return [byDate('2026-09-15'), oil, byDate('2026-12-31')];
}

describe('reminders across a year of refuelings', () => {
  it('are due and soon due by date and by odometer on every day of the year as the rule says', async () => {
    const core = await withYear();
    const kinds = ['inspection', 'oilChange', 'insurance'];
    for (const day of daysFrom('2026-01-01', '2026-12-31')) {
      today = day;
      const list = await core.listReminders({ carId: CAR_ID });
      const states = kinds.map((k) => list.reminders.find((r) => r.kind === k)!.state);
      expect(states, day).toEqual(expectedStates(day));
    }
  });

  it('turn at the days worked out by hand', async () => {
    const core = await withYear();
    const state = async (day: string, kind: string) => {
      today = day;
      return (await core.listReminders({ carId: CAR_ID })).reminders.find((r) => r.kind === kind)!;
    };
    // The inspection on 15 September: 31 days before is later, 30 days before soon, the day itself due.
    expect(await state('2026-08-15', 'inspection')).toMatchObject({ state: 'later', daysLeft: 31 });
    expect(await state('2026-08-16', 'inspection')).toMatchObject({ state: 'soon', daysLeft: 30 });
    expect(await state('2026-09-14', 'inspection')).toMatchObject({ state: 'soon', daysLeft: 1 });
    expect(await state('2026-09-15', 'inspection')).toMatchObject({ state: 'due', daysLeft: 0 });
    expect(await state('2026-10-01', 'inspection')).toMatchObject({ state: 'due', daysLeft: -16 });
    // The oil change at the 15th refueling's reading: refuelings are 550-650 km apart, so the 13th is over
    // 1,000 km short (later), the 14th within 1,000 km (soon) and the 15th reaches it (due).
    const [r13, r14, r15] = [refuelings[12]!, refuelings[13]!, refuelings[14]!];
    const dayOf = (r: RefuelingSeed) => r.dateOfPurchase.slice(0, 10);
    expect(await state(dayOf(r13), 'oilChange')).toMatchObject({ state: 'later', kmLeft: r15.tachometer - r13.tachometer });
    expect(await state(dayOf(r14), 'oilChange')).toMatchObject({ state: 'soon', kmLeft: r15.tachometer - r14.tachometer });
    expect(await state(dayOf(r15), 'oilChange')).toMatchObject({ state: 'due', kmLeft: 0 });
    // The reading is the latest refueling's up to the day: none later than today counts.
    today = dayOf(r14);
    expect((await core.listReminders({ carId: CAR_ID })).odometer).toEqual({ km: r14.tachometer, date: dayOf(r14) });
    // The Cars screen's list: what is due or soon of every car.
    today = '2026-12-05';
    expect((await core.listDueReminders()).map((r) => [r.kind, r.state])).toEqual([
      ['inspection', 'due'],
      ['insurance', 'soon'],
      ['oilChange', 'due'],
    ]);
  });

  it('done renews a repeated reminder from that day and reading, and closes one that does not repeat', async () => {
    const core = await withYear();
    const r15 = refuelings[14]!;
    today = r15.dateOfPurchase.slice(0, 10);
    const oil = (await core.listReminders({ carId: CAR_ID })).reminders.find((r) => r.kind === 'oilChange')!;
    const renewed = await core.completeReminder({ id: oil.id });
    // 12 months and 15,000 km on from the day and the reading it was done at.
    const nextDay = `2027${today.slice(4)}`;
    expect(renewed).toMatchObject({ state: 'later', dueOdometer: r15.tachometer + 15_000, dueDate: nextDay, lastDone: today, done: false });

    // 31 January + 1 month: the last of February.
    const wash = await core.addReminder({ carId: CAR_ID, kind: 'other', title: 'Wash', dueDate: '2026-01-31', everyMonths: 1 });
    expect(await core.completeReminder({ id: wash.id, date: '2026-01-31' })).toMatchObject({ dueDate: '2026-02-28', dueOdometer: null });

    const once = await core.addReminder({ carId: CAR_ID, kind: 'other', title: 'Sell the roof box', dueDate: '2026-05-01' });
    expect(await core.completeReminder({ id: once.id })).toMatchObject({ state: 'done', done: true, lastDone: today });

    const { state: _s, daysLeft: _d, kmLeft: _k, lastDone: _l, ...fields } = once;
    const edited = await core.editReminder({ ...fields, title: 'Sell the roof box (done)', done: true });
    expect(edited).toMatchObject({ title: 'Sell the roof box (done)', lastDone: today });

    expect(await errorOf(core.addReminder({ carId: CAR_ID, kind: 'other' }))).toMatchObject({
      code: 'reminderNoDue',
      field: 'dueDate',
    });
    await core.removeReminder({ id: once.id });
    expect(await errorOf(core.completeReminder({ id: once.id }))).toMatchObject({ code: 'reminderMissing' });
    expect(await core.listOutbox()).toEqual([]);
  });

  it('a reminder by kilometres of a car without any reading asks for the reading it was done at', async () => {
    today = '2026-03-01';
    const core = open({ refuelings: [] });
    const r = await core.addReminder({ carId: CAR_ID, kind: 'tyres', dueDate: '2026-03-15', everyKm: 10_000 });
    expect(await errorOf(core.completeReminder({ id: r.id }))).toMatchObject({ code: 'reminderNoReading', field: 'odometer' });
    expect(await core.completeReminder({ id: r.id, odometer: 61_000 })).toMatchObject({ dueOdometer: 71_000, dueDate: null });
  });
});
