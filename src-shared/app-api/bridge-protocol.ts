/**
 * How the app API travels between the renderer and the core: over Electron IPC (one channel per
 * method) or over the browser shell's loopback HTTP. Both answer every call with a CallOutcome.
 */
import type { CallOutcome } from './errors';
import type { AppMethod } from './methods';

/** Name of the global the preload script exposes in the renderer. */
export const PRELOAD_GLOBAL = 'bookkeeping';

export const ipcChannel = (method: AppMethod): string => `app:${method}`;
export const IPC_EVENT_CHANNEL = 'app:event';

/** Browser shell routes: POST `${HTTP_API_PREFIX}<method>` with a JSON body; events stream from HTTP_EVENTS_PATH. */
export const HTTP_API_PREFIX = '/api/';
export const HTTP_EVENTS_PATH = '/api/events';
export const HTTP_TOKEN_HEADER = 'x-bookkeeping-token';
/** The shell writes its per-run token into the page in this meta element. */
export const TOKEN_META_NAME = 'bookkeeping-token';

/** What the preload script exposes: one function per app method, answering a CallOutcome, and events. */
export type PreloadBridge = { [M in AppMethod]: (input?: unknown) => Promise<CallOutcome<unknown>> } & {
  onEvent(listener: (event: unknown) => void): () => void;
};
