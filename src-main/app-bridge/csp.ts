/**
 * The Content-Security-Policy of the app's page, for the Electron window and the browser shell alike:
 * only the app's own scripts, no remote content of any kind, no plugins, no framing, no form posts.
 * Inline styles stay allowed because Vue binds `style` attributes.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ');

/** The same policy for the page's <meta> element, where browsers ignore (and warn about) frame-ancestors. */
export const META_CONTENT_SECURITY_POLICY = CONTENT_SECURITY_POLICY.split('; ')
  .filter((rule) => !rule.startsWith('frame-ancestors'))
  .join('; ');
