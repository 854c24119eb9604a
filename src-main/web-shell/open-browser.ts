/**
 * `npm run web -- --open`: the default browser opened on a handover page (handover.ts), never on an
 * address with the key: the opener's command line names only the page's path, and its environment is
 * this process's without the app's secrets.
 */
import { spawn } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { childEnv } from '../app-bridge/child-env';
import { HANDOVER_TTL_MS, privateBase, writeHandoverPage, type TicketEnd } from './handover';
import type { WebShell } from './server';

/** Starts the program that opens a page; calls `done` with whether it reported success. */
export type Opener = (command: string, args: string[], env: NodeJS.ProcessEnv, done: (ok: boolean) => void) => void;

/** The platform's own way to open a page in the user's default browser, detached from this process. */
export const spawnOpener: Opener = (command, args, env, done) => {
  const child = spawn(command, args, { stdio: 'ignore', detached: true, env });
  child.once('error', () => done(false));
  child.once('exit', (code) => done(code === 0));
  child.unref();
};

export function openerCommand(page: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  // A file: URL has no spaces or shell characters for cmd's `start` to split or read.
  const url = pathToFileURL(page).href;
  if (platform === 'win32') return ['cmd', ['/c', 'start', '""', url]];
  return [platform === 'darwin' ? 'open' : 'xdg-open', [url]];
}

export type OpenOutcome = TicketEnd | 'not-opened';

export interface OpenOptions {
  opener?: Opener;
  ttlMs?: number;
  /** Where the private folder of the page goes (default: privateBase()). */
  base?: string;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
}

export interface Opening {
  /** The handover page, gone once `outcome` is settled. */
  page: string;
  /** 'used' once the browser has the key; 'expired' or 'not-opened' when it never came for it. */
  outcome: Promise<OpenOutcome>;
}

export function openInBrowser(shell: WebShell, options: OpenOptions = {}): Opening {
  const env = options.env ?? process.env;
  let settle!: (how: OpenOutcome) => void;
  const outcome = new Promise<OpenOutcome>((resolve) => (settle = resolve));
  let remove = () => {};
  const { url, revoke } = shell.handoverUrl(options.ttlMs ?? HANDOVER_TTL_MS, (how) => {
    remove();
    settle(how);
  });
  let page;
  try {
    page = writeHandoverPage(url, options.base ?? privateBase(env));
  } catch (e) {
    revoke();
    throw e;
  }
  remove = page.remove;
  const [command, args] = openerCommand(page.file, options.platform);
  (options.opener ?? spawnOpener)(command, args, childEnv(env), (ok) => {
    if (ok) return;
    settle('not-opened');
    revoke();
  });
  return { page: page.file, outcome };
}
