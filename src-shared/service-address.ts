/**
 * Where a service address points. Shared by the core (warnings on connect) and the screens (a warning
 * while the user types), so both call the same addresses loopback.
 */

/** This machine: localhost (and *.localhost), 127.0.0.0/8 and ::1, with or without IPv6 brackets. */
export function isLoopbackHostname(hostname: string): boolean {
  const h = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** http:// to another machine: the credentials would travel unencrypted in every request. */
export function isInsecureRemoteUrl(url: URL): boolean {
  return url.protocol === 'http:' && !isLoopbackHostname(url.hostname);
}
