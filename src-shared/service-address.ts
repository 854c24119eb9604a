/**
 * Service addresses as the user types them: whether one can be used (one check for the core, which refuses
 * it, and the screens, which say so while the user types) and where it points (loopback or another machine
 * over plain http, which earns a warning before credentials go to it).
 */

/** Why a text cannot be a service address: an error code (src-shared/app-api/errors.ts), worded where it is shown. */
export type AddressProblem = 'addressNotUrl' | 'addressNotHttp' | 'addressWithCredentials';

/** The URL a service address names, or why it names none: http(s) only, without a user name or password. */
export function parseServiceAddress(text: string): { url: URL; problem: null } | { url: null; problem: AddressProblem } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { url: null, problem: 'addressNotUrl' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { url: null, problem: 'addressNotHttp' };
  if (url.username || url.password) return { url: null, problem: 'addressWithCredentials' };
  return { url, problem: null };
}

/** This machine: localhost (and *.localhost), 127.0.0.0/8 and ::1, with or without IPv6 brackets. */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** http:// to another machine: the credentials would travel unencrypted in every request. False for what is no address. */
export function isInsecureRemote(text: string): boolean {
  const { url } = parseServiceAddress(text);
  return url !== null && url.protocol === 'http:' && !isLoopbackHostname(url.hostname);
}
