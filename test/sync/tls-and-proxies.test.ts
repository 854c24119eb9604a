/**
 * Sync over TLS and through proxies, for real on loopback: the service serves HTTPS with certificates
 * openssl made, and a real HTTP proxy (the `proxy` package: CONNECT tunnels and absolute-form requests,
 * with credentials when asked) stands between.
 *
 * - A self-signed service: Connect refuses it and shows the SHA-256 fingerprint openssl shows; trusted by
 *   that fingerprint it connects and syncs; a different certificate afterwards is refused as changed, the
 *   queued write waits (never refused), and trusting the new one delivers it.
 * - HTTPS_PROXY / HTTP_PROXY / NO_PROXY are honoured; a proxy that wants credentials is named, the write
 *   waits, and with the credentials in the proxy address it is delivered; they never reach a message.
 * - Answers compressed with gzip or brotli are read; one that inflates past the cap is refused early.
 * - The command line trusts an authority through NODE_EXTRA_CA_CERTS, refuses a certificate for another
 *   host, and trusts a self-signed service with --trust-certificate.
 */
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { createProxy, type ProxyServer } from 'proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_EXIT } from '../../src-main/cli/exit-codes';
import { certificateInfo, type CertificatePolicy } from '../../src-main/core/soap-client';
import { fetchTransportFactory } from '../../src-main/core/soap-client/transports/fetch';
import { nodeTransportFactory } from '../../src-main/core/soap-client/transports/node';
import { AppError } from '../../src-shared/app-api';
import { makeCertificate, opensslFor, type TestCertificate } from '../support/certificates';
import { runCliOn, spawnCliOn } from '../support/cli';
import { newAccount, newUser, openCore, soapClient, tempDir, TEST_SYNC_TUNING, type UserSession } from '../support/client';
import { englishOf } from '../support/error-words';
import { startTestService, type TestService } from '../support/service';

const openssl = opensslFor(import.meta.url);

const tmp = tempDir('bookkeeping-tls-');
let selfSigned: TestCertificate;
let replacement: TestCertificate;
let authority: TestCertificate;
let signed: TestCertificate;
let otherHost: TestCertificate;

beforeAll(() => {
  if (!openssl) return;
  selfSigned = makeCertificate(tmp.dir, { name: 'self' });
  replacement = makeCertificate(tmp.dir, { name: 'replacement' });
  authority = makeCertificate(tmp.dir, { name: 'authority', authority: true });
  signed = makeCertificate(tmp.dir, { name: 'signed', issuer: authority });
  otherHost = makeCertificate(tmp.dir, { name: 'other-host', issuer: authority, altNames: 'DNS:service.example.com' });
});
afterAll(() => tmp.remove());

/** Two accounts of a fresh user, synced, so that a transfer between them can be queued. */
async function twoAccounts(s: UserSession): Promise<[number, number]> {
  for (const name of ['A', 'B']) await s.core.addAccount(newAccount(name, 0));
  expect((await s.core.sync()).error).toBeNull();
  const accounts = (await s.core.listAccounts({})).accounts;
  return [accounts.find((a) => a.name === 'A')!.id, accounts.find((a) => a.name === 'B')!.id];
}

const onService = async (s: UserSession, account: number, description: string) =>
  (await s.truth.call('TransactionListLast50_2', { AccountId: account })).filter((t) => t.Description === description).length;

