/**
 * The refuelings of the cars a screen opened or a form checks odometers against, per car id, newest
 * first: the open car's list read by its screen, any other car's read when first wanted.
 */
import { ref } from 'vue';
import type { RefuelingView } from '../../../src-shared/app-api';
import { api } from '../api';
import { createLoader, write } from './loader';

export function createCarRefuelings() {
  const byCar = ref<Record<number, RefuelingView[]>>({});
  const openCarId = ref<number | null>(null);
  const loader = createLoader(
    async () => {
      const carId = openCarId.value;
      return carId === null ? null : { carId, list: await api().listRefuelings({ carId }) };
    },
    (r) => {
      if (r) keep(r.carId, r.list);
    },
  );

  function keep(carId: number, list: RefuelingView[]): void {
    byCar.value = { ...byCar.value, [carId]: list };
  }

  /** Opens a car's list (its screen), read now and whenever the screen reads again. */
  async function openCar(carId: number): Promise<void> {
    openCarId.value = carId;
    await loader.load();
  }

  async function ensure(carId: number): Promise<RefuelingView[]> {
    const known = byCar.value[carId];
    if (known) return known;
    const list = await api().listRefuelings({ carId });
    keep(carId, list);
    return list;
  }

  /** Local data changed: the lists may be stale (a sync replaced temporary ids, brought new ones); all but the open car's go. */
  function forgetOthers(): void {
    const open = openCarId.value;
    byCar.value = open !== null && byCar.value[open] ? { [open]: byCar.value[open] } : {};
  }

  /**
   * Marks a refueling as a partial fill (the tank not filled up) or a full one. The mark is the app's
   * own and is never sent to the service; the statistics carry a partial fill into the next full one.
   */
  async function setPartial(carId: number, id: number, partial: boolean): Promise<void> {
    keep(carId, await write(() => api().setRefuelingPartial({ id, partial })));
  }

  return {
    byCar,
    openCarId,
    loading: loader.loading,
    error: loader.error,
    openCar,
    ensure,
    forgetOthers,
    setPartial,
  };
}
