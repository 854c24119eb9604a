/**
 * `car add` on the command line fetches the car's refuelings from the service at once, as the Cars screen
 * does (fetchCarRefuelings): against the real demo service on loopback, they are in the local copy right
 * after the command, with no sync; with the service stopped the car is kept and the output says why its
 * refuelings wait for the next sync.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliOn } from '../support/cli';
import { soapClient, tempDir } from '../support/client';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
const tmp = tempDir('bookkeeping-cli-car-fetch-');
const env = { BOOKKEEPING_PASSWORD: 'demo', BOOKKEEPING_CLIENT_KEY: 'demo' };
const cli = (args: string[]) => runCliOn(tmp.file('local.sqlite'), args, { env });

beforeAll(async () => {
  service = await startTestService({ demo: true });
});
afterAll(async () => {
  await service.close();
  tmp.remove();
});

describe('car add on the command line', () => {
  it("fetches the car's refuelings at once, without a sync; with the service stopped, says they come with the next sync", async () => {
    const soap = soapClient(service.url, service.namespace);
    try {
      expect((await cli(['connect', '--url', service.url, '--login', 'demo'])).code).toBe(0);
      const onService = (await soap.call('CarFuelList', { CarId: 1 })).map((r) => r.Id).sort((a, b) => a - b);
      expect(onService.length).toBeGreaterThan(0);

      const added = await cli(['car', 'add', '1', 'Octavia', '--json']);
      expect(added.err).toBe('');
      expect(added.code).toBe(0);
      expect(added.json()).toEqual({
        cars: [expect.objectContaining({ carId: 1, name: 'Octavia', refuelings: onService.length })],
        fetched: { carId: 1, refuelings: onService.length, problem: null },
      });
      const local = (await cli(['refuelings', '1', '--json'])).json() as { id: number }[];
      expect(local.map((r) => r.id).sort((a, b) => a - b)).toEqual(onService);
      // No sync was made for it.
      expect((await cli(['status', '--json'])).json()).toMatchObject({ lastSyncAt: null });

      // In words: how many came.
      expect((await cli(['car', 'add', '1', 'Octavia combi'])).out).toMatch(
        new RegExp(`^${onService.length} refuelings of car 1 fetched from the service\\.$`, 'm'),
      );

      await service.stop();
      const offline = await cli(['car', 'add', '2', 'Fabia']);
      expect(offline.code).toBe(0);
      expect(offline.out).toMatch(/^2 +Fabia +0$/m);
      expect(offline.out).toMatch(/^Its refuelings come with the next sync that goes through: \S/m);
    } finally {
      await service.start();
      soap.close();
    }
  });
});
