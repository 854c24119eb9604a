/**
 * Speed bounded by round trips, not by requests: through a link with a 50 ms round trip (a latency
 * proxy), a first sync of 200 accounts costs a few dozen round trips, where one request at a time costs
 * over 200; and the connections are kept alive and reused. The round trips are counted by the order of
 * the proxy's events (the longest chain of requests each sent after the answer to the one before), not by
 * the clock, so a busy machine cannot move the count; what they cost in time: `npm run bench -- sync`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore } from '../../src-main/core/app/app-core';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { accountFor, contextOf, onFile } from '../../src-service';
import { tempDir } from '../support/client';
import { startLatencyProxy, type LatencyProxy } from '../support/latency-proxy';
import { seedTestUser, startTestService, TEST_TIME_ZONE, type TestService } from '../support/service';

const RTT = 50;
let service: TestService;
let link: LatencyProxy;
const credentials = { clientKey: 'round-trips', login: 'many-accounts', password: 'pw' };

beforeAll(async () => {
  service = await startTestService();
  seedTestUser(service.dataFile, credentials);
  onFile(service.dataFile, function* (store) {
    const ctx = yield* contextOf(store, credentials.login);
    for (let a = 0; a < 200; a++) yield* accountFor(ctx, { name: `Account ${a}`, currency: 203, ord: a });
  });
  link = await startLatencyProxy(service.url, RTT);
});
afterAll(async () => {
  await link.close();
  await service.close();
});

describe('over a 50 ms round trip', () => {
  it('a first sync of 200 accounts takes a few dozen round trips, over connections kept alive', async () => {
    const dir = tempDir();
    const core = createAppCore({ dataFile: dir.file('local.sqlite'), secrets: new MemorySecretStore(), timeZone: TEST_TIME_ZONE });
    try {
      await core.connect({ baseUrl: link.url, ...credentials });
      const connectionsBefore = link.connections;
      const exchangesBefore = link.exchangeCount();
      const summary = await core.sync();
      expect(summary).toMatchObject({ error: null, pulled: { accounts: 200, transactions: 0 } });
      const requests = link.exchangeCount() - exchangesBefore;
      const depth = link.roundTripDepth(exchangesBefore);
      console.log(`a first sync of 200 accounts over the link: ${requests} requests in a chain of ${depth} round trips`);
      // One at a time: 200 transaction lists alone are a chain of 200.
      expect(requests).toBeGreaterThan(200);
      expect(depth).toBeLessThanOrEqual(50);
      expect(link.connections - connectionsBefore).toBeLessThanOrEqual(32);
    } finally {
      await core.close();
      dir.remove();
    }
  });
});