describe.skipIf(!openssl)('a self-hosted service with a self-signed certificate', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ service: { tls: { cert: selfSigned.cert, key: selfSigned.key } } });
  });
  afterAll(() => service?.close());

  it('is refused with its fingerprint; trusted by it, it syncs; a changed certificate is refused while the write waits; trusting the new one delivers it', async () => {
    expect(service.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    // Connect refuses it, and says what to compare.
    const refused = await newUser(service).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).kind).toBe('certificate');
    expect((refused as AppError).message).toContain(selfSigned.fingerprint);
    // As data for the screens, which word it in their language: the core composes no sentence of its own.
    expect((refused as AppError).toData()).toEqual({
      code: 'certificateUntrusted',
      params: { fingerprint: selfSigned.fingerprint, waiting: 0 },
    });

    // Trusted by its fingerprint, in any usual spelling (lower case, no colons).
    const s = await newUser(service, {
      sync: TEST_SYNC_TUNING,
      trustedCertificate: selfSigned.fingerprint.toLowerCase().replace(/:/g, ''),
    });
    try {
      expect((await s.core.getStatus()).connection?.trustedCertificate).toBe(selfSigned.fingerprint);
      const report = await s.core.testConnection({ baseUrl: service.url });
      expect(report).toMatchObject({ ok: true, certificate: null });
      const [a, b] = await twoAccounts(s);

      // The service comes back with another certificate: refused as changed, nothing refused, the write waits.
      await s.core.transfer({
        sourceId: a,
        targetId: b,
        amount: '12.50',
        paymentDate: '2026-03-03T10:00',
        categoryId: 0,
        description: 'across a new certificate',
      });
      await service.stop();
      await service.start({ tls: { cert: replacement.cert, key: replacement.key } });
      const changed = await s.core.sync();
      expect(changed).toMatchObject({ errorCode: 'certificate', refused: 0, pushed: 0, waiting: 1 });
      expect(englishOf(changed.error)).toContain(`you trusted ${selfSigned.fingerprint}, it now presents ${replacement.fingerprint}`);
      expect(englishOf(changed.error)).toContain('1 write still waiting');
      expect(changed.error).toEqual({
        code: 'certificateChanged',
        params: { pinned: selfSigned.fingerprint, seen: replacement.fingerprint, waiting: 1 },
      });
      const shown = await s.core.testConnection({ baseUrl: service.url });
      expect(shown).toMatchObject({
        ok: false,
        certificate: { reason: 'changed', trusted: selfSigned.fingerprint, presented: { fingerprint256: replacement.fingerprint } },
      });
      expect(shown.certificate!.presented!.subject).toContain('bookkeeping test service');
      expect((await s.core.listOutbox()).map((e) => e.status)).toEqual(['pending']);

      // The user compares and trusts the new certificate: the write arrives, once.
      await s.core.connect({ baseUrl: service.url, ...s.credentials, trustedCertificate: replacement.fingerprint });
      expect(await s.core.sync()).toMatchObject({ error: null, pushed: 1, waiting: 0 });
      const truth = soapClient(service.url, service.namespace, { credentials: s.credentials, trustedCertificate: replacement.fingerprint });
      expect(
        (await truth.call('TransactionListLast50_2', { AccountId: b })).filter((t) => t.Description === 'across a new certificate'),
      ).toHaveLength(1);
      truth.close();
    } finally {
      await service.stop();
      await service.start({ tls: { cert: selfSigned.cert, key: selfSigned.key } });
      await s.done();
    }
  });

  it("the desktop app's transport (fetch over Electron's network stack; Node's fetch here) tells the edge the pin and shows the certificate the edge refused", async () => {
    const pins: [string, string | null][] = [];
    const certificates: CertificatePolicy = {
      pin: (host, fingerprint) => pins.push([host, fingerprint]),
      // What Electron's verify procedure records for a self-signed certificate.
      refusal: () => ({ certificate: certificateInfo(selfSigned.cert), code: 'net::ERR_CERT_AUTHORITY_INVALID' }),
    };
    const dir = tempDir();
    const core = openCore(dir.file('local.sqlite'), {
      transport: fetchTransportFactory({ fetch: (url, init) => fetch(url, init), certificates }),
    });
    try {
      const report = await core.testConnection({ baseUrl: service.url, trustedCertificate: replacement.fingerprint.replace(/:/g, ' ') });
      expect(pins).toEqual([['127.0.0.1', replacement.fingerprint]]);
      expect(report).toMatchObject({
        ok: false,
        certificate: { reason: 'untrusted', presented: { fingerprint256: selfSigned.fingerprint } },
      });
      expect(englishOf(report.error)).toContain(`Its SHA-256 fingerprint is ${selfSigned.fingerprint}`);
    } finally {
      await core.close();
      dir.remove();
    }
  });

  it('testConnection names an untrusted certificate with the details openssl gives', async () => {
    const s = await newUser(service, { trustedCertificate: selfSigned.fingerprint });
    try {
      const report = await s.core.testConnection({ baseUrl: service.url, trustedCertificate: null });
      expect(report).toMatchObject({
        ok: false,
        certificate: { reason: 'untrusted', trusted: null, presented: { fingerprint256: selfSigned.fingerprint } },
      });
      expect(englishOf(report.error)).toContain('not signed by an authority this computer trusts');
      await expect(s.core.testConnection({ baseUrl: service.url, trustedCertificate: 'not a fingerprint' })).rejects.toMatchObject({
        kind: 'invalid-input',
        field: 'trustedCertificate',
      });
    } finally {
      await s.done();
    }
  });
});

