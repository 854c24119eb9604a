/**
 * The API counts the calls to the core it awaits (src-renderer/src/api/bridge.ts): work done in idle time (reading
 * the screens' chunks ahead) waits until none is awaited, so the first screen's answers go first.
 */
import { describe, expect, it } from 'vitest';
import { callsInFlight, createApi, type Transport } from '../../src-renderer/src/api/bridge';

/** A transport whose calls the test answers by hand, in any order. */
function manualTransport() {
  const pending: { resolve: (v: unknown) => void; reject: (e: unknown) => void }[] = [];
  const transport: Transport = {
    call: () => new Promise((resolve, reject) => pending.push({ resolve, reject })),
    onEvent: () => () => undefined,
  };
  return { transport, pending };
}

describe('callsInFlight', () => {
  it('counts each call from its sending to its answer, a refusal or a broken answer too', async () => {
    const { transport, pending } = manualTransport();
    const api = createApi(transport);
    const before = callsInFlight();
    const status = api.getStatus();
    const accounts = api.listAccounts({});
    const broken = api.listCars();
    expect(callsInFlight()).toBe(before + 3);
    pending[0]!.resolve({ ok: true, value: { configured: false } });
    await status;
    expect(callsInFlight()).toBe(before + 2);
    pending[1]!.resolve({ ok: false, error: { code: 'required', params: {} } });
    await expect(accounts).rejects.toMatchObject({ code: 'required' });
    pending[2]!.reject(new Error('the bridge broke'));
    await expect(broken).rejects.toThrow('the bridge broke');
    expect(callsInFlight()).toBe(before);
  });
});
