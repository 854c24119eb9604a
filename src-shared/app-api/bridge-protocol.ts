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
/**
 * How the page learns the shell's per-run token: from its address's fragment, which a browser never sends
 * to a server. The address the shell prints carries the token itself (`#key=`); the page it opens the
 * browser with carries a one-time ticket (`#ticket=`) that the page trades for the token by a POST of
 * `{ ticket }` to HTTP_HANDOVER_PATH (answered `{ token }`).
 */
export const SHELL_KEY_PARAM = 'key';
export const SHELL_TICKET_PARAM = 'ticket';
export const HTTP_HANDOVER_PATH = '/handover';

/** What the preload script exposes: one function per app method, answering a CallOutcome, and events. */
export type PreloadBridge = { [M in AppMethod]: (input?: unknown) => Promise<CallOutcome<unknown>> } & {
  onEvent(listener: (event: unknown) => void): () => void;
};
