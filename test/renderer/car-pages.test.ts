// @vitest-environment happy-dom
/**
 * A car's screen shows its refuelings a page at a time: a car of 120 fills draws 50 rows, the pager says
 * where the page is and turns to the older ones, and the distance of a page's last row is still counted
 * from the refueling before it (on the next page). On a second visit, with the stores already holding them, the
 * rows mount in a later task than the rest of the screen (one task mounting it all was 69-87 ms at 1,000,000).
 */
import { mount } from '@vue/test-utils';
import { createPinia, setActivePinia } from 'pinia';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { i18n } from '../../src-renderer/src/i18n';
import { useCarsStore } from '../../src-renderer/src/stores/cars';
import CarView from '../../src-renderer/src/views/CarView.vue';
import type { CarView as Car } from '../../src-shared/app-api';
import { readBothLanguages } from '../support/messages';
import { refueling, standIn } from './stand-in';

beforeAll(readBothLanguages);

const FILLS = 120;
const car: Car = { carId: 7, name: 'Superb', refuelings: FILLS, lastTachometer: 50_000, lastDate: null, lastCurrency: 203, pending: false };
/** Newest first, 400 km apart. */
const fills = Array.from({ length: FILLS }, (_, i) => refueling(FILLS - i, 50_000 - i * 400, { dateOfPurchase: `2026-01-01T10:00:00` }));

describe("a car's refuelings", () => {
  it('come 50 at a time, with a pager to the older ones', async () => {
    const pinia = createPinia();
    setActivePinia(pinia);
    i18n.global.locale.value = 'en';
    standIn({ listCars: async () => [car], listRefuelings: async () => fills });
    const w = mount(CarView, {
      props: { carId: 7 },
      global: { plugins: [pinia, i18n], stubs: { RouterLink: true, AppDialog: true, CarNameForm: true, RefuelingForm: true } },
    });
    // The refuelings mount two tasks after the screen (usePartsInTurn).
    await vi.waitFor(() => expect(w.find('[data-testid=refuelings-table]').exists()).toBe(true));
    const ids = () => w.findAll('[data-testid=refuelings-table] tbody tr').map((r) => Number(r.attributes('data-refueling-id')));
    const range = () => w.get('[data-testid=page-range]').text();

    expect(ids()).toEqual(fills.slice(0, 50).map((f) => f.id));
    expect(range()).toBe('1–50 of 120');
    // The page's last row: 400 km since the refueling before it, which is on the next page.
    expect(w.findAll('[data-testid=refuelings-table] tbody tr').at(-1)!.findAll('td')[2]!.text()).toBe('+400 km');

    await w.get('[data-testid=page-older]').trigger('click');
    expect(ids()).toEqual(fills.slice(50, 100).map((f) => f.id));
    await w.get('[data-testid=page-older]').trigger('click');
    expect(ids()).toEqual(fills.slice(100).map((f) => f.id));
    expect(range()).toBe('101–120 of 120');
    expect(w.get('[data-testid=page-older]').attributes('disabled')).toBeDefined();
    await w.get('[data-testid=page-newer]').trigger('click');
    expect(range()).toBe('51–100 of 120');
    w.unmount();
  });

  it('mount a task after the rest of the screen when the stores already hold them (a second visit)', async () => {
    const pinia = createPinia();
    setActivePinia(pinia);
    standIn({ listCars: async () => [car], listRefuelings: async () => fills });
    const cars = useCarsStore();
    await Promise.all([cars.load(), cars.openCar(7)]);
    const w = mount(CarView, {
      props: { carId: 7 },
      global: { plugins: [pinia, i18n], stubs: { RouterLink: true, AppDialog: true, CarNameForm: true, RefuelingForm: true } },
    });
    const table = () => w.find('[data-testid=refuelings-table]').exists();
    // In the task that mounted the screen the rows are not there yet, though their data is.
    expect(w.get('h1').text()).toBe('Superb');
    expect(table()).toBe(false);
    await vi.waitFor(() => expect(table()).toBe(true));
    w.unmount();
  });
});
