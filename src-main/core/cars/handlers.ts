/**
 * The app API's methods of a car's other costs and reminders. Kept on this computer only: each write goes
 * straight to the local copy's own tables (never the outbox), and says so with the 'carCosts' table.
 */
import { AppError, type InputOf, type ReminderView } from '../../../src-shared/app-api';
import { currencyDigits, currencyLabel, decimalPlaces, parseDecimal } from '../../../src-shared/money';
import { CAR_COST, type CarCostWrite } from '../../../src-shared/records/car-cost';
import { pick } from '../../../src-shared/records/fields';
import { REMINDER, type ReminderStored, type ReminderWrite } from '../../../src-shared/records/reminder';
import type { CoreParts, Handlers } from '../app/core-parts';
import { wholeCost } from './car-costs';
import { carReminders, doneReminder, latestReading, reminderView } from './reminders';

export type CarCostMethod =
  | 'getCarWholeCost'
  | 'addCarCost'
  | 'editCarCost'
  | 'removeCarCost'
  | 'listReminders'
  | 'listDueReminders'
  | 'addReminder'
  | 'editReminder'
  | 'completeReminder'
  | 'removeReminder';

/** The currency of a car without records: the last one the user chose, else the Czech crown (as the fuel statistics'). */
const DEFAULT_CURRENCY = 203;

/** What keeps a cost that passed its schema from being kept: a car not in the list, an amount finer than its currency. */
export function carCostProblem(parts: CoreParts, i: CarCostWrite): AppError | null {
  if (!parts.store.cars.list().some((c) => c.carId === i.carId)) return new AppError('carNotListed', { carId: i.carId }, 'carId');
  const digits = currencyDigits(i.currency);
  if (decimalPlaces(parseDecimal(i.amount)!) > digits) {
    return new AppError('amountDecimals', { currency: currencyLabel(i.currency), max: digits }, 'amount');
  }
  return null;
}

function checkCost(parts: CoreParts, i: CarCostWrite): CarCostWrite {
  const problem = carCostProblem(parts, i);
  if (problem) throw problem;
  return pick(i, CAR_COST.sent);
}

function checkReminder(parts: CoreParts, i: ReminderWrite): ReminderWrite {
  if (!parts.store.cars.list().some((c) => c.carId === i.carId)) throw new AppError('carNotListed', { carId: i.carId }, 'carId');
  if (i.dueDate === null && i.dueOdometer === null) throw new AppError('reminderNoDue', {}, 'dueDate');
  return pick(i, REMINDER.sent);
}

/** The car's latest reading: its refuelings (pending ones too) and its costs'. */
const today = (parts: CoreParts) => parts.now().slice(0, 10);
const readingOf = (parts: CoreParts, carId: number) =>
  latestReading(parts.view.refuelings(carId), parts.store.carCosts.list(carId), today(parts));

function reminderOf(parts: CoreParts, id: number): ReminderStored {
  const r = parts.store.reminders.get(id);
  if (!r) throw new AppError('reminderMissing', { id }, 'id');
  return r;
}

const viewOf = (parts: CoreParts, r: ReminderStored): ReminderView => reminderView(r, today(parts), readingOf(parts, r.carId));

function completeReminder(parts: CoreParts, i: InputOf<'completeReminder'>): ReminderView {
  const done = parts.store.transaction(() => {
    const r = reminderOf(parts, i.id);
    const renewed = doneReminder(r, i.date ?? today(parts), i.odometer ?? readingOf(parts, r.carId)?.km ?? null);
    if (!renewed) throw new AppError('reminderNoReading', {}, 'odometer');
    parts.store.reminders.change(renewed);
    return renewed;
  });
  return viewOf(parts, done);
}

export function carCostHandlers(parts: CoreParts): Handlers<CarCostMethod> {
  const { store } = parts;
  const changed = () => parts.changed(['carCosts']);
  return {
    getCarWholeCost: async (i) =>
      wholeCost({
        carId: i.carId,
        refuelings: parts.view.refuelings(i.carId),
        costs: store.carCosts.list(i.carId),
        from: i.from,
        to: i.to,
        today: today(parts),
        fallbackCurrency: parts.preferences().lastCurrency ?? DEFAULT_CURRENCY,
      }),
    addCarCost: async (i) => {
      const id = store.transaction(() => store.carCosts.add(checkCost(parts, i)));
      await changed();
      return store.carCosts.get(id)!;
    },
    editCarCost: async (i) => {
      store.transaction(() => {
        if (!store.carCosts.change({ ...checkCost(parts, i), id: i.id })) throw new AppError('carCostMissing', { id: i.id }, 'id');
      });
      await changed();
      return store.carCosts.get(i.id)!;
    },
    removeCarCost: async (i) => {
      if (!store.transaction(() => store.carCosts.remove(i.id))) throw new AppError('carCostMissing', { id: i.id }, 'id');
      await changed();
      return { id: i.id };
    },
    listReminders: async (i) => carReminders(i.carId, store.reminders.list(i.carId), today(parts), readingOf(parts, i.carId)),
    listDueReminders: async () =>
      store.cars.list().flatMap((car) => {
        const { reminders } = carReminders(car.carId, store.reminders.list(car.carId), today(parts), readingOf(parts, car.carId));
        return reminders.filter((r) => r.state === 'due' || r.state === 'soon');
      }),
    addReminder: async (i) => {
      const id = store.transaction(() => store.reminders.add({ ...checkReminder(parts, i), lastDone: null }));
      await changed();
      return viewOf(parts, store.reminders.get(id)!);
    },
    editReminder: async (i) => {
      const saved = store.transaction(() => {
        const before = reminderOf(parts, i.id);
        const after = { ...checkReminder(parts, i), id: i.id, lastDone: before.lastDone };
        store.reminders.change(after);
        return after;
      });
      await changed();
      return viewOf(parts, saved);
    },
    completeReminder: async (i) => {
      const view = completeReminder(parts, i);
      await changed();
      return view;
    },
    removeReminder: async (i) => {
      if (!store.transaction(() => store.reminders.remove(i.id))) throw new AppError('reminderMissing', { id: i.id }, 'id');
      await changed();
      return { id: i.id };
    },
  };
}
