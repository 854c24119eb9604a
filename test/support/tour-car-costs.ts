/** The app API tour's part for a car's other costs and reminders, kept on this computer only (see app-api-tour.ts). */
import { expect } from 'vitest';
import type { CarReminders, CarWholeCost, CsvFile, OutboxEntryView, ReminderView } from '../../src-shared/app-api';
import type { CarCostStored } from '../../src-shared/records/car-cost';
import type { TourCall } from './app-api-tour';

export async function tourCarCosts(ok: TourCall, carId: number): Promise<void> {
  const queued = (await ok<OutboxEntryView[]>('listOutbox')).length;
  const cost = await ok<CarCostStored>('addCarCost', { carId, date: '2020-02-03', kind: 'service', amount: '1500.50', currency: 203 });
  expect(cost).toMatchObject({ carId, odometer: null, rate: '1', note: '' });
  const edited = await ok<CarCostStored>('editCarCost', { ...cost, odometer: 1000, note: 'tour' });
  expect(edited).toMatchObject({ id: cost.id, odometer: 1000, note: 'tour' });
  const whole = await ok<CarWholeCost>('getCarWholeCost', { carId, from: '2020-01-01', to: '2020-12-31' });
  expect(whole).toMatchObject({ months: 12, totals: { fuel: '0', other: '1500.5', total: '1500.5' }, costs: [edited] });
  const csv = await ok<CsvFile>('exportCarCostsCsv', { carId });
  expect(csv.rows).toBe(1);
  expect(await ok<{ imported: number }>('importCarCosts', { carId, content: csv.content, currency: 203 })).toEqual({ imported: 1 });

  const reminder = await ok<ReminderView>('addReminder', { carId, kind: 'inspection', dueDate: '2020-03-01', everyMonths: 24 });
  expect(reminder.state).toBe('due');
  expect((await ok<ReminderView[]>('listDueReminders')).map((r) => r.id)).toContain(reminder.id);
  const { state: _s, daysLeft: _d, kmLeft: _k, lastDone: _l, ...fields } = reminder;
  expect(await ok<ReminderView>('editReminder', { ...fields, title: 'STK' })).toMatchObject({ title: 'STK' });
  expect(await ok<ReminderView>('completeReminder', { id: reminder.id, date: '2020-03-01' })).toMatchObject({ dueDate: '2022-03-01' });
  expect((await ok<CarReminders>('listReminders', { carId })).reminders.map((r) => r.id)).toContain(reminder.id);
  expect(await ok<{ id: number }>('removeReminder', { id: reminder.id })).toEqual({ id: reminder.id });
  for (const c of (await ok<CarWholeCost>('getCarWholeCost', { carId })).costs) await ok('removeCarCost', { id: c.id });
  // Kept here only: nothing of it was queued.
  expect(await ok<OutboxEntryView[]>('listOutbox')).toHaveLength(queued);
}
