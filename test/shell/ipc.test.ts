/**
 * The IPC edge with a stand-in for Electron's ipcMain (Electron itself cannot run here): one handler per
 * app method, every method reachable, arguments validated before the core, only the app's page heard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAppCore, type AppCore } from '../../src-main/core/app/app-core';
import { MemorySecretStore } from '../../src-main/core/secrets';
import { registerIpcHandlers, type IpcMainLike } from '../../src-main/electron/ipc';
import { isAppUrl } from '../../src-main/electron/window-options';
import { APP_METHOD_NAMES, ipcChannel, type CallOutcome } from '../../src-shared/app-api';
import { newLocalDataFile } from '../support/app';
import { tourEveryMethod } from '../support/app-api-tour';
import { startTestService, type TestService } from '../support/service';

type Handler = Parameters<IpcMainLike['handle']>[1];

class IpcMainStandIn implements IpcMainLike {
  readonly handlers = new Map<string, Handler>();
  handle(channel: string, listener: Handler): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  /** What ipcRenderer.invoke does: a structured clone of the input, then the handler. */
  async invoke(channel: string, input: unknown, senderUrl = APP_PAGE): Promise<CallOutcome<unknown>> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`);
    return (await handler({ senderFrame: { url: senderUrl } }, structuredClone(input))) as CallOutcome<unknown>;
  }
}

const APP_PAGE = 'file:///opt/bookkeeping/out/renderer/index.html';

let service: TestService;
let core: AppCore;
let local: ReturnType<typeof newLocalDataFile>;
const ipc = new IpcMainStandIn();
let unregister: () => void;

beforeAll(async () => {
  service = await startTestService({ demo: true });
  local = newLocalDataFile();
  core = createAppCore({ dataFile: local.dataFile, secrets: new MemorySecretStore(), log: () => {} });
  unregister = registerIpcHandlers(
    ipc,
    core,
    (url) => isAppUrl(url, APP_PAGE),
    () => {},
  );
});
afterAll(async () => {
  await core?.close();
  await service?.close();
  local?.remove();
});

describe('IPC edge', () => {
  it('registers exactly one handler per app method', () => {
    expect([...ipc.handlers.keys()].sort()).toEqual(APP_METHOD_NAMES.map(ipcChannel).sort());
  });

  it('reaches every app method', async () => {
    const reached = await tourEveryMethod((method, input) => ipc.invoke(ipcChannel(method as never), input), service);
    expect([...reached].sort()).toEqual([...APP_METHOD_NAMES].sort());
  });

  it('answers bad arguments with typed errors, before the core sees them', async () => {
    for (const method of APP_METHOD_NAMES) {
      const outcome = await ipc.invoke(ipcChannel(method), 42);
      // A whole input of the wrong shape: no field is named.
      expect(outcome, method).toEqual({ ok: false, error: { code: expect.stringMatching(/^(notObject|noInput)$/), params: {} } });
    }
    // A backup travels as its bytes (a Uint8Array through the structured clone), never as base64 text.
    expect(await ipc.invoke(ipcChannel('restoreBackup'), { data: 'U1FMaXRlIGZvcm1hdCAzAA==' })).toMatchObject({
      ok: false,
      error: { code: 'notBytes', field: 'data' },
    });
    expect(await ipc.invoke(ipcChannel('listTransactions'), { accountId: 0 })).toMatchObject({
      ok: false,
      error: { code: 'notId', field: 'accountId' },
    });
    expect(await ipc.invoke(ipcChannel('getReport'), { from: '2026-02-30', to: '2026-03-01' })).toMatchObject({
      ok: false,
      error: { code: 'notDate', field: 'from' },
    });
    expect(await ipc.invoke(ipcChannel('setRefuelingPartial'), { id: 1, partial: 1 })).toMatchObject({
      ok: false,
      error: { code: 'notBoolean', field: 'partial' },
    });
  });

  it('refuses calls from any page but the app', async () => {
    const outcome = await ipc.invoke(ipcChannel('getStatus'), undefined, 'https://evil.example/');
    expect(outcome).toMatchObject({ ok: false, error: { code: 'refused', params: { why: 'the call does not come from the app' } } });
  });

  it('removes its handlers on shutdown', () => {
    unregister();
    expect(ipc.handlers.size).toBe(0);
  });
});
