/**
 * A car's year for the tests of its whole cost and reminders: 25 refuelings through 2026 drawn from a seed
 * (every 14 or 15 days, 550 to 650 km apart, so that a reading 1,000 km ahead is always the next but one
 * refueling's), 6 other costs (one in euros at a rate) and 3 reminders (the issue's: technical inspection,
 * oil change, insurance renewal).
 */
import { seededRandom } from '../../src-service/admin/seeded-random';
import type { ArgOf } from '../../src-shared/app-api';
import type { RefuelingSeed } from '../insights/local-data';

export const CAR_ID = 7;
export const START_KM = 48_000;

/** The year's refuelings, oldest first (ids 1..25): whole litres and prices in crowns with cents. */
export function yearOfRefuelings(seed: number): RefuelingSeed[] {
  const random = seededRandom(seed);
  const out: RefuelingSeed[] = [];
  let day = Date.UTC(2026, 0, 3);
  let km = START_KM;
  for (let i = 1; i <= 25; i++) {
    const litres = 30 + Math.floor(random() * 20);
    // 36.90 to 41.89 CZK a litre, in whole hellers: the price is exact.
    const cents = litres * (3690 + Math.floor(random() * 500));
    out.push({
      id: i,
      carId: CAR_ID,
      dateOfPurchase: `${new Date(day).toISOString().slice(0, 10)}T08:00:00`,
      tachometer: km,
      liter: String(litres),
      price: `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
    });
    day += (14 + Math.floor(random() * 2)) * 86_400_000;
    km += 550 + Math.floor(random() * 101);
  }
  return out;
}

export const YEAR_COSTS: ArgOf<'addCarCost'>[] = [
  { carId: CAR_ID, date: '2026-01-20', kind: 'insurance', amount: '8400', currency: 203, note: 'liability, a year' },
  { carId: CAR_ID, date: '2026-02-01', kind: 'tolls', amount: '2440', currency: 203, note: 'vignette 2026' },
  { carId: CAR_ID, date: '2026-04-11', kind: 'tyres', odometer: 52_100, amount: '1200.50', currency: 203, note: 'summer tyres on' },
  { carId: CAR_ID, date: '2026-06-02', kind: 'service', odometer: 54_800, amount: '5890', currency: 203, note: 'oil and filters' },
  { carId: CAR_ID, date: '2026-07-18', kind: 'tolls', amount: '12.80', currency: 978, rate: '25.125', note: 'Austrian vignette' },
  { carId: CAR_ID, date: '2026-10-05', kind: 'parking', amount: '350', currency: 203, note: '' },
];

/** The reminders; the oil change is due at the 15th refueling's reading (see yearOfRefuelings). */
export function yearReminders(refuelings: readonly RefuelingSeed[]): ArgOf<'addReminder'>[] {
  return [
    { carId: CAR_ID, kind: 'inspection', title: 'STK', dueDate: '2026-09-15', everyMonths: 24 },
    { carId: CAR_ID, kind: 'oilChange', dueOdometer: refuelings[14]!.tachometer, everyKm: 15_000, everyMonths: 12 },
    { carId: CAR_ID, kind: 'insurance', dueDate: '2026-12-31', everyMonths: 12, note: 'compare offers first' },
  ];
}
