/**
 * A car's whole cost, its other costs and its reminders, and the reminders due of every car (the Cars
 * screen's hint): all kept on this computer only. A write changes the carCosts table: the screens showing
 * it read again on the core's data-changed event.
 */
import { defineStore } from 'pinia';
import { ref } from 'vue';
import type { ArgOf, CarReminders, CarWholeCost, ReminderView } from '../../../src-shared/app-api';
import { api } from '../api';
import { createLoader, write } from './loader';

export const useCarCostsStore = defineStore('carCosts', () => {
  const carId = ref<number | null>(null);
  const whole = ref<CarWholeCost | null>(null);
  const reminders = ref<CarReminders | null>(null);
  const loader = createLoader(
    async () => {
      const id = carId.value;
      if (id === null) return null;
      return Promise.all([api().getCarWholeCost({ carId: id }), api().listReminders({ carId: id })]);
    },
    (answer) => {
      whole.value = answer?.[0] ?? null;
      reminders.value = answer?.[1] ?? null;
    },
  );

  /** Reads a car's whole cost and reminders (again). */
  async function openCar(id: number): Promise<void> {
    if (carId.value !== id) {
      whole.value = null;
      reminders.value = null;
    }
    carId.value = id;
    await loader.load();
  }

  const due = ref<ReminderView[]>([]);
  const dueLoader = createLoader(
    () => api().listDueReminders(),
    (list) => {
      due.value = list;
    },
  );

  return {
    whole,
    reminders,
    loading: loader.loading,
    error: loader.error,
    openCar,
    due,
    dueError: dueLoader.error,
    loadDue: dueLoader.load,
    addCost: (input: ArgOf<'addCarCost'>) => write(() => api().addCarCost(input)),
    editCost: (input: ArgOf<'editCarCost'>) => write(() => api().editCarCost(input)),
    removeCost: (id: number) => write(() => api().removeCarCost({ id })),
    addReminder: (input: ArgOf<'addReminder'>) => write(() => api().addReminder(input)),
    editReminder: (input: ArgOf<'editReminder'>) => write(() => api().editReminder(input)),
    completeReminder: (id: number) => write(() => api().completeReminder({ id })),
    removeReminder: (id: number) => write(() => api().removeReminder({ id })),
  };
});
