/**
 * Real certificates for TLS tests, made by openssl in a temporary folder: a self-signed one (a
 * self-hosted service), one signed by a test authority (what NODE_EXTRA_CA_CERTS or the OS store would
 * trust), one for another host. Each comes with its SHA-256 fingerprint as openssl
 * prints it, so that tests compare the app's reading with openssl's, not with itself.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { needTool } from './external-tools';

export interface TestCertificate {
  certFile: string;
  keyFile: string;
  cert: string;
  key: string;
  /** `openssl x509 -fingerprint -sha256`: AB:CD:... */
  fingerprint: string;
}

let present: boolean | undefined;

/**
 * Whether the test file `testFile` (its import.meta.url) can make certificates: openssl found, or the
 * file is skipped (named at the end of the run) outside CI, or fails in CI.
 */
export function opensslFor(testFile: string): boolean {
  if (present === undefined) {
    try {
      execFileSync('openssl', ['version'], { stdio: 'ignore' });
      present = true;
    } catch {
      present = false;
    }
  }
  return needTool(
    present,
    { tool: 'openssl', howToGet: 'install it (Debian/Ubuntu: apt-get install openssl; macOS: brew install openssl).' },
    testFile,
  );
}

function openssl(args: string[], cwd: string): string {
  return execFileSync('openssl', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

function fingerprintOf(certFile: string, dir: string): string {
  const out = openssl(['x509', '-noout', '-fingerprint', '-sha256', '-in', certFile], dir);
  return out.trim().replace(/^.*Fingerprint=/i, '');
}

function finish(dir: string, name: string): TestCertificate {
  const certFile = join(dir, `${name}.pem`);
  const keyFile = join(dir, `${name}-key.pem`);
  return {
    certFile,
    keyFile,
    cert: readFileSync(certFile, 'utf8'),
    key: readFileSync(keyFile, 'utf8'),
    fingerprint: fingerprintOf(certFile, dir),
  };
}

export interface CertificateSpec {
  /** File name stem in `dir`. */
  name: string;
  /** subjectAltName, default `IP:127.0.0.1,DNS:localhost` (the address tests connect to). */
  altNames?: string;
  /** Valid from now for `days` days (default 30); openssl 3.0, Debian 12's, cannot backdate with x509. */
  days?: number;
  /** Sign with this authority instead of self-signing. */
  issuer?: TestCertificate;
  /** Make it an authority (for signing others). */
  authority?: boolean;
}

/** A certificate and its P-256 key as PEM files in `dir`. */
export function makeCertificate(dir: string, spec: CertificateSpec): TestCertificate {
  const { name } = spec;
  const altNames = spec.altNames ?? 'IP:127.0.0.1,DNS:localhost';
  const keyFile = `${name}-key.pem`;
  openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', keyFile], dir);
  const extensions = join(dir, `${name}.ext`);
  writeFileSync(
    extensions,
    spec.authority
      ? 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\n'
      : `basicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\nsubjectAltName=${altNames}\n`,
  );
  const csr = `${name}.csr`;
  openssl(
    [
      'req',
      '-new',
      '-key',
      keyFile,
      '-subj',
      `/CN=${spec.authority ? 'Bookkeeping Test Authority' : 'bookkeeping test service'}`,
      '-out',
      csr,
    ],
    dir,
  );
  const signer = spec.issuer ? ['-CA', spec.issuer.certFile, '-CAkey', spec.issuer.keyFile, '-CAcreateserial'] : ['-signkey', keyFile];
  openssl(['x509', '-req', '-in', csr, ...signer, '-days', String(spec.days ?? 30), '-extfile', extensions, '-out', `${name}.pem`], dir);
  return finish(dir, name);
}
