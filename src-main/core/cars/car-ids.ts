/**
 * Helping a user name a car: the service knows cars only by number (CarId) and has no list of them.
 * The numbers the local copy has refuelings of can be picked; a number typed is checked at once
 * against the service's CarFuelList.
 */
import type { AppError, CarCheck, CarFetch, CarIdSeen } from '../../../src-shared/app-api';
import type { LocalView } from '../outbox/local-view';
import type { SoapClient } from '../soap-client';
import { refuelingFromApi } from '../store/rows';
import type { Store } from '../store/store';

/** The service lists at most this many refuelings of a car (its last ones). */
const LISTED_AT_MOST = 50;

/** Every car number with refuelings here, named or not, and every named car, by number. */
export function carIdsSeen(store: Store, view: LocalView): CarIdSeen[] {
  const names = new Map(store.cars.list().map((c) => [c.carId, c.name]));
  const seen = new Map<number, CarIdSeen>(
    store.refuelings.carSummaries().map((s) => [s.carId, { ...s, name: names.get(s.carId) ?? null }]),
  );
  // Pending refuelings count too (a car's first ones entered offline).
  for (const carId of view.pendingCars()) {
    if (seen.has(carId)) continue;
    const list = view.refuelings(carId);
    seen.set(carId, {
      carId,
      name: names.get(carId) ?? null,
      refuelings: list.length,
      lastDate: list[0]?.dateOfPurchase ?? null,
      lastTachometer: list[0]?.tachometer ?? null,
    });
  }
  for (const [carId, name] of names) {
    if (!seen.has(carId)) seen.set(carId, { carId, name, refuelings: 0, lastDate: null, lastTachometer: null });
  }
  return [...seen.values()].sort((a, b) => a.carId - b.carId);
}

/** What the service has of a car number; a failure to ask is told, never thrown (the user may add the car anyway). */
export async function checkCarId(
  carId: number,
  store: Store,
  client: () => Promise<SoapClient>,
  toAppError: (e: unknown) => AppError,
): Promise<CarCheck> {
  const name = store.cars.list().find((c) => c.carId === carId)?.name ?? null;
  try {
    const list = await (await client()).call('CarFuelList', { CarId: carId });
    const last = [...list].sort((a, b) =>
      a.DateOfPurchase < b.DateOfPurchase ? 1 : a.DateOfPurchase > b.DateOfPurchase ? -1 : b.Id - a.Id,
    )[0];
    return {
      carId,
      name,
      service: {
        refuelings: list.length,
        more: list.length >= LISTED_AT_MOST,
        lastDate: last?.DateOfPurchase ?? null,
        lastTachometer: last?.Tachometer ?? null,
      },
      problem: null,
    };
  } catch (e) {
    return { carId, name, service: null, problem: toAppError(e).toData() };
  }
}

/**
 * A car's refuelings read from the service now and kept as a sync's pull keeps them (the service's rows
 * upserted, nothing removed): a car just added by its number shows what the service has of it at once.
 * A failure to ask is told, never thrown: they then come with the next sync that goes through.
 */
export async function fetchCarRefuelings(
  carId: number,
  store: Store,
  client: () => Promise<SoapClient>,
  toAppError: (e: unknown) => AppError,
): Promise<{ fetch: CarFetch; changed: number }> {
  try {
    const list = await (await client()).call('CarFuelList', { CarId: carId });
    const rows = list.map((r) => ({ ...refuelingFromApi(r), carId }));
    const changed = store.transaction(() => store.refuelings.upsert(rows));
    return { fetch: { carId, refuelings: list.length, problem: null }, changed };
  } catch (e) {
    return { fetch: { carId, refuelings: null, problem: toAppError(e).toData() }, changed: 0 };
  }
}
