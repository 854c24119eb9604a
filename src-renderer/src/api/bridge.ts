/**
 * The renderer's one adapter to the core: it builds the typed app API over whichever bridge exists,
 * the Electron preload or the browser shell's HTTP, so that no screen knows which one it runs on.
 */
import {
  APP_METHOD_NAMES,
  AppError,
  DATA_TABLES,
  HTTP_API_PREFIX,
  HTTP_EVENTS_PATH,
  HTTP_TOKEN_HEADER,
  PRELOAD_GLOBAL,
  bytesInput,
  isAppErrorData,
  isAppMethod,
  type AppApi,
  type AppEvent,
  type AppEventListener,
  type AppEventSource,
  type AppStatus,
  type CallOutcome,
  type PreloadBridge,
} from '../../../src-shared/app-api';
import { shellToken } from './shell-key';

export interface Transport extends AppEventSource {
  call(method: string, input: unknown): Promise<unknown>;
}

export type BridgedApi = AppApi & AppEventSource;

function unwrap(outcome: unknown): unknown {
  const o = outcome as CallOutcome<unknown> | undefined;
  if (o && o.ok === true) return o.value;
  if (o && o.ok === false && isAppErrorData(o.error)) throw AppError.fromData(o.error);
  throw new AppError('unexpectedAnswer');
}

let inFlight = 0;

/** Calls to the core sent and not yet answered (work done in idle time waits until there are none). */
export const callsInFlight = (): number => inFlight;

/** The typed API over any transport: one function per method of the app API table. */
export function createApi(transport: Transport): BridgedApi {
  const api: Record<string, unknown> = {};
  for (const method of APP_METHOD_NAMES) {
    api[method] = async (input?: unknown) => {
      inFlight++;
      try {
        return unwrap(await transport.call(method, input));
      } finally {
        inFlight--;
      }
    };
  }
  api.onEvent = (listener: AppEventListener) => transport.onEvent(listener);
  return api as unknown as BridgedApi;
}

export function preloadTransport(bridge: PreloadBridge): Transport {
  return {
    call: (method, input) => {
      const fn = (bridge as unknown as Record<string, ((input: unknown) => Promise<unknown>) | undefined>)[method];
      if (typeof fn !== 'function') return Promise.resolve({ ok: false, error: new AppError('noSuchMethod', { method }).toData() });
      return fn(input);
    },
    onEvent: (listener) => bridge.onEvent((e) => listener(e as AppEvent)),
  };
}

/** A POST to the browser shell, answered by a CallOutcome. */
async function post(url: string, body: BodyInit, type: string, headers: Record<string, string>): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { 'content-type': type, ...headers }, body });
  } catch {
    return { ok: false, error: new AppError('shellNotRunning').toData() };
  }
  return res.json();
}

const postJson = (url: string, input: unknown, headers: Record<string, string> = {}) =>
  post(url, JSON.stringify(input ?? null), 'application/json', headers);

/** A call's input as the shell reads it: JSON, or a file's bytes as they are (the method's bytesInput). */
function postCall(url: string, method: string, input: unknown, headers: Record<string, string>): Promise<unknown> {
  const field = isAppMethod(method) ? bytesInput(method) : null;
  if (field === null) return postJson(url, input, headers);
  const bytes = (input as Record<string, unknown> | undefined)?.[field];
  return post(
    url,
    bytes instanceof Uint8Array ? (bytes as Uint8Array<ArrayBuffer>) : new Uint8Array(),
    'application/octet-stream',
    headers,
  );
}

/**
 * The browser shell: calls over fetch with the per-run token, events over a streamed response. A stream
 * that broke is opened again; what the core said meanwhile is lost, so once it is back every table counts
 * as changed (a data-changed event with the status as it is then), and every screen reads again.
 */
export function httpTransport(token: string, base = ''): Transport {
  const listeners = new Set<AppEventListener>();
  const headers = { [HTTP_TOKEN_HEADER]: token };
  const call = (method: string, input: unknown) => postCall(base + HTTP_API_PREFIX + method, method, input, headers);
  const deliver = (event: AppEvent) => listeners.forEach((l) => l(event));
  let stream: AbortController | null = null;

  async function resumed(): Promise<void> {
    try {
      const status = unwrap(await call('getStatus', undefined)) as AppStatus;
      deliver({ type: 'data-changed', status, tables: [...DATA_TABLES] });
    } catch {
      // The shell is gone again: the stream's next return says so once more.
    }
  }

  async function listen(): Promise<void> {
    let opened = false;
    while (stream && !stream.signal.aborted) {
      try {
        const res = await fetch(base + HTTP_EVENTS_PATH, { headers, signal: stream.signal });
        if (!res.ok || !res.body) throw new Error(`events: HTTP ${res.status}`);
        if (opened) void resumed();
        opened = true;
        const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffered = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffered += value;
          let nl: number;
          while ((nl = buffered.indexOf('\n')) >= 0) {
            const line = buffered.slice(0, nl).trim();
            buffered = buffered.slice(nl + 1);
            if (line) deliver(JSON.parse(line) as AppEvent);
          }
        }
      } catch {
        if (stream?.signal.aborted) return;
      }
      // The shell restarted or the stream broke: reconnect after a pause.
      await new Promise((r) => setTimeout(r, 1000));
    }
  }

  return {
    call,
    onEvent(listener) {
      listeners.add(listener);
      if (!stream) {
        stream = new AbortController();
        void listen();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) {
          stream?.abort();
          stream = null;
        }
      };
    },
  };
}

/** The API of whichever bridge this page runs with. */
export async function detectApi(): Promise<BridgedApi> {
  const preload = (globalThis as Record<string, unknown>)[PRELOAD_GLOBAL] as PreloadBridge | undefined;
  if (preload) return createApi(preloadTransport(preload));
  const token = await shellToken(async (path, body, given) =>
    unwrap(await postJson(path, body, given === undefined ? {} : { [HTTP_TOKEN_HEADER]: given })),
  );
  return createApi(httpTransport(token));
}
