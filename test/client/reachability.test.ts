/**
 * The badge that knows: checkReachability asks the stored service whether it answers (one GET of its
 * WSDL, no credentials, through the transport and trust of every exchange) and records what it finds as
 * the last exchange, never syncing, at most once a minute. Plain Node, the real service on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectionState, type AppEvent } from '../../src-shared/app-api';
import { connectDemo, openCore, tempDir } from '../support/client';
import { startFaultProxy, type FaultProxy } from '../support/fault-proxy';
import { startTestService, type TestService } from '../support/service';

let service: TestService;
let proxy: FaultProxy;
beforeAll(async () => {
  service = await startTestService({ demo: true });
  // Between the core and the service, to see every request the checks make.
  proxy = await startFaultProxy({ target: service.url });
});
afterAll(async () => {
  await proxy.close();
  await service.close();
});

const idle = { syncing: false, waiting: false };

describe('checking that the service answers', () => {
  it('stopped: unreachable; started again: connected; no credentials sent, no operation called, no sync', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'), { reachabilityIntervalMs: 0 });
    try {
      await connectDemo(core, proxy.url);
      expect((await core.sync()).error).toBeNull();
      // A write waiting to be sent: a sync would send it.
      await core.addCategory({ name: 'Waiting', parentId: 0 });
      const before = await core.getStatus();
      expect(before.outbox.pending).toBe(1);
      const events: AppEvent[] = [];
      core.onEvent((e) => events.push(e));
      proxy.log.length = 0;

      const up = await core.checkReachability();
      expect(up).toMatchObject({ checked: true, outcome: 'connected' });
      expect(up.status.exchange).toMatchObject({ outcome: 'connected', via: 'check', error: null });

      await service.stop();
      const down = await core.checkReachability();
      expect(down).toMatchObject({ checked: true, outcome: 'unreachable' });
      expect(down.status.exchange).toMatchObject({ outcome: 'unreachable', via: 'check' });
      expect(down.status.exchange?.error?.code).toBe('serviceUnavailable');
      expect(connectionState(down.status, idle).kind).toBe('unreachable');
      // The last success stays the one before.
      expect(down.status.exchange?.lastSuccessAt).toBe(up.status.exchange?.at);

      await service.start();
      const back = await core.checkReachability();
      expect(back).toMatchObject({ checked: true, outcome: 'connected' });
      expect(connectionState(back.status, idle).kind).toBe('connected');

      // Only the WSDL was asked for (a GET: the credentials travel in an operation's request only): no operation called.
      expect(proxy.log.map((r) => r.operation)).toEqual(['WSDL', 'WSDL', 'WSDL']);
      // No sync: the outbox as it was, the last sync as it was, no sync event; the screens heard the status only.
      const after = await core.getStatus();
      expect(after.outbox).toEqual(before.outbox);
      expect(after.lastSyncAt).toBe(before.lastSyncAt);
      expect(after.lastSync).toEqual(before.lastSync);
      expect(events.map((e) => e.type)).toEqual(['data-changed', 'data-changed', 'data-changed']);
      expect(events.every((e) => e.type === 'data-changed' && e.tables.length === 0)).toBe(true);
    } finally {
      await service.start();
      await core.close();
      tmp.remove();
    }
  });

  it('at a dead port: unreachable, refused; back: connected', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'), { reachabilityIntervalMs: 0 });
    try {
      await connectDemo(core, service.url);
      await service.stop();
      const down = await core.checkReachability();
      expect(down.outcome).toBe('unreachable');
      expect(down.status.exchange?.error?.params).toMatchObject({ cause: 'refused' });
      await service.start();
      expect((await core.checkReachability()).status.exchange).toMatchObject({ outcome: 'connected', via: 'check' });
    } finally {
      await service.start();
      await core.close();
      tmp.remove();
    }
  });

  it('at most once a minute, and not without a connection', async () => {
    const tmp = tempDir();
    const core = openCore(tmp.file('local.sqlite'));
    try {
      proxy.log.length = 0;
      // Not connected: nothing to ask.
      expect(await core.checkReachability()).toMatchObject({ checked: false, outcome: null });
      await connectDemo(core, proxy.url);
      proxy.log.length = 0;
      expect(await core.checkReachability()).toMatchObject({ checked: true, outcome: 'connected' });
      // Asked again at once (another window, a focus): not asked of the service.
      const again = await core.checkReachability();
      expect(again).toMatchObject({ checked: false, outcome: null });
      expect(again.status.exchange?.outcome).toBe('connected');
      expect(proxy.log.map((r) => r.operation)).toEqual(['WSDL']);
    } finally {
      await core.close();
      tmp.remove();
    }
  });
});
