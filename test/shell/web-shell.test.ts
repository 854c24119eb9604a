/** The browser shell: every app method reachable over HTTP, typed errors, and no way in for anyone else. */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWebShellArgs } from '../../src-main/web-shell/args';
import { startWebShell } from '../../src-main/web-shell/server';
import { APP_METHOD_NAMES, HTTP_TOKEN_HEADER, bytesInput, errorKind, isAppMethod, type CallOutcome } from '../../src-shared/app-api';
import { RENDERER_DIR, startTestApp, type TestApp } from '../support/app';
import { tourEveryMethod } from '../support/app-api-tour';
import { startTestService, type TestService } from '../support/service';
import { until } from '../support/until';

let service: TestService;
let app: TestApp;

beforeAll(async () => {
  service = await startTestService({ demo: true });
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
  await service?.close();
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with full control over the headers (fetch would set some of them itself). */
function raw(method: string, path: string, headers: Record<string, string>, body: string | Uint8Array = ''): Promise<Raw> {
  const { port } = new URL(app.shell.origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      let data = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (data += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: data }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** A call as the renderer makes it: JSON, or the bytes of a method that takes a file as the body. */
function api(method: string, input: unknown, extra: Record<string, string> = {}): Promise<Raw> {
  const field = isAppMethod(method) ? bytesInput(method) : null;
  const bytes = field === null ? null : (input as Record<string, unknown> | null)?.[field];
  const [type, body] =
    field === null
      ? ['application/json', JSON.stringify(input ?? null)]
      : ['application/octet-stream', bytes instanceof Uint8Array ? bytes : ''];
  return raw('POST', `/api/${method}`, { 'content-type': type, [HTTP_TOKEN_HEADER]: app.shell.token, ...extra }, body);
}

async function call(method: string, input?: unknown): Promise<CallOutcome<unknown>> {
  const res = await api(method, input);
  expect(res.status).toBe(200);
  return JSON.parse(res.body) as CallOutcome<unknown>;
}

describe('browser shell', () => {
  it('reaches every app method through HTTP', async () => {
    const reached = await tourEveryMethod(call, service);
    expect([...reached].sort()).toEqual([...APP_METHOD_NAMES].sort());
  });

  it('answers bad arguments of every method with a typed error naming the field', async () => {
    for (const method of APP_METHOD_NAMES) {
      const outcome = await call(method, { surely: 'not expected' });
      expect(outcome.ok, method).toBe(false);
      if (!outcome.ok) expect(errorKind(outcome.error.code), method).toBe('invalid-input');
    }
    expect(
      await call('transfer', { sourceId: 1, targetId: 2, amount: 12.5, paymentDate: '2026-01-01T00:00', categoryId: 0, description: '' }),
    ).toEqual({
      ok: false,
      error: { code: 'notDecimalText', params: {}, field: 'amount' },
    });
    expect(await call('searchTransactions', { minAmount: 5 })).toEqual({
      ok: false,
      error: { code: 'notDecimalText', params: {}, field: 'minAmount' },
    });
    expect(await call('getFuelStats', { carId: 1, to: '21.11.2026' })).toMatchObject({
      ok: false,
      error: { code: 'notDate', field: 'to' },
    });
    expect(await call('exportTransactionsCsv', { direction: 'sideways' })).toMatchObject({
      ok: false,
      error: { code: 'notOneOf', params: { values: 'in, out' }, field: 'direction' },
    });
    expect(await call('dropTables', {})).toMatchObject({ ok: false, error: { code: 'noSuchMethod' } });
    const polluted = await raw(
      'POST',
      '/api/addCategory',
      { 'content-type': 'application/json', [HTTP_TOKEN_HEADER]: app.shell.token },
      '{"name":"x","parentId":0,"__proto__":{"admin":true}}',
    );
    expect(JSON.parse(polluted.body)).toMatchObject({ ok: false, error: { code: 'unexpected', field: '__proto__' } });
  });

  it('serves the page without the token in it, with strict headers; the address carries the token in its fragment', async () => {
    const page = await raw('GET', '/', {});
    expect(page.status).toBe(200);
    expect(page.body).toContain('<div id="app">');
    expect(page.body).not.toContain(app.shell.token);
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['access-control-allow-origin']).toBeUndefined();
    // The fragment never reaches a server (or its log); the query, which would, is not read.
    expect(app.shell.url).toBe(`${app.shell.origin}/#key=${app.shell.token}`);
    expect((await raw('GET', `/?token=${app.shell.token}`, {})).body).not.toContain(app.shell.token);
  });

  it('lets a browser open the page from anywhere (the handover page is a file), but nothing else cross-site', async () => {
    const navigation = { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate', 'sec-fetch-dest': 'document' };
    expect((await raw('GET', '/', navigation)).status).toBe(200);
    expect((await raw('GET', '/index.html', navigation)).status).toBe(200);
    expect((await raw('GET', '/', { ...navigation, 'sec-fetch-dest': 'iframe' })).status).toBe(403);
    expect(
      (await raw('GET', '/', { 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'no-cors', 'sec-fetch-dest': 'script' })).status,
    ).toBe(403);
    expect((await raw('GET', '/', { ...navigation, host: 'evil.example' })).status).toBe(403);
    const asset = /src="\.(\/assets\/[^"]+\.js)"/.exec((await raw('GET', '/', {})).body)![1]!;
    expect((await raw('GET', asset, {})).status).toBe(200);
    expect((await raw('GET', asset, navigation)).status).toBe(403);
    expect((await raw('POST', '/handover', { ...navigation, 'content-type': 'application/json' }, '{"ticket":"x"}')).status).toBe(403);
  });

  it('trades a handover ticket for the token once, and refuses any other', async () => {
    const ends: string[] = [];
    const { url } = app.shell.handoverUrl(60_000, (how) => ends.push(how));
    const ticket = /#ticket=([\w-]+)$/.exec(url)![1]!;
    expect(url.startsWith(`${app.shell.origin}/#ticket=`)).toBe(true);
    expect(url).not.toContain(app.shell.token);
    const trade = (body: string, headers: Record<string, string> = {}) =>
      raw('POST', '/handover', { 'content-type': 'application/json', ...headers }, body);
    expect((await trade('{"ticket":"not the ticket"}')).status).toBe(403);
    expect((await trade(JSON.stringify({ ticket }), { origin: 'https://evil.example' })).status).toBe(403);
    expect((await trade(JSON.stringify({ ticket }), { 'content-type': 'text/plain' })).status).toBe(403);
    expect(ends).toEqual([]);
    const first = await trade(JSON.stringify({ ticket }), { origin: app.shell.origin, 'sec-fetch-site': 'same-origin' });
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body)).toEqual({ ok: true, value: { token: app.shell.token } });
    expect(ends).toEqual(['used']);
    const second = await trade(JSON.stringify({ ticket }));
    expect(second.status).toBe(403);
    expect(JSON.parse(second.body)).toEqual({ ok: false, error: { code: 'handoverSpent', params: {} } });
  });

  it('ends a handover ticket when it expires or is revoked', async () => {
    const ends: string[] = [];
    const expiring = app.shell.handoverUrl(1, (how) => ends.push(how));
    const revoked = app.shell.handoverUrl(60_000, (how) => ends.push(how));
    revoked.revoke();
    await until('the expired ticket and the revoked one to end', () => ends.length === 2);
    expect(ends.sort()).toEqual(['expired', 'revoked']);
    for (const { url } of [expiring, revoked]) {
      const ticket = /#ticket=([\w-]+)$/.exec(url)![1]!;
      expect((await raw('POST', '/handover', { 'content-type': 'application/json' }, JSON.stringify({ ticket }))).status).toBe(403);
    }
  });

  it('refuses calls without the token or with a wrong one', async () => {
    const noToken = await raw('POST', '/api/getStatus', { 'content-type': 'application/json' }, 'null');
    expect(noToken.status).toBe(403);
    expect(JSON.parse(noToken.body)).toMatchObject({
      ok: false,
      error: { code: 'refused', params: { why: 'this call does not carry the token of this run' } },
    });
    expect((await api('getStatus', null, { [HTTP_TOKEN_HEADER]: 'x'.repeat(43) })).status).toBe(403);
    expect((await raw('GET', '/api/events', {})).status).toBe(403);
  });

  it('refuses requests from other origins, other sites and other host names', async () => {
    expect((await api('getStatus', null, { origin: 'https://evil.example' })).status).toBe(403);
    expect((await api('getStatus', null, { origin: 'http://127.0.0.1:1' })).status).toBe(403);
    expect((await api('getStatus', null, { 'sec-fetch-site': 'cross-site' })).status).toBe(403);
    expect((await api('getStatus', null, { host: 'evil.example' })).status).toBe(403);
    expect((await api('getStatus', null, { origin: app.shell.origin })).status).toBe(200);
    const preflight = await raw('OPTIONS', '/api/getStatus', { origin: 'https://evil.example', 'access-control-request-method': 'POST' });
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('takes only JSON POSTs of bounded size, and never serves files outside the renderer', async () => {
    expect((await raw('GET', '/api/getStatus', { [HTTP_TOKEN_HEADER]: app.shell.token })).status).toBe(403);
    expect((await api('getStatus', null, { 'content-type': 'text/plain' })).status).toBe(403);
    const huge = await raw(
      'POST',
      '/api/getStatus',
      { 'content-type': 'application/json', [HTTP_TOKEN_HEADER]: app.shell.token },
      'x'.repeat(2_000_000),
    );
    expect(huge.status).toBe(413);
    const notJson = await raw('POST', '/api/getStatus', { 'content-type': 'application/json', [HTTP_TOKEN_HEADER]: app.shell.token }, '{');
    expect(notJson.status).toBe(400);
    for (const path of [
      '/../package.json',
      '/%2e%2e/%2e%2e/package.json',
      '/assets/%2e%2e%2f%2e%2e%2fpackage.json',
      '/..%5c..%5cpackage.json',
    ]) {
      const res = await raw('GET', path, {});
      expect(res.status, path).toBe(404);
    }
  });

  it("takes a backup as the request's bytes, never as JSON", async () => {
    const json = await raw(
      'POST',
      '/api/restoreBackup',
      { 'content-type': 'application/json', [HTTP_TOKEN_HEADER]: app.shell.token },
      '{"data":"U1FMaXRl"}',
    );
    expect(json.status).toBe(403);
    expect(JSON.parse(json.body)).toMatchObject({
      error: { code: 'refused', params: { why: 'restoreBackup takes application/octet-stream' } },
    });
    expect(JSON.parse((await api('restoreBackup', { data: new Uint8Array(0) })).body)).toMatchObject({
      ok: false,
      error: { code: 'required', field: 'data' },
    });
    expect(JSON.parse((await api('restoreBackup', { data: Buffer.from('not a database') })).body)).toMatchObject({
      ok: false,
      error: { code: 'backupNotSqlite' },
    });
    const noToken = await raw(
      'POST',
      '/api/restoreBackup',
      { 'content-type': 'application/octet-stream' },
      Buffer.from('SQLite format 3\0'),
    );
    expect(noToken.status).toBe(403);
  });

  it('streams events to a caller with the token', async () => {
    const { port } = new URL(app.shell.origin);
    const lines: string[] = [];
    await new Promise<void>((resolve, reject) => {
      const req = request(
        { host: '127.0.0.1', port, path: '/api/events', headers: { host: `127.0.0.1:${port}`, [HTTP_TOKEN_HEADER]: app.shell.token } },
        (res) => {
          expect(res.statusCode).toBe(200);
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            lines.push(...chunk.split('\n').filter(Boolean));
            if (lines.some((l) => l.includes('data-changed'))) {
              req.destroy();
              resolve();
            }
          });
          void call('setPreferences', { theme: 'light' }).then(() => call('addCategory', { name: 'Event probe', parentId: 0 }));
        },
      );
      req.on('error', (e) => (lines.length ? resolve() : reject(e)));
      req.end();
    });
    expect(lines.map((l) => JSON.parse(l).type)).toContain('data-changed');
  });

  it('listens on loopback only', async () => {
    await expect(startWebShell({ core: app.core, rendererDir: RENDERER_DIR, host: '0.0.0.0' })).rejects.toThrow(/loopback/);
    expect(() => parseWebShellArgs(['--host', '0.0.0.0'])).toThrow(/loopback/);
    expect(() => parseWebShellArgs(['--port', '70000'])).toThrow(/--port/);
    expect(() => parseWebShellArgs(['--bogus'])).toThrow(/^Unknown option --bogus\.$/);
    expect(parseWebShellArgs(['--port', '8080', '--data', 'x.sqlite', '--open'])).toEqual({
      port: 8080,
      host: '127.0.0.1',
      dataFile: 'x.sqlite',
      open: true,
      help: false,
    });
  });
});
