/**
 * The desktop app's way to the service: Electron's network stack (Chromium's: the system's proxy
 * settings and PAC scripts, the OS certificate store, compression) in a session of its own, kept apart
 * from the window's session, whose request filter lets only the app's own pages through.
 *
 * Pinning: the session's certificate verification sees every certificate the service presents. For a
 * host whose certificate the user trusted by fingerprint, exactly that certificate is accepted and any
 * other refused (as SSH's known hosts); for other hosts Chromium's own verification decides. Refusals
 * are remembered per host so that the transport can show the refused certificate to the user.
 */
import type { Session } from 'electron';
import { certificateInfo, type CertificatePolicy, type CertificateRefusalSeen, type TransportFactory } from '../core/soap-client';
import { fetchTransportFactory } from '../core/soap-client/transports/fetch';

/** Chromium's verify procedure answers: accept, refuse, or keep Chromium's own verdict. */
const ACCEPT = 0;
const REFUSE = -2;
const CHROMIUM_DECIDES = -3;

export function serviceTransport(ses: Session, log: (message: string, error?: unknown) => void): TransportFactory {
  const pins = new Map<string, string>();
  const refused = new Map<string, CertificateRefusalSeen>();
  const verify: Parameters<Session['setCertificateVerifyProc']>[0] = (request, callback) => {
    let certificate = null;
    try {
      certificate = certificateInfo(request.certificate.data);
    } catch (e) {
      log('A service certificate could not be read', e);
    }
    const pinned = pins.get(request.hostname);
    if (pinned !== undefined) {
      const same = certificate?.fingerprint256 === pinned;
      if (same) refused.delete(request.hostname);
      else refused.set(request.hostname, { certificate, code: 'changed' });
      callback(same ? ACCEPT : REFUSE);
      return;
    }
    if (request.verificationResult === 'OK') refused.delete(request.hostname);
    else refused.set(request.hostname, { certificate, code: request.verificationResult });
    callback(CHROMIUM_DECIDES);
  };
  ses.setCertificateVerifyProc(verify);
  const certificates: CertificatePolicy = {
    pin(host, fingerprint) {
      if ((pins.get(host) ?? null) === fingerprint) return;
      if (fingerprint === null) pins.delete(host);
      else pins.set(host, fingerprint);
      // The network service caches the procedure's verdicts, and kept connections carry the old trust:
      // installing the procedure again starts a fresh cache, and the connections are closed.
      ses.setCertificateVerifyProc(verify);
      void ses.closeAllConnections();
    },
    refusal: (host) => refused.get(host) ?? null,
  };
  return fetchTransportFactory({ fetch: (url, init) => ses.fetch(url, init), certificates });
}
