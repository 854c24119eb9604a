/**
 * What a transport makes of a service's TLS certificate: its details as the user compares them, and
 * the refusal when it is not accepted. Shared by the Node transport (which checks every connection
 * itself), the fetch transport (whose network stack names the problem) and the Electron edge.
 *
 * Pinning works as SSH's known hosts do: a certificate the user trusted by its SHA-256 fingerprint is
 * accepted even though no authority vouches for it, and any other certificate is then refused.
 */
import { X509Certificate } from 'node:crypto';
import { AppError } from '../../../src-shared/app-api';
import { normalizeFingerprint } from '../../../src-shared/certificate';
import { CertificateError, type CertificateInfo, type CertificateRefusal } from './errors';

export type CertificateReason = CertificateError['reason'];

/** The details of a certificate given as PEM text or DER bytes. */
export function certificateInfo(certificate: string | Buffer): CertificateInfo {
  const x = new X509Certificate(certificate);
  return {
    fingerprint256: x.fingerprint256,
    subject: oneLine(x.subject),
    issuer: oneLine(x.issuer),
    validFrom: isoTime(x.validFrom),
    validTo: isoTime(x.validTo),
  };
}

/** Node prints a distinguished name one attribute a line. */
function oneLine(name: string): string {
  return name.split('\n').filter(Boolean).join(', ');
}

/** OpenSSL's `Mar 10 12:00:00 2026 GMT` as ISO 8601, kept as it was when it does not parse. */
function isoTime(text: string): string {
  const t = Date.parse(text);
  return Number.isNaN(t) ? text : new Date(t).toISOString().replace('.000Z', 'Z');
}

/** Verification failures that mean "no authority this machine trusts vouches for it": the user may pin it. */
const UNTRUSTED = new Set([
  // OpenSSL, as Node reports them
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'CERT_UNTRUSTED',
  // Chromium (Electron's net)
  'ERR_CERT_AUTHORITY_INVALID',
]);

/** OpenSSL's verification codes (Node) that are about the certificate itself; anything else failed in the handshake. */
const OPENSSL_CERT_CODES =
  /^(CERT_|INVALID_CA|INVALID_PURPOSE|PATH_LENGTH_EXCEEDED|HOSTNAME_MISMATCH|ERR_TLS_CERT_ALTNAME_INVALID|UNABLE_TO_DECRYPT_|UNABLE_TO_DECODE_|ERROR_IN_CERT_)/;

/**
 * Whether a verification failure (an OpenSSL code as Node reports it, or Chromium's `ERR_CERT_*` name)
 * is about trust ('untrusted') or the certificate's validity ('invalid'); null when it is neither.
 */
export function certificateReason(code: string | undefined): Exclude<CertificateReason, 'changed'> | null {
  if (!code) return null;
  const name = code.replace(/^net::/, '');
  if (UNTRUSTED.has(name)) return 'untrusted';
  if (name.startsWith('ERR_CERT_') || OPENSSL_CERT_CODES.test(name)) return 'invalid';
  return null;
}

/** Why a certificate of a trusted authority is still not valid, as an error code and its parameters. */
function invalidRefusal(code: string, certificate: CertificateInfo | null, host: string): CertificateRefusal {
  const name = code.replace(/^net::/, '');
  if ((name === 'CERT_HAS_EXPIRED' || name === 'ERR_CERT_DATE_INVALID') && certificate) {
    return { code: 'certificateExpired', params: { host, validFrom: certificate.validFrom, validTo: certificate.validTo, waiting: 0 } };
  }
  if (name === 'CERT_NOT_YET_VALID' && certificate) {
    return { code: 'certificateNotYetValid', params: { host, validFrom: certificate.validFrom, waiting: 0 } };
  }
  if (name === 'ERR_TLS_CERT_ALTNAME_INVALID' || name === 'HOSTNAME_MISMATCH' || name === 'ERR_CERT_COMMON_NAME_INVALID') {
    return { code: 'certificateOtherHost', params: { host, waiting: 0 } };
  }
  if (name === 'CERT_REVOKED' || name === 'ERR_CERT_REVOKED') return { code: 'certificateRevoked', params: { host, waiting: 0 } };
  return { code: 'certificateInvalid', params: { host, check: name || 'an unnamed check', waiting: 0 } };
}

/** The refusal of a certificate: what is wrong with it as data, which every edge words in its language. */
export function certificateRefusal(
  operation: string,
  refusal: {
    reason: CertificateReason;
    /** The certificate the service presented, when the transport could read it. */
    certificate: CertificateInfo | null;
    /** The fingerprint the user trusted ('changed'). */
    pinned?: string | null;
    /** The verification code or error name ('invalid'). */
    code?: string;
    /** The host the certificate was checked for. */
    host: string;
  },
): CertificateError {
  const { reason, certificate, host } = refusal;
  const pinned = refusal.pinned ?? null;
  let data: CertificateRefusal;
  if (reason === 'changed') {
    const seen = certificate ? certificate.fingerprint256 : '?';
    data = { code: 'certificateChanged', params: { pinned: pinned ?? '?', seen, waiting: 0 } };
  } else if (reason === 'untrusted') {
    data = certificate
      ? { code: 'certificateUntrusted', params: { fingerprint: certificate.fingerprint256, waiting: 0 } }
      : { code: 'certificateUntrustedUnread', params: { waiting: 0 } };
  } else {
    data = invalidRefusal(refusal.code ?? '', certificate, host);
  }
  return new CertificateError(operation, data, reason, certificate, pinned);
}

/** A trusted fingerprint as given (any usual spelling) in canonical form; an AppError about `trustedCertificate` when it is not one. */
export function pinnedFingerprint(text: string | null | undefined): string | null {
  if (text === null || text === undefined || text === '') return null;
  const fingerprint = normalizeFingerprint(text);
  if (!fingerprint) throw new AppError('notFingerprint', {}, 'trustedCertificate');
  return fingerprint;
}
