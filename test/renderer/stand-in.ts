/**
 * A small in-test stand-in for the app API, for driving the renderer's own store logic only (the real
 * core is exercised by the e2e tests). Unimplemented methods fail loudly; events are pushed by hand.
 */
import { vi } from 'vitest';
import { installApi, type StoreApi } from '../../src-renderer/src/api';
import type { AccountView, AppEvent, AppEventListener, AppStatus, RefuelingView } from '../../src-shared/app-api';
import { ACCOUNT } from '../../src-shared/records/account';
import { REFUELING } from '../../src-shared/records/refueling';
import { accountRow } from '../support/local-rows';

export interface StandIn {
  api: StoreApi;
  emit(event: AppEvent): void;
  listeners: Set<AppEventListener>;
}

export function standIn(methods: Partial<Record<keyof StoreApi, (...args: never[]) => unknown>>): StandIn {
  const listeners = new Set<AppEventListener>();
  const impl: Record<string, unknown> = {
    onEvent: (l: AppEventListener) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  for (const [name, fn] of Object.entries(methods)) impl[name] = vi.fn(fn as (...args: unknown[]) => unknown);
  const api = new Proxy(impl, {
    get(target, name: string) {
      if (name in target) return target[name];
      return () => Promise.reject(new Error(`stand-in has no ${name}`));
    },
  }) as unknown as StoreApi;
  installApi(api);
  return { api, listeners, emit: (e) => listeners.forEach((l) => l(e)) };
}

export function status(over: Partial<AppStatus> = {}): AppStatus {
  return {
    configured: true,
    workingOffline: false,
    connection: {
      baseUrl: 'http://127.0.0.1:1',
      namespace: 'urn:x',
      login: 'demo',
      binding: 'soap12',
      trustedCertificate: null,
      hasSecrets: true,
      rememberPassword: true,
    },
    outbox: { pending: 0, unknown: 0, undecidable: 0, refused: 0, conflicts: 0, blocked: 0 },
    syncing: false,
    lastSyncAt: null,
    lastSync: null,
    offline: false,
    exchange: null,
    damaged: null,
    timeZone: 'Europe/Prague',
    ...over,
  };
}

/** A promise settled from outside, for holding a call open. */
export function deferred<T>() {
  let resolve!: (v: T) => void;
  let reject!: (e: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** An account view with every field, for the parts a test cares about. */
export function account(over: Partial<AccountView>): AccountView {
  return {
    // The fields kept here only, at their defaults (the account's field table).
    ...ACCOUNT.localDefaults,
    // The service's fields as the local copy's test rows have them.
    ...accountRow({ id: 1 }),
    serverBalance: '0',
    pending: false,
    local: false,
    writable: true,
    ...over,
  };
}

/** A refueling of car 7 (40 l for 1500 CZK), pending when its id is a temporary (negative) one. */
export function refueling(id: number, tachometer: number, over: Partial<RefuelingView> = {}): RefuelingView {
  return {
    // The marks kept here only, at their defaults (the refueling's field table).
    ...REFUELING.localDefaults,
    id,
    carId: 7,
    dateOfPurchase: '2026-11-01T10:00:00',
    tachometer,
    liter: '40',
    price: '1500',
    pricePerLiter: '37.5',
    currency: 203,
    rate: '1',
    description: '',
    userCreatedId: 1,
    pending: id < 0,
    ...over,
  };
}
