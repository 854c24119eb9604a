/**
 * Naming a car by picking its number: the numbers the local copy has refuelings of (named or not, kept
 * after a car is taken off the list), and a number checked against the real service's CarFuelList, with
 * every way the check can fail told rather than thrown.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectDemo, openCore, soapClient, tempDir } from '../support/client';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ demo: true });
});
afterAll(() => service.close());

describe('car numbers', () => {
  it('lists the numbers seen in refuelings, keeps them when a car leaves the list, and checks a number with the service', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'));
    const soap = soapClient(service.url, service.namespace);
    try {
      // Not connected: nothing seen, and a check says why it could not ask.
      expect(await core.listCarIdsSeen()).toEqual([]);
      expect(await core.checkCarId({ carId: 1 })).toMatchObject({ carId: 1, name: null, service: null, problem: { code: 'notConnected' } });

      await connectDemo(core, service.url);
      const onService = await soap.call('CarFuelList', { CarId: 1 });
      expect(onService.length).toBeGreaterThan(0);
      const newest = [...onService].sort((a, b) => (a.DateOfPurchase < b.DateOfPurchase ? 1 : -1))[0]!;
      expect(await core.checkCarId({ carId: 1 })).toEqual({
        carId: 1,
        name: null,
        service: {
          refuelings: onService.length,
          more: onService.length >= 50,
          lastDate: newest.DateOfPurchase,
          lastTachometer: newest.Tachometer,
        },
        problem: null,
      });
      // A number the service has no refuelings of: told as such, a new car or a mistyped number.
      expect(await core.checkCarId({ carId: 4242 })).toMatchObject({
        service: { refuelings: 0, more: false, lastDate: null },
        problem: null,
      });

      await core.saveCar({ carId: 1, name: 'Octavia' });
      expect((await core.sync()).error).toBeNull();
      const seen = await core.listCarIdsSeen();
      expect(seen).toEqual([
        { carId: 1, name: 'Octavia', refuelings: onService.length, lastDate: newest.DateOfPurchase, lastTachometer: newest.Tachometer },
      ]);
      expect((await core.checkCarId({ carId: 1 })).name).toBe('Octavia');

      // Off the list, the history stays: the number is still there to pick, and naming it again shows it all.
      await core.removeCar({ carId: 1 });
      expect(await core.listCarIdsSeen()).toEqual([{ ...seen[0], name: null }]);
      await core.saveCar({ carId: 1, name: 'Octavia combi' });
      expect((await core.listCars())[0]).toMatchObject({ carId: 1, refuelings: onService.length });

      // The service gone: the check says it is unavailable, and the car may still be added.
      await service.stop();
      const down = await core.checkCarId({ carId: 7 });
      expect(down).toMatchObject({ carId: 7, service: null, problem: { code: 'unreachable' } });
      expect(down.problem!.params.detail).not.toBe('');
    } finally {
      await service.start();
      soap.close();
      await core.close();
      tmp.remove();
    }
  });

  it('a car added by its number fetches its refuelings at once; offline, says they come with the next sync', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'));
    const soap = soapClient(service.url, service.namespace);
    try {
      // Not connected: nothing fetched, and why.
      expect(await core.fetchCarRefuelings({ carId: 1 })).toEqual({
        carId: 1,
        refuelings: null,
        problem: expect.objectContaining({ code: 'notConnected' }),
      });
      await connectDemo(core, service.url);
      expect((await core.sync()).error).toBeNull();
      const synced = (await core.getStatus()).lastSyncAt;
      const onService = await soap.call('CarFuelList', { CarId: 1 });
      expect(onService.length).toBeGreaterThan(0);
      // Added after the sync: the sync brought none of its refuelings.
      await core.saveCar({ carId: 1, name: 'Octavia' });
      expect(await core.listRefuelings({ carId: 1 })).toEqual([]);
      const changed: string[][] = [];
      core.onEvent((e) => {
        if (e.type === 'data-changed') changed.push(e.tables);
      });

      expect(await core.fetchCarRefuelings({ carId: 1 })).toEqual({ carId: 1, refuelings: onService.length, problem: null });
      // The screens showing refuelings and cars hear of it, and show them: the service's, exactly.
      expect(changed).toEqual([['refuelings', 'cars']]);
      const local = await core.listRefuelings({ carId: 1 });
      expect(local.map((r) => r.id).sort((a, b) => a - b)).toEqual(onService.map((r) => r.Id).sort((a, b) => a - b));
      expect((await core.listCars())[0]).toMatchObject({ carId: 1, refuelings: onService.length });
      // No sync was made of it: the last sync as it was.
      expect((await core.getStatus()).lastSyncAt).toBe(synced);

      // Again: nothing new, nothing said.
      expect((await core.fetchCarRefuelings({ carId: 1 })).refuelings).toBe(onService.length);
      expect(changed).toHaveLength(1);

      // The service gone: the car is kept, and the screen can say its refuelings come with the next sync.
      await core.saveCar({ carId: 2, name: 'Fabia' });
      await service.stop();
      const offline = await core.fetchCarRefuelings({ carId: 2 });
      expect(offline).toMatchObject({ carId: 2, refuelings: null, problem: { code: 'unreachable' } });
      expect((await core.listCars()).map((c) => c.carId).sort()).toEqual([1, 2]);
      await service.start();
      expect((await core.sync()).error).toBeNull();
      const fabia = await soap.call('CarFuelList', { CarId: 2 });
      expect((await core.listCars()).find((c) => c.carId === 2)?.refuelings).toBe(fabia.length);
    } finally {
      await service.start();
      soap.close();
      await core.close();
      tmp.remove();
    }
  });
});
