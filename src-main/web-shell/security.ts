/**
 * The browser shell's rules for who may talk to it. It listens on loopback only, and a request must
 * name our own host (no DNS rebinding), come from our own origin when a browser says where it comes
 * from, and carry this run's random token in a header (every call of the API and its events); the page
 * itself holds no secret and learns the token from its address (see handover.ts).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export const LOOPBACK_HOSTS = ['127.0.0.1', '::1', 'localhost'] as const;

/** The addresses the shell may listen on: loopback names only, exactly as given. */
export function isListenHost(host: string): boolean {
  return (LOOPBACK_HOSTS as readonly string[]).includes(host);
}

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function tokenMatches(expected: string, given: string | null | undefined): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The Host values a browser sends for this server: anything else is a rebinding attempt or a mistake. */
export function allowedHosts(port: number): Set<string> {
  return new Set([`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`]);
}

export function allowedOrigins(port: number): Set<string> {
  return new Set([...allowedHosts(port)].map((h) => `http://${h}`));
}

/** A browser opening a page in a window or tab: a link, a typed address, the handover page (a file). */
const isNavigation = (headers: IncomingHttpHeaders) => headers['sec-fetch-mode'] === 'navigate' && headers['sec-fetch-dest'] === 'document';

/**
 * Why a request must be refused before anything else is looked at, or null when it may go on. `page`: a
 * request for the app's page, which a browser may open from anywhere (the handover page is a file: its
 * navigation is cross-site), since the page holds no secret and may not be framed.
 */
export function refusal(headers: IncomingHttpHeaders, port: number, page = false): string | null {
  if (!allowedHosts(port).has(headers.host ?? '')) return 'unknown host';
  const origin = headers.origin;
  if (origin !== undefined && !allowedOrigins(port).has(origin)) return 'foreign origin';
  const site = headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none' && !(page && isNavigation(headers))) return 'cross-site request';
  return null;
}
