/**
 * SHA-256 certificate fingerprints as people compare them: 32 bytes in upper-case hex pairs joined by
 * colons (AB:CD:...), as browsers and `openssl x509 -fingerprint -sha256` show them. Shared by the core
 * (pinning), the app API's validation and the screens.
 */

/** What a fingerprint looks like once normalised. */
export const FINGERPRINT_PATTERN = /^[0-9A-F]{2}(?::[0-9A-F]{2}){31}$/;

/**
 * The spellings of a fingerprint that are accepted: upper or lower case, pairs joined by colons, spaces
 * or nothing, optionally after openssl's `sha256 Fingerprint=`.
 */
export const FINGERPRINT_INPUT_PATTERN = /^\s*(?:sha-?256\s*fingerprint\s*=\s*)?(?:[0-9a-f]{2}[\s:]?){31}[0-9a-f]{2}\s*$/i;

/** A fingerprint in any accepted spelling in the canonical form, or null when it is not one. */
export function normalizeFingerprint(text: string): string | null {
  if (!FINGERPRINT_INPUT_PATTERN.test(text)) return null;
  const hex = text
    .trim()
    .replace(/^sha-?256\s*fingerprint\s*=\s*/i, '')
    .replace(/[\s:]/g, '')
    .toUpperCase();
  return hex.match(/../g)!.join(':');
}
