/**
 * Cars (local names for the service's CarIds) and their refuelings. A write changes the cars and
 * refuelings tables: the screens showing them read again on the core's data-changed event.
 */
import { defineStore } from 'pinia';
import { computed, ref, watch } from 'vue';
import type { CarFetch, CarView, RefuelingEditInput, RefuelingInput, WriteResult } from '../../../src-shared/app-api';
import { api } from '../api';
import { i18n } from '../i18n';
import { odometerWarning, type OdometerWarning } from '../logic/refuelings';
import { createCarRefuelings } from './car-refuelings';
import { createLoader, write } from './loader';
import { useStatusStore } from './status';

export const useCarsStore = defineStore('cars', () => {
  const cars = ref<CarView[]>([]);
  const refuelings = createCarRefuelings();
  const loader = createLoader(
    () => api().listCars(),
    (list) => {
      cars.value = list;
      // The car list is read again whenever cars or refuelings changed: the refuelings kept for odometer
      // checks may be stale by then. The open car's list is read again by its screen.
      refuelings.forgetOthers();
    },
  );

  const byId = computed(() => new Map(cars.value.map((c) => [c.carId, c])));

  /** A car's name; a car not in the list is named as unknown, never by its number. */
  function carName(carId: number): string {
    return byId.value.get(carId)?.name ?? i18n.global.t('names.unknownCar');
  }

  /** A car in a list to choose from: its name, with its number only where another car has the same name. */
  function carOption(carId: number): string {
    const name = carName(carId);
    return cars.value.filter((c) => c.name === name).length > 1 ? i18n.global.t('names.carNumbered', { name, id: carId }) : name;
  }

  async function saveCar(carId: number, name: string): Promise<void> {
    cars.value = await write(() => api().saveCar({ carId, name }));
  }

  /** Cars just added whose refuelings the service could not be asked for: they come with the next sync that goes through. */
  const awaitingSync = ref<ReadonlySet<number>>(new Set());
  const status = useStatusStore();
  watch(
    () => status.status?.lastSyncAt,
    (at, before) => {
      if (at !== before) awaitingSync.value = new Set();
    },
  );

  /** A car just added by its number: its refuelings read from the service at once (CarFuelList), when it can be asked. */
  async function fetchRefuelings(carId: number): Promise<CarFetch> {
    const fetched = await api().fetchCarRefuelings({ carId });
    const waiting = new Set(awaitingSync.value);
    if (fetched.problem) waiting.add(carId);
    else waiting.delete(carId);
    awaitingSync.value = waiting;
    return fetched;
  }

  async function removeCar(carId: number): Promise<void> {
    cars.value = await write(() => api().removeCar({ carId }));
  }

  /** The odometer check against the car's known refuelings (or its last reading when none are loaded). */
  function checkOdometer(carId: number, reading: number, date: string, excludeId?: number): OdometerWarning | null {
    return odometerWarning(reading, date, refuelings.byCar.value[carId] ?? [], {
      ...(excludeId === undefined ? {} : { excludeId }),
      lastTachometer: byId.value.get(carId)?.lastTachometer ?? null,
    });
  }

  return {
    cars,
    refuelings: refuelings.byCar,
    openCarId: refuelings.openCarId,
    byId,
    carName,
    carOption,
    loading: loader.loading,
    loaded: loader.loaded,
    error: loader.error,
    refuelingsLoading: refuelings.loading,
    refuelingsError: refuelings.error,
    load: loader.load,
    openCar: refuelings.openCar,
    ensureRefuelings: refuelings.ensure,
    saveCar,
    fetchRefuelings,
    awaitingSync,
    removeCar,
    checkOdometer,
    setPartial: refuelings.setPartial,
    /** Queues a new refueling; the marks kept here (partial fill...) are set with it in one call. */
    addRefueling: (input: RefuelingInput): Promise<WriteResult> => write(() => api().addRefueling(input)),
    /** Queues an edit; marks given change with it, the others stay as they are. */
    editRefueling: (input: RefuelingEditInput): Promise<WriteResult> => write(() => api().editRefueling(input)),
  };
});
