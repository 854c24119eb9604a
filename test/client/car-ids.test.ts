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
});
