/** Fuel statistics and partial marks through a real app core: stored refuelings, pending ones, marks. */
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../src-shared/app-api';
import { seededCore, type SeededCore } from './local-data';

let local: SeededCore;
afterEach(() => local?.done());

const errorOf = (p: Promise<unknown>) =>
  p.then(
    () => null,
    (e: unknown) => e,
  );

function open(): SeededCore {
  local = seededCore({
    cars: [
      { carId: 1, name: 'Octavia' },
      { carId: 2, name: 'Fabia' },
    ],
    refuelings: [
      { id: 11, carId: 1, dateOfPurchase: '2026-03-01T08:00:00', tachometer: 20_000, liter: '40', price: '1600' },
      { id: 12, carId: 1, dateOfPurchase: '2026-03-15T08:00:00', tachometer: 20_400, liter: '12', price: '480' },
      { id: 13, carId: 1, dateOfPurchase: '2026-04-01T08:00:00', tachometer: 21_000, liter: '30', price: '1200' },
      { id: 21, carId: 2, dateOfPurchase: '2026-03-02T08:00:00', tachometer: 5_000, liter: '30', price: '1100' },
    ],
  });
  return local;
}

describe('getFuelStats through the core', () => {
  it('computes from the stored refuelings, the pending ones and the partial marks', async () => {
    const { core } = open();
    // (12 + 30) / 1000 × 100 = 4.2 with both full
    expect((await core.getFuelStats({ carId: 1 })).summary).toMatchObject({ refuelings: 3, consumption: '4.2', distance: 1000 });

    const marked = await core.setRefuelingPartial({ id: 12, partial: true });
    expect(marked.map((r) => [r.id, r.partial])).toEqual([
      [13, false],
      [12, true],
      [11, false],
    ]);
    const s = await core.getFuelStats({ carId: 1 });
    expect(s.fills.map((f) => [f.id, f.partial, f.consumption])).toEqual([
      [11, false, null],
      [12, true, null],
      [13, false, '4.2'],
    ]);

    // A pending refueling in EUR at a rate: costed in CZK, 50 × 25 = 1250; 44 l / 800 km = 5.5
    const added = await core.addRefueling({
      carId: 1,
      dateOfPurchase: '2026-04-20T09:00',
      tachometer: 21_800,
      liter: '44',
      price: '50',
      currency: 978,
      rate: '25',
      description: 'Vienna',
    });
    const withPending = await core.getFuelStats({ carId: 1, from: '2026-04-01', to: '2026-04-30' });
    expect(withPending.currency).toBe(203);
    expect(withPending.fills.map((f) => [f.id, f.pending, f.cost, f.consumption, f.costPer100Km])).toEqual([
      [13, false, '1200', '4.2', '168'],
      [added.id, true, '1250', '5.5', '156.25'],
    ]);
    // A pending edit of a stored refueling is laid over it.
    await core.editRefueling({
      id: 13,
      carId: 1,
      dateOfPurchase: '2026-04-01T08:00',
      tachometer: 21_000,
      liter: '36',
      price: '1440',
      currency: 203,
      rate: '1',
      description: '',
    });
    expect((await core.getFuelStats({ carId: 1 })).fills.find((f) => f.id === 13)).toMatchObject({
      liter: '36',
      pending: true,
      consumption: '4.8',
    });

    // Another car's figures are its own.
    expect((await core.getFuelStats({ carId: 2 })).summary).toMatchObject({ refuelings: 1, liters: '30', consumption: null, distance: 0 });
    expect((await core.getFuelStats({ carId: 3 })).summary.refuelings).toBe(0);
  });

  it('marks a pending refueling by its temporary id, and takes the mark off again', async () => {
    const { core } = open();
    const added = await core.addRefueling({
      carId: 2,
      dateOfPurchase: '2026-03-20T09:00',
      tachometer: 5_500,
      liter: '10',
      price: '400',
      currency: 203,
      rate: '1',
      description: '',
    });
    expect(added.id).toBeLessThan(0);
    const events: string[] = [];
    core.onEvent((e) => events.push(e.type));
    const list = await core.setRefuelingPartial({ id: added.id, partial: true });
    expect(list.find((r) => r.id === added.id)).toMatchObject({ partial: true, pending: true });
    expect(events).toContain('data-changed');
    expect((await core.listRefuelings({ carId: 2 })).find((r) => r.id === added.id)?.partial).toBe(true);
    const unmarked = await core.setRefuelingPartial({ id: added.id, partial: false });
    expect(unmarked.every((r) => !r.partial)).toBe(true);
  });

  it('refuses an id that is no refueling, and bad input', async () => {
    const { core } = open();
    expect(await errorOf(core.setRefuelingPartial({ id: 999, partial: true }))).toMatchObject({ kind: 'not-found', field: 'id' });
    expect(await errorOf(core.setRefuelingPartial({ id: -5, partial: true }))).toMatchObject({ kind: 'not-found' });
    expect(await errorOf(core.setRefuelingPartial({ id: 11, partial: 'yes' as never }))).toMatchObject({
      kind: 'invalid-input',
      field: 'partial',
    });
    expect(await errorOf(core.getFuelStats({ carId: 0 }))).toMatchObject({ kind: 'invalid-input', field: 'carId' });
    const badDate = await errorOf(core.getFuelStats({ carId: 1, from: '2026-02-30' }));
    expect(badDate).toBeInstanceOf(AppError);
    expect(badDate).toMatchObject({ kind: 'invalid-input', field: 'from' });
  });
});

describe('a queued refueling in the outbox editor', () => {
  it('shows its partial mark as it is, and an edit can clear it', async () => {
    const { core } = open();
    await core.addRefueling({
      carId: 2,
      dateOfPurchase: '2026-03-20T09:00',
      tachometer: 5_500,
      liter: '10',
      price: '400',
      currency: 203,
      rate: '1',
      description: '',
      partial: true,
    });
    const [entry] = (await core.listOutbox()).filter((e) => e.kind === 'addRefueling');
    // The mark is set on the refueling, never queued; the editor still gets it with the rest.
    expect(entry!.input).toMatchObject({ tachometer: 5_500, partial: true });

    const edited = await core.updateOutbox({ id: entry!.id, input: { ...entry!.input, partial: false } });
    expect(edited.find((e) => e.id === entry!.id)!.input).toMatchObject({ partial: false });
    expect((await core.listRefuelings({ carId: 2 })).find((r) => r.tachometer === 5_500)).toMatchObject({ partial: false, pending: true });
  });
});
