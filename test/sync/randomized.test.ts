/**
 * The heart of the outbox: at least 500 mixed writes made offline, then synced through a proxy that
 * faults 20% of all requests with every fault it knows (drops before and after the service handled
 * them, 500s, garbage, slow and cut-short answers, 408/429/502/503/504, HTML pages, empty bodies,
 * resets mid-body, truncated XML, slow drips, bad gzip). No write may be marked refused: the service
 * refuses none of them, and nothing else may. The service must end with exactly the intended data: nothing lost, nothing
 * applied twice. The seed is printed so that a failing run can be repeated.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { addAccount, addCategory } from '../../src-service';
import { GIVE_UP_MS, openCore, soapClient, tempDir } from '../support/client';
import { NETWORK_FAULT_MODES, randomFaults, seededRandom, startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { testSeed } from '../support/seed';
import { seedTestUser, startTestService, type TestService } from '../support/service';
import { WriteModel, actualOnService, expectSameData } from '../support/write-model';

const WRITES = Number(process.env.RANDOMIZED_WRITES ?? 520);
const SEED = testSeed('RANDOMIZED_SEED', 412271);
const CARS = [1, 2, 3, 4, 5];
const USER = { clientKey: 'randomized-key', login: 'rnd', password: 'rnd-password' };

let service: TestService;
let proxy: FaultProxy;

beforeAll(async () => {
  service = await startTestService();
  seedTestUser(service.dataFile, USER);
  for (let i = 0; i < 8; i++) addAccount(service.dataFile, 'rnd', { name: `Start ${i}`, currency: i < 5 ? 203 : 978, ord: i });
  const home = addCategory(service.dataFile, 'rnd', 'Home');
  addCategory(service.dataFile, 'rnd', 'Rent', home);
  addCategory(service.dataFile, 'rnd', 'Car');
  proxy = await startFaultProxy({ target: service.url, dripMs: 100 });
});
afterAll(async () => {
  await proxy.close();
  await service.close();
});

describe('randomized offline writes through a faulty network', () => {
  it(`${WRITES} writes with 20% of requests faulted end with exactly the intended data (seed ${SEED})`, { timeout: 240_000 }, async () => {
    const tmp = tempDir();
    const file = tmp.file('local.sqlite');
    const secrets = new MemorySecretStore();
    const sync = { retry: { attempts: 4, backoffMs: 5, maxBackoffMs: 50 }, unavailableMs: 2000 };
    // Connected and synced with the usual call limit (nothing is faulted yet: every answer must come).
    let core = openCore(file, { secrets, sync });
    try {
      proxy.choose(() => 'pass');
      await core.connect({ baseUrl: proxy.url, ...USER });
      for (const carId of CARS) await core.saveCar({ carId, name: `Car ${carId}` });
      expect((await core.sync()).error).toBeNull();
      // The faulted syncs give up on held answers after a second.
      await core.close();
      core = openCore(file, { secrets, sync, timeoutMs: GIVE_UP_MS });

      const random = seededRandom(SEED);
      const model = new WriteModel(random, CARS);
      await model.adopt(core);
      await model.write(core, WRITES);
      expect((await core.listOutbox()).length).toBe(WRITES);

      proxy.choose(randomFaults(0.2, seededRandom(SEED + 1), NETWORK_FAULT_MODES));
      let syncs = 0;
      for (; syncs < 80; syncs++) {
        await core.sync();
        const left = await core.listOutbox();
        expect(
          left.filter((e) => e.status === 'refused' || e.status === 'conflict' || e.status === 'blocked'),
          JSON.stringify(left.slice(0, 3)),
        ).toEqual([]);
        if (left.length === 0) break;
      }
      expect(await core.listOutbox()).toEqual([]);
      for (const mode of NETWORK_FAULT_MODES) expect(proxy.counts.get(mode) ?? 0, `fault ${mode} happened`).toBeGreaterThan(0);

      const truth = soapClient(service.url, service.namespace, { credentials: USER });
      try {
        expectSameData(await actualOnService(truth, CARS), model.intended());
      } finally {
        truth.close();
      }
      // And the local copy, once a sync gets through (with the usual limit again), shows the same.
      proxy.choose(() => 'pass');
      await core.close();
      core = openCore(file, { secrets, sync });
      expect((await core.sync()).error).toBeNull();
      const local = new WriteModel(seededRandom(0), CARS);
      await local.adopt(core);
      expectSameData(local.intended(), model.intended());
      console.log(
        `randomized: seed ${SEED}, ${WRITES} writes ${JSON.stringify(model.counts)}, ${syncs + 1} syncs, requests by mode ${JSON.stringify(Object.fromEntries(proxy.counts))}`,
      );
    } finally {
      await core.close();
      tmp.remove();
    }
  });
});
