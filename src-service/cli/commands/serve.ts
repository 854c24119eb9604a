/** `serve`: the service on HTTP or HTTPS until SIGINT or SIGTERM. */
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { UsageError } from '../../../src-node/cli';
import { SERVICE_PATH } from '../../../src-shared/wire';
import { startService, stderrLogger } from '../../index';
import type { TlsCredentials } from '../../server/http-server';
import { defineCommand, storeOf, storeOptions } from '../command';
import { addressList, wholeNumber } from '../values';

/** The certificate and key of `--tls-cert`/`--tls-key`: both or neither, each a readable PEM file. */
function tlsCredentials(certFile: string | undefined, keyFile: string | undefined): TlsCredentials | undefined {
  if (certFile === undefined && keyFile === undefined) return undefined;
  if (certFile === undefined || keyFile === undefined) {
    throw new UsageError('--tls-cert and --tls-key go together: the certificate and its private key.');
  }
  const read = (file: string, option: string, marker: RegExp) => {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new UsageError(`--${option} ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : 'cannot be read'}.`);
    }
    if (!marker.test(text)) throw new UsageError(`--${option} ${file} is not a PEM file (no "-----BEGIN" line of the right kind).`);
    return text;
  };
  const tls = {
    cert: read(certFile, 'tls-cert', /-----BEGIN CERTIFICATE-----/),
    key: read(keyFile, 'tls-key', /-----BEGIN [A-Z ]*PRIVATE KEY-----/),
  };
  try {
    // The pair is checked now, so that a mismatch is one clear line and not a failed handshake later.
    createSecureContext(tls);
  } catch (e) {
    throw new UsageError(`The certificate and key cannot be used together: ${(e as Error).message}.`);
  }
  return tls;
}

export const serve = defineCommand({
  name: 'serve',
  summary: 'Start the service and print its address when it is ready.',
  options: {
    ...storeOptions,
    'pool-size': {
      type: 'string',
      value: '<n>',
      description: 'PostgreSQL: most connections of this instance (default 10)',
      read: wholeNumber(1, 1000),
    },
    port: { type: 'string', value: '<port>', description: 'TCP port, 0 for any free one (default 8080)', read: wholeNumber(0, 65535) },
    host: { type: 'string', value: '<address>', description: 'address to listen on (default 127.0.0.1; 0.0.0.0 for every interface)' },
    namespace: { type: 'string', value: '<uri>', description: 'XML namespace of the operations (default http://tempuri.org/)' },
    'time-zone': { type: 'string', value: '<zone>', description: "IANA zone of the dates (default: this machine's)" },
    'tls-cert': { type: 'string', value: '<file.pem>', description: 'serve HTTPS with this certificate (chain), PEM; needs --tls-key' },
    'tls-key': { type: 'string', value: '<file.pem>', description: "the certificate's private key, PEM" },
    'connections-per-address': {
      type: 'string',
      value: '<n>',
      description: 'most connections from one address (IPv6: one /64) at once, more are reset (default 256 of the 1024)',
      read: wholeNumber(1, 1024),
    },
    'trusted-proxies': {
      type: 'string',
      value: '<a,b/n>',
      description: 'proxies in front (addresses, CIDR blocks): not capped per address, their X-Forwarded-For names the client',
      read: addressList,
    },
  },
  async run(o) {
    const store = storeOf(o);
    const tls = tlsCredentials(o['tls-cert'], o['tls-key']);
    const service = await startService({
      ...(tls ? { tls } : {}),
      ...(store.kind === 'sqlite' ? { dataFile: store.file } : { databaseUrl: store.url }),
      poolSize: o['pool-size'],
      port: o.port,
      host: o.host,
      namespace: o.namespace,
      timeZone: o['time-zone'],
      limits: { maxConnectionsPerAddress: o['connections-per-address'] },
      trustedProxies: o['trusted-proxies'],
      logger: stderrLogger,
    });
    console.log(`Bookkeeping service listening on ${service.url}${SERVICE_PATH}`);
    // Requests in progress get a few seconds to finish.
    const stop = () => {
      service.close({ graceMs: 5000 }).then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  },
});