/** A real proxy on loopback that records what it was asked, optionally wanting credentials. */
async function startProxy(credentials?: string): Promise<{ url: string; connects: string[]; requests: string[]; close(): Promise<void> }> {
  const connects: string[] = [];
  const requests: string[] = [];
  const server: ProxyServer = createProxy(http.createServer());
  server.on('connect', (req: http.IncomingMessage) => connects.push(req.url ?? ''));
  server.on('request', (req: http.IncomingMessage) => requests.push(req.url ?? ''));
  if (credentials) {
    server.authenticate = (req) => req.headers['proxy-authorization'] === `Basic ${Buffer.from(credentials).toString('base64')}`;
  }
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('through an HTTP proxy', () => {
  let plain: TestService;
  beforeAll(async () => {
    plain = await startTestService();
  });
  afterAll(() => plain.close());

  it('HTTP_PROXY carries http:// requests in absolute form; NO_PROXY exempts the service', async () => {
    const proxy = await startProxy();
    const s = await newUser(plain, { transport: nodeTransportFactory({ env: { HTTP_PROXY: proxy.url } }), sync: TEST_SYNC_TUNING });
    try {
      expect((await s.core.sync()).error).toBeNull();
      expect(proxy.requests.length).toBeGreaterThan(3);
      expect(proxy.requests.every((u) => u.startsWith(`${plain.url}/API/APIservice.asmx`))).toBe(true);
      const seen = proxy.requests.length;
      const direct = await s.reopen({ transport: nodeTransportFactory({ env: { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' } }) });
      expect((await direct.sync()).error).toBeNull();
      expect(proxy.requests.length).toBe(seen);
    } finally {
      await s.done();
      await proxy.close();
    }
  });

  it('a proxy that wants credentials is named and the write waits; with them in the proxy address it is delivered', async () => {
    const proxy = await startProxy('traveller:s3cret-proxy');
    const s = await newUser(plain, { sync: TEST_SYNC_TUNING });
    try {
      const [a, b] = await twoAccounts(s);
      await s.core.transfer({
        sourceId: a,
        targetId: b,
        amount: '3',
        paymentDate: '2026-03-04T10:00',
        categoryId: 0,
        description: 'through a proxy',
      });
      const blocked = await s.reopen({ transport: nodeTransportFactory({ env: { http_proxy: proxy.url } }) });
      const summary = await blocked.sync();
      expect(summary).toMatchObject({ errorCode: 'unavailable', refused: 0, waiting: 1 });
      expect(englishOf(summary.error)).toContain(`The proxy at 127.0.0.1:${new URL(proxy.url).port} asks for credentials (HTTP 407)`);

      const wrong = await s.reopen({
        transport: nodeTransportFactory({ env: { http_proxy: proxy.url.replace('//', '//traveller:wrong-guess@') } }),
      });
      const refusedCredentials = await wrong.sync();
      expect(englishOf(refusedCredentials.error)).toContain('refused the proxy credentials');
      expect(JSON.stringify(refusedCredentials.error)).not.toContain('wrong-guess');
      expect(englishOf(refusedCredentials.error)).not.toContain('wrong-guess');

      const through = await s.reopen({
        transport: nodeTransportFactory({ env: { http_proxy: proxy.url.replace('//', '//traveller:s3cret-proxy@') } }),
      });
      expect(await through.sync()).toMatchObject({ error: null, pushed: 1, waiting: 0 });
      expect(await onService(s, b, 'through a proxy')).toBe(1);
      expect(JSON.stringify(await through.getStatus())).not.toContain('s3cret-proxy');
    } finally {
      await s.done();
      await proxy.close();
    }
  });

  it('a proxy that is not running is named, and nothing is lost', async () => {
    const proxy = await startProxy();
    const gone = proxy.url;
    await proxy.close();
    const s = await newUser(plain, { sync: TEST_SYNC_TUNING });
    try {
      const [a, b] = await twoAccounts(s);
      await s.core.transfer({
        sourceId: a,
        targetId: b,
        amount: '4',
        paymentDate: '2026-03-05T10:00',
        categoryId: 0,
        description: 'proxy down',
      });
      const core = await s.reopen({ transport: nodeTransportFactory({ env: { HTTP_PROXY: gone } }) });
      const summary = await core.sync();
      expect(summary).toMatchObject({ errorCode: 'unavailable', refused: 0, waiting: 1 });
      expect(englishOf(summary.error)).toContain(`The proxy at 127.0.0.1:${new URL(gone).port} could not be reached`);
    } finally {
      await s.done();
    }
  });

  describe.skipIf(!openssl)('to a TLS service', () => {
    let secure: TestService;
    beforeAll(async () => {
      secure = await startTestService({ service: { tls: { cert: selfSigned.cert, key: selfSigned.key } } });
    });
    afterAll(() => secure?.close());

    it('HTTPS_PROXY tunnels with CONNECT, TLS runs end to end, and the pinned certificate is still checked', async () => {
      const proxy = await startProxy();
      const s = await newUser(secure, {
        transport: nodeTransportFactory({ env: { HTTPS_PROXY: proxy.url } }),
        trustedCertificate: selfSigned.fingerprint,
        sync: TEST_SYNC_TUNING,
      });
      try {
        expect((await s.core.sync()).error).toBeNull();
        expect(proxy.connects.length).toBeGreaterThan(0);
        expect(new Set(proxy.connects)).toEqual(new Set([`127.0.0.1:${secure.port}`]));
        expect(proxy.requests).toEqual([]);
        const untrusting = await s.reopen({ transport: nodeTransportFactory({ env: { HTTPS_PROXY: proxy.url } }) });
        const report = await untrusting.testConnection({ baseUrl: secure.url, trustedCertificate: replacement.fingerprint });
        expect(report.certificate).toMatchObject({ reason: 'changed', presented: { fingerprint256: selfSigned.fingerprint } });
      } finally {
        await s.done();
        await proxy.close();
      }
    });

    it('a CONNECT proxy that wants credentials is named without them and tunnels with them', async () => {
      const proxy = await startProxy('roaming:tunnel-secret');
      const s = await newUser(secure, { trustedCertificate: selfSigned.fingerprint, sync: TEST_SYNC_TUNING });
      try {
        const blocked = await s.reopen({ transport: nodeTransportFactory({ env: { HTTPS_PROXY: proxy.url } }) });
        const summary = await blocked.sync();
        expect(summary).toMatchObject({ errorCode: 'unavailable', refused: 0 });
        expect(englishOf(summary.error)).toContain('asks for credentials (HTTP 407)');
        const through = await s.reopen({
          transport: nodeTransportFactory({ env: { HTTPS_PROXY: proxy.url.replace('//', '//roaming:tunnel-secret@') } }),
        });
        expect((await through.sync()).error).toBeNull();
        expect(proxy.connects.length).toBeGreaterThan(0);
        expect(JSON.stringify(summary)).not.toContain('tunnel-secret');
      } finally {
        await s.done();
        await proxy.close();
      }
    });
  });
});

describe('compressed answers', () => {
  let service: TestService;
  let squeezer: http.Server;
  let url = '';
  const asked: string[] = [];
  const served = new Set<string>();
  let bomb = false;
  beforeAll(async () => {
    service = await startTestService();
    // In front of the service, as a reverse proxy that compresses would be: gzip or brotli, as asked.
    squeezer = http.createServer((req, res) => {
      const accepted = String(req.headers['accept-encoding'] ?? '');
      asked.push(accepted);
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (bomb) {
          // 64 MiB of spaces squeezed into a few kilobytes.
          res.writeHead(200, { 'content-type': 'application/soap+xml; charset=utf-8', 'content-encoding': 'gzip' });
          res.end(zlib.gzipSync(Buffer.alloc(64 * 1024 * 1024, ' ')));
          return;
        }
        const headers = { ...req.headers, host: new URL(service.url).host };
        delete headers['accept-encoding'];
        const upstream = http.request(`${service.url}${req.url}`, { method: req.method, headers }, (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () => {
            const plainBody = Buffer.concat(body);
            const br = accepted.includes('br') && asked.length % 2 === 0;
            const encoded = br ? zlib.brotliCompressSync(plainBody) : zlib.gzipSync(plainBody);
            served.add(br ? 'br' : 'gzip');
            res.writeHead(answer.statusCode ?? 500, {
              'content-type': answer.headers['content-type'] ?? '',
              'content-encoding': br ? 'br' : 'gzip',
            });
            res.end(encoded);
          });
        });
        upstream.end(Buffer.concat(chunks));
      });
    });
    squeezer.listen(0, '127.0.0.1');
    await once(squeezer, 'listening');
    url = `http://127.0.0.1:${(squeezer.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    squeezer.closeAllConnections();
    squeezer.close();
    await service.close();
  });

  it('asks for gzip and brotli and reads both; a body that inflates past the cap is refused without inflating it all', async () => {
    const s = await newUser(service, { baseUrl: url, sync: TEST_SYNC_TUNING, maxResponseBytes: 1024 * 1024 });
    try {
      const [a, b] = await twoAccounts(s);
      await s.core.transfer({
        sourceId: a,
        targetId: b,
        amount: '5',
        paymentDate: '2026-03-06T10:00',
        categoryId: 0,
        description: 'compressed',
      });
      expect(await s.core.sync()).toMatchObject({ error: null, pushed: 1 });
      expect(await onService(s, b, 'compressed')).toBe(1);
      expect(new Set(asked)).toEqual(new Set(['gzip, br']));
      expect(served).toEqual(new Set(['gzip', 'br']));

      bomb = true;
      const heapBefore = process.memoryUsage().heapUsed;
      const summary = await s.core.sync();
      expect(summary.errorCode).toBe('service');
      // Reads run in parallel: whichever bomb is read first ends the pull.
      expect(englishOf(summary.error)).toMatch(/^The answer to \w+ inflates to more than the limit of 1 MB\.$/);
      expect(process.memoryUsage().heapUsed - heapBefore).toBeLessThan(48 * 1024 * 1024);
    } finally {
      bomb = false;
      await s.done();
    }
  });
});

describe.skipIf(!openssl)('the command line', () => {
  let service: TestService;
  const cliTmp = tempDir('bookkeeping-cli-tls-');
  afterAll(async () => {
    await service?.close();
    cliTmp.remove();
  });

  it('trusts an authority given in NODE_EXTRA_CA_CERTS, refuses a certificate for another host, and trusts a self-signed one with --trust-certificate', async () => {
    service = await startTestService({ demo: true, service: { tls: { cert: signed.cert, key: signed.key } } });
    const data = cliTmp.file('cli.sqlite');
    const connect = (...more: string[]) =>
      runCliOn(data, ['connect', '--url', service.url, '--login', 'demo', ...more], {
        env: { BOOKKEEPING_PASSWORD: 'demo', BOOKKEEPING_CLIENT_KEY: 'demo' },
      });

    const untrusted = await connect();
    expect(untrusted.code).toBe(SYNC_EXIT.failed);
    expect(untrusted.err).toContain('not signed by an authority this computer trusts');
    expect(untrusted.err).toContain('run connect again with --trust-certificate <fingerprint>');

    // Node reads NODE_EXTRA_CA_CERTS when it starts: these run in a child process.
    const withAuthority = { BOOKKEEPING_PASSWORD: 'demo', BOOKKEEPING_CLIENT_KEY: 'demo', NODE_EXTRA_CA_CERTS: authority.certFile };
    const viaAuthority = await spawnCliOn(data, ['connect', '--url', service.url, '--login', 'demo'], withAuthority);
    expect(viaAuthority.err).toBe('');
    expect(viaAuthority.code).toBe(0);
    expect((await spawnCliOn(data, ['sync'], withAuthority)).code).toBe(SYNC_EXIT.delivered);

    await service.stop();
    await service.start({ tls: { cert: otherHost.cert, key: otherHost.key } });
    const wrongHost = await spawnCliOn(data, ['sync'], withAuthority);
    expect(wrongHost.code).toBe(SYNC_EXIT.failed);
    expect(wrongHost.err).toContain(
      "The service's certificate is not valid for 127.0.0.1: it was issued for another address than 127.0.0.1",
    );

    await service.stop();
    await service.start({ tls: { cert: selfSigned.cert, key: selfSigned.key } });
    const pinned = await connect('--trust-certificate', selfSigned.fingerprint);
    expect(pinned.code).toBe(0);
    expect((await runCliOn(data, ['sync'], { env: { BOOKKEEPING_PASSWORD: 'demo' } })).code).toBe(SYNC_EXIT.delivered);
  });
});
