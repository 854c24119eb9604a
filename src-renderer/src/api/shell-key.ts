/**
 * Where the page finds the browser shell's per-run token (src-main/web-shell/handover.ts). The address the
 * shell prints carries it in its fragment (`#key=`), which a browser never sends to a server; the page the
 * shell opens the browser with sends it here with a one-time ticket (`#ticket=`) instead, which is traded
 * for the token. Either is wiped from the address at once, and the token is kept in this tab's session
 * storage: a reload finds it, another tab or browser does not.
 */
import {
  AppError,
  HTTP_API_PREFIX,
  HTTP_HANDOVER_PATH,
  SHELL_KEY_PARAM,
  SHELL_TICKET_PARAM,
  type AppMethod,
} from '../../../src-shared/app-api';

const STORAGE_KEY = 'bookkeeping.shell-token';
const GIVEN = new RegExp(`^#(${SHELL_KEY_PARAM}|${SHELL_TICKET_PARAM})=([A-Za-z0-9_-]{1,200})$`);
/** A call every core answers, whatever the state of the local copy: it tells whether a token is this run's. */
const PROBE: AppMethod = 'getStatus';

/** Posts JSON to the shell, with the token when given, and answers the outcome's value (throwing its AppError). */
export type PostJson = (path: string, body: unknown, token?: string) => Promise<unknown>;

async function trade(ticket: string, post: PostJson): Promise<string> {
  const value = (await post(HTTP_HANDOVER_PATH, { ticket })) as { token?: unknown } | null;
  if (typeof value?.token !== 'string') throw new AppError('unexpectedAnswer');
  return value.token;
}

/** The token the address brought (taken out of it), else the one this tab kept; null when there is none. */
async function givenToken(post: PostJson, win: Window): Promise<string | null> {
  const given = GIVEN.exec(win.location.hash);
  if (!given) return win.sessionStorage.getItem(STORAGE_KEY);
  // Out of the address before anything else can read it (history, a bookmark, the router).
  win.history.replaceState(null, '', win.location.pathname + win.location.search);
  const token = given[1] === SHELL_KEY_PARAM ? given[2]! : await trade(given[2]!, post);
  win.sessionStorage.setItem(STORAGE_KEY, token);
  return token;
}

/** This run's token; refused as stale when the shell does not take it (an address or tab of an earlier run). */
export async function shellToken(post: PostJson, win: Window = window): Promise<string> {
  const token = await givenToken(post, win);
  if (token === null) throw new AppError('notThroughApp');
  try {
    await post(HTTP_API_PREFIX + PROBE, null, token);
  } catch (e) {
    if (!(e instanceof AppError && e.code === 'refused')) throw e;
    win.sessionStorage.removeItem(STORAGE_KEY);
    throw new AppError('shellKeyStale');
  }
  return token;
}
