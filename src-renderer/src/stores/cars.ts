/** Cars (local names for the service's CarIds) and their refuelings. */
import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { CarView, RefuelingEditInput, RefuelingInput, RefuelingView, WriteResult } from '../../../src-shared/app-api';
import { api } from '../api';
import { i18n } from '../i18n';
import { odometerWarning, type OdometerWarning } from '../logic/refuelings';
import { createLoader, write } from './loader';

export const useCarsStore = defineStore('cars', () => {
  const cars = ref<CarView[]>([]);
  /** Refuelings per car id, newest first, for the cars that were opened. */
  const refuelings = ref<Record<number, RefuelingView[]>>({});
  const openCarId = ref<number | null>(null);

  const loader = createLoader(
    () => api().listCars(),
    (list) => {
      cars.value = list;
      // The car list is read after every change of local data: the refuelings kept for odometer checks
      // may be stale by then (a sync replaced temporary ids, brought new ones). The open car's list is
      // read again by its screen; the others are fetched again when next wanted.
      const open = openCarId.value;
      refuelings.value = open !== null && refuelings.value[open] ? { [open]: refuelings.value[open] } : {};
    },
  );
  const refuelingsLoader = createLoader(
    async () => {
      const carId = openCarId.value;
      return carId === null ? null : { carId, list: await api().listRefuelings({ carId }) };
    },
    (r) => {
      if (r) refuelings.value = { ...refuelings.value, [r.carId]: r.list };
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

  async function openCar(carId: number): Promise<void> {
    openCarId.value = carId;
    await refuelingsLoader.load();
  }

  async function saveCar(carId: number, name: string): Promise<void> {
    cars.value = await write(() => api().saveCar({ carId, name }));
  }

  async function removeCar(carId: number): Promise<void> {
    cars.value = await write(() => api().removeCar({ carId }));
  }

  async function ensureRefuelings(carId: number): Promise<RefuelingView[]> {
    const known = refuelings.value[carId];
    if (known) return known;
    const list = await api().listRefuelings({ carId });
    refuelings.value = { ...refuelings.value, [carId]: list };
    return list;
  }

  /** The odometer check against the car's known refuelings (or its last reading when none are loaded). */
  function checkOdometer(carId: number, reading: number, date: string, excludeId?: number): OdometerWarning | null {
    return odometerWarning(reading, date, refuelings.value[carId] ?? [], {
      ...(excludeId === undefined ? {} : { excludeId }),
      lastTachometer: byId.value.get(carId)?.lastTachometer ?? null,
    });
  }

  async function afterWrite(carId: number): Promise<void> {
    await loader.load();
    refuelings.value = { ...refuelings.value, [carId]: await api().listRefuelings({ carId }) };
  }

  /**
   * Marks a refueling as a partial fill (the tank not filled up) or a full one. The mark is the app's
   * own and is never sent to the service; the statistics carry a partial fill into the next full one.
   */
  async function setPartial(carId: number, id: number, partial: boolean): Promise<void> {
    const list = await write(() => api().setRefuelingPartial({ id, partial }));
    refuelings.value = { ...refuelings.value, [carId]: list };
  }

  /** Queues a new refueling; the marks kept here (partial fill...) are set with it in one call. */
  async function addRefueling(input: RefuelingInput): Promise<WriteResult> {
    const result = await write(() => api().addRefueling(input));
    await afterWrite(input.carId);
    return result;
  }

  /** Queues an edit; marks given change with it, the others stay as they are. */
  async function editRefueling(input: RefuelingEditInput): Promise<WriteResult> {
    const result = await write(() => api().editRefueling(input));
    await afterWrite(input.carId);
    return result;
  }

  return {
    cars,
    refuelings,
    openCarId,
    byId,
    carName,
    carOption,
    loading: loader.loading,
    loaded: loader.loaded,
    error: loader.error,
    refuelingsLoading: refuelingsLoader.loading,
    refuelingsError: refuelingsLoader.error,
    load: loader.load,
    openCar,
    ensureRefuelings,
    saveCar,
    removeCar,
    checkOdometer,
    setPartial,
    addRefueling,
    editRefueling,
  };
});
