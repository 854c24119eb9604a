/**
 * Issue 29's records kept on this computer only, added to a benchmark's copy so that the budget screens and
 * the car's whole cost are timed with something to show: the last 24 months' budgets of the first ten
 * top-level categories, 6 other costs and 3 reminders of the benchmark's car. Added to the run's working copy
 * (a fresh copy of the cached one), once.
 */
import type { AppCore } from '../../src-main/core/app/app-core';
import { CAR } from './screens-copy';

const CZK = 203;

const monthsBack = (count: number): string[] => {
  const now = new Date();
  return Array.from({ length: count }, (_, i) => {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    return d.toISOString().slice(0, 7);
  });
};

export async function addLocalRecords(core: AppCore): Promise<void> {
  const tree = await core.getCategoryTree();
  const top = tree.all.filter((c) => c.parentId === 0).slice(0, 10);
  for (const month of monthsBack(24)) {
    for (const [i, c] of top.entries()) {
      await core.setBudget({ month, categoryId: c.id, currency: CZK, amount: String(2000 + 500 * i) });
    }
  }
  const today = new Date().toISOString().slice(0, 10);
  const year = Number(today.slice(0, 4));
  const costs = [
    { date: `${year - 1}-03-12`, kind: 'service', amount: '5890', note: 'Annual service' },
    { date: `${year - 1}-04-02`, kind: 'tyres', amount: '12400', note: 'Summer tyres' },
    { date: `${year - 1}-06-20`, kind: 'insurance', amount: '8120', note: 'Liability' },
    { date: `${year - 1}-12-01`, kind: 'tolls', amount: '2300', note: 'Vignette' },
    { date: `${year - 1}-12-15`, kind: 'parking', amount: '640', note: 'Airport' },
    { date: `${year - 1}-12-28`, kind: 'repairs', amount: '4380', note: 'Brake pads' },
  ] as const;
  for (const c of costs) {
    await core.addCarCost({ carId: CAR.carId, currency: CZK, odometer: null, rate: '1', ...c });
  }
  await core.addReminder({
    carId: CAR.carId,
    kind: 'inspection',
    title: 'Technical inspection',
    dueDate: `${year + 1}-05-01`,
    everyMonths: 24,
  });
  await core.addReminder({ carId: CAR.carId, kind: 'oilChange', title: 'Oil change', dueOdometer: 10_000_000, everyKm: 15_000 });
  await core.addReminder({ carId: CAR.carId, kind: 'insurance', title: 'Insurance renewal', dueDate: today });
}
