/**
 * How `npm run web -- --open` hands this run's key to the browser without putting it where another local
 * user can read it. A program's command line and environment are visible to every user (`ps`, /proc), and
 * a one-time code there would be theirs to race for. So the browser is given only the path of a page in
 * a folder of the owner's alone (0700, the page 0600: the user's runtime folder where there is one, else
 * the temporary folder; on Windows that is the user's own, by its ACL). The page sends the browser to the
 * shell's address with a one-time ticket in the fragment (never sent to a server), which the app trades
 * for the key over loopback (server.ts). The page is removed once the ticket is used or has expired.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { newToken, tokenMatches } from './security';

/** How long the handover page waits for the browser: long enough for a cold start on a slow machine. */
export const HANDOVER_TTL_MS = 60_000;

export type TicketEnd = 'used' | 'expired' | 'revoked';

/** Tickets that each open one session: traded for the key once, before they expire. */
export class Tickets {
  readonly #live = new Map<string, { timer: NodeJS.Timeout; ended: (how: TicketEnd) => void }>();

  issue(ttlMs: number, ended: (how: TicketEnd) => void = () => {}): string {
    const ticket = newToken();
    const timer = setTimeout(() => this.#end(ticket, 'expired'), ttlMs);
    timer.unref();
    this.#live.set(ticket, { timer, ended });
    return ticket;
  }

  /** Whether `given` is a live ticket; a live one is spent by this call. */
  redeem(given: unknown): boolean {
    if (typeof given !== 'string') return false;
    const ticket = [...this.#live.keys()].find((t) => tokenMatches(t, given));
    if (ticket === undefined) return false;
    this.#end(ticket, 'used');
    return true;
  }

  revoke(ticket: string): void {
    this.#end(ticket, 'revoked');
  }

  close(): void {
    for (const ticket of [...this.#live.keys()]) this.revoke(ticket);
  }

  #end(ticket: string, how: TicketEnd): void {
    const live = this.#live.get(ticket);
    if (!live) return;
    this.#live.delete(ticket);
    clearTimeout(live.timer);
    live.ended(how);
  }
}

/**
 * Where the owner's private folders go: XDG_RUNTIME_DIR (the user's own, 0700, on a systemd Linux) when it
 * is a folder, else the temporary folder, in which mkdtemp makes a folder 0700 under a name nobody can
 * take first.
 */
export function privateBase(env: NodeJS.ProcessEnv = process.env): string {
  const runtime = env.XDG_RUNTIME_DIR;
  if (runtime && isAbsolute(runtime)) {
    try {
      if (statSync(runtime).isDirectory()) return runtime;
    } catch {
      // Named but missing: the temporary folder will do.
    }
  }
  return tmpdir();
}

export interface HandoverPage {
  /** The page's path, which the browser is given. */
  file: string;
  remove(): void;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function pageHtml(target: string): string {
  const href = escapeHtml(target);
  return `<!doctype html>
<html>
<head>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${href}">
<title>Bookkeeping</title>
</head>
<body>
<p><a href="${href}">Open Bookkeeping</a> · <a href="${href}" lang="cs">Otevřít Bookkeeping</a></p>
</body>
</html>
`;
}

/** Writes the page that sends the browser to `target` into a new private folder under `base`. */
export function writeHandoverPage(target: string, base: string = privateBase()): HandoverPage {
  const dir = mkdtempSync(join(base, 'bookkeeping-open-'));
  const file = join(dir, 'open.html');
  try {
    writeFileSync(file, pageHtml(target), { mode: 0o600, flag: 'wx' });
  } catch (e) {
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return { file, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
