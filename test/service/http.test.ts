/** The HTTP side: WSDL, the HTML page, methods and paths, keep-alive, limits and slow clients. */
import { request as httpRequest, Agent } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ResponseCache } from '../../src-service/server/response-cache';
import { OPERATION_NAMES } from '../../src-shared/catalog';
import { BINDINGS, childrenNamed, parseXml, type XmlElement } from '../../src-shared/wire';
import { describeBackends } from '../support/backends';
import { callRaw } from '../support/http';
import type { TestService } from '../support/service';
import { settles } from '../support/until';
import { ANN, startFixtureService } from './fixture';

const NS = 'urn:bookkeeping:test';
let service: TestService;
beforeAll(async () => {
  ({ service } = await startFixtureService({
    namespace: NS,
    // Limits far beyond the moment a request of a test takes to arrive, however busy the machine (a request
    // cut off by them would be a flake); the tests of slow clients wait them out.
    service: { limits: { headersTimeoutMs: 1000, requestTimeoutMs: 2000, maxBodyBytes: 64 * 1024 } },
  }));
});
afterAll(() => service.close());

/** A GET with a Host header of our choosing (fetch does not let one set it). */
function get(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: service.port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const WSDL = 'http://schemas.xmlsoap.org/wsdl/';
const attr = (el: XmlElement, name: string) => el.attrs.find((a) => a.local === name)?.value;

describe('?WSDL', () => {
  it('is served for the query wsdl in any case', async () => {
    for (const q of ['WSDL', 'wsdl', 'Wsdl']) {
      const res = await get(`/API/APIservice.asmx?${q}`);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/xml; charset=utf-8');
      expect(res.body).toContain(`targetNamespace="${NS}"`);
    }
  });

  it("describes every operation in four bindings, with qualified elements and addresses at the request's host", async () => {
    const res = await get('/API/APIservice.asmx?WSDL', { Host: 'books.example:8443' });
    const root = parseXml(res.body);
    expect([root.local, root.ns, attr(root, 'targetNamespace')]).toEqual(['definitions', WSDL, NS]);
    const schema = childrenNamed(root, 'types')[0]!.children[0]!;
    expect([schema.local, attr(schema, 'elementFormDefault'), attr(schema, 'targetNamespace')]).toEqual(['schema', 'qualified', NS]);
    const elements = new Set(childrenNamed(schema, 'element').map((e) => attr(e, 'name')));
    for (const op of OPERATION_NAMES) {
      expect(elements.has(op) && elements.has(`${op}Response`), op).toBe(true);
    }
    expect(elements.has('apiResultAddTransferToOtherAccount')).toBe(true);
    expect(childrenNamed(root, 'portType').map((p) => attr(p, 'name'))).toEqual([
      'APIserviceSoap',
      'APIserviceHttpGet',
      'APIserviceHttpPost',
    ]);
    const bindings = childrenNamed(root, 'binding');
    expect(
      bindings.map((b) => [
        attr(b, 'name'),
        b.children[0]!.local,
        b.children[0]!.ns,
        attr(b.children[0]!, 'verb') ?? attr(b.children[0]!, 'transport'),
      ]),
    ).toEqual([
      ['APIserviceSoap', 'binding', 'http://schemas.xmlsoap.org/wsdl/soap/', 'http://schemas.xmlsoap.org/soap/http'],
      ['APIserviceSoap12', 'binding', 'http://schemas.xmlsoap.org/wsdl/soap12/', 'http://schemas.xmlsoap.org/soap/http'],
      ['APIserviceHttpGet', 'binding', 'http://schemas.xmlsoap.org/wsdl/http/', 'GET'],
      ['APIserviceHttpPost', 'binding', 'http://schemas.xmlsoap.org/wsdl/http/', 'POST'],
    ]);
    for (const b of bindings) expect(childrenNamed(b, 'operation').map((o) => attr(o, 'name'))).toEqual(OPERATION_NAMES);
    const soapOp = childrenNamed(bindings[0]!, 'operation').find((o) => attr(o, 'name') === 'AddTranferToOtherAccount')!;
    expect(attr(soapOp.children[0]!, 'soapAction')).toBe(`${NS}/AddTranferToOtherAccount`);
    const getOp = childrenNamed(bindings[2]!, 'operation')[0]!;
    expect(attr(getOp.children[0]!, 'location')).toBe(`/${OPERATION_NAMES[0]}`);
    const ports = childrenNamed(childrenNamed(root, 'service')[0]!, 'port');
    expect(ports.map((p) => [attr(p, 'name'), attr(p.children[0]!, 'location')])).toEqual(
      ['Soap', 'Soap12', 'HttpGet', 'HttpPost'].map((p) => [`APIservice${p}`, 'http://books.example:8443/API/APIservice.asmx']),
    );
  });

  it('does not write a hostile Host header into the addresses', async () => {
    const res = await get('/API/APIservice.asmx?wsdl', { Host: 'evil"><x y="' });
    expect(res.body).not.toContain('evil');
    expect(res.body).toContain(`location="${service.url}/API/APIservice.asmx"`);
  });
});

describe('the HTML page', () => {
  it('lists every operation and links to the WSDL, at the service address and at /', async () => {
    for (const path of ['/API/APIservice.asmx', '/api/apiservice.asmx', '/']) {
      const res = await get(path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      for (const op of OPERATION_NAMES) expect(res.body).toContain(`<b>${op}</b>`);
      expect(res.body).toContain('href="/API/APIservice.asmx?WSDL"');
      expect(res.body).toContain('Přidá převod na jiný účet');
    }
    const head = await get('/API/APIservice.asmx', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });
});

describe('methods and paths', () => {
  it('answers other methods with 405 and other paths with 404, in plain text', async () => {
    const put = await get('/API/APIservice.asmx', {}, 'PUT');
    expect([put.status, put.headers.allow, put.body]).toEqual([405, 'GET, HEAD, POST', 'Method PUT is not allowed here.']);
    const del = await get('/API/APIservice.asmx/AccountList2', {}, 'DELETE');
    expect(del.status).toBe(405);
    const other = await get('/etc/passwd');
    expect([other.status, other.headers['content-type'], other.body]).toEqual([404, 'text/plain; charset=utf-8', 'Not found.']);
    const soapJson = await fetch(`${service.url}/API/APIservice.asmx`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(soapJson.status).toBe(415);
  });
});

describe('connections', () => {
  it('keeps a connection alive across calls', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const reused: boolean[] = [];
    for (let i = 0; i < 3; i++) {
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port: service.port,
            path: '/API/APIservice.asmx/AccountList2?APIClientKey=test-app&UserLogin=ann&userPassword=ann-secret',
            agent,
          },
          (res) => {
            expect(res.statusCode).toBe(200);
            expect(res.headers.connection).toBe('keep-alive');
            res.resume();
            res.on('end', resolve);
          },
        );
        req.on('error', reject);
        reused.push(false);
        req.on('socket', () => (reused[i] = req.reusedSocket));
        req.end();
      });
    }
    agent.destroy();
    expect(reused).toEqual([false, true, true]);
  });

  /** Opens a raw connection, writes `text`, and returns what the server sent before closing it. */
  function rawExchange(text: string): Promise<string> {
    const exchange = new Promise<string>((resolve, reject) => {
      const socket = connect(service.port, '127.0.0.1', () => socket.write(text));
      let got = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => (got += c));
      socket.on('close', () => resolve(got));
      socket.on('error', reject);
    });
    return settles('the server to close a connection too slow with its request', exchange);
  }

  it('drops a client that is too slow with its headers (408)', async () => {
    const got = await rawExchange('POST /API/APIservice.asmx HTTP/1.1\r\nHost: x\r\n');
    expect(got).toMatch(/^HTTP\/1\.1 408/);
  });

  it('drops a client that is too slow with its body', async () => {
    const got = await rawExchange(
      'POST /API/APIservice.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: text/xml\r\nContent-Length: 500\r\n\r\n<soap:Envelope',
    );
    expect(got).toMatch(/^HTTP\/1\.1 408/);
  });

  it('refuses a body over the limit by its Content-Length at once, and huge headers with 431', async () => {
    const big = await fetch(`${service.url}/API/APIservice.asmx`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/xml; charset=utf-8' },
      body: 'x'.repeat(65 * 1024),
    });
    expect(big.status).toBe(413);
    expect(await big.text()).toContain('The request is larger than 65536 bytes.');
    const headers = await get('/API/APIservice.asmx', { 'X-Pad': 'x'.repeat(20 * 1024) });
    expect(headers.status).toBe(431);
  });

  it('refuses a chunked body as soon as it passes the limit', async () => {
    const got = await new Promise<string>((resolve, reject) => {
      const socket = connect(service.port, '127.0.0.1', () => {
        socket.write(
          'POST /API/APIservice.asmx HTTP/1.1\r\nHost: x\r\nContent-Type: application/soap+xml; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n',
        );
        const chunk = 'x'.repeat(16 * 1024);
        // Five chunks pass the 64 KiB limit; the service answers without waiting for the end.
        for (let i = 0; i < 5; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      });
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (c: string) => {
        text += c;
        if (text.includes('</soap:Envelope>')) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
    });
    expect(got).toMatch(/^HTTP\/1\.1 413/);
    expect(got).toContain('Connection: close');
    expect(got).toContain('The request is larger than 65536 bytes.');
  });

  it('serves many clients at once', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) => callRaw(service, BINDINGS[i % BINDINGS.length]!, 'AccountListWithAmount2', ANN, {})),
    );
    expect(results.every((r) => r.status === 200)).toBe(true);
  });
});

describe('the cache of answers', () => {
  const answer = (body: string) => ({ status: 200, headers: {}, payload: Buffer.from(body) });

  it('keys by a salted hash, keeps an answer for its generation and time, and is bounded', () => {
    let now = 0;
    const cache = new ResponseCache({ ttlMs: 100, maxEntries: 2, maxBytes: 1000 }, () => now);
    const k1 = cache.key(['soap12', undefined, 'secret password']);
    expect(k1).not.toContain('secret');
    expect(cache.key(['soap12', undefined, 'secret password'])).toBe(k1);
    expect(cache.key(['soap12', 'secret password', undefined])).not.toBe(k1);
    cache.set(k1, 1, 'ann', answer('a'), [], null);
    expect(cache.get(k1, 1)?.answer?.payload.toString()).toBe('a');
    expect(cache.get(k1, 2)).toBeUndefined();
    // An answer computed in an older generation is not kept.
    cache.set(k1, 1, 'ann', answer('old'), [], null);
    expect(cache.get(k1, 2)).toBeUndefined();
    cache.set(k1, 2, 'ann', answer('b'), [], null);
    now = 100;
    expect(cache.get(k1, 2)).toBeUndefined();
    for (const k of ['x', 'y', 'z']) cache.set(k, 2, 'ann', answer(k), [], null);
    expect([cache.get('x', 2), cache.get('y', 2)?.answer?.payload.toString(), cache.get('z', 2)?.answer?.payload.toString()]).toEqual([
      undefined,
      'y',
      'z',
    ]);
    cache.set('big', 2, 'ann', answer('x'.repeat(300)), [], null);
    expect(cache.get('big', 2)).toBeUndefined();
    cache.set('w', 2, 'ann', answer('x'.repeat(240)), [], null);
    expect(cache.size).toBe(2);
  });
});

describe('the cache of answers under writes', () => {
  const answer = (body: string) => ({ status: 200, headers: {}, payload: Buffer.from(body) });

  it('keeps few answers while the data changes faster than they are asked again, and all once it stops changing', () => {
    const cache = new ResponseCache({ ttlMs: 60_000, maxEntries: 10_000, maxBytes: 1e9 });
    // Every lookup in a new generation (a commit in every turn): nothing is ever found again.
    let generation = 0;
    let kept = 0;
    for (let i = 0; i < 2000; i++) {
      generation += 1;
      expect(cache.get(`k${i}`, generation)).toBeUndefined();
      cache.set(`k${i}`, generation, 'ann', answer('x'), [], null);
      kept += cache.size;
    }
    // At first every answer is kept; once the hit rate is known to be nil, one in 16.
    expect(kept).toBeLessThan(2000 * 0.1);
    // The data stops changing: the few answers still kept are found, and keeping pays again.
    const foundPerRound: number[] = [];
    for (let round = 0; round < 40; round++) {
      let found = 0;
      for (let k = 0; k < 20; k++) {
        if (cache.get(`q${k}`, generation)) found += 1;
        else cache.set(`q${k}`, generation, 'ann', answer('y'), [], null);
      }
      foundPerRound.push(found);
    }
    expect(foundPerRound[0]).toBe(0);
    expect(foundPerRound.slice(-20)).toEqual(Array(20).fill(20));
  });
});

describeBackends(import.meta.url, (backend) => {
  describe('stopping', () => {
    it('with grace, a request in progress still gets its answer, and the service is gone as soon as it is out', async () => {
      const { service: s } = await startFixtureService({ backend });
      const { startService, silentLogger } = await import('../../src-service');
      await s.stop();
      const running = await startService({ ...s.where, port: 0, logger: silentLogger, timeZone: 'Europe/Prague' });
      const agent = new Agent({ keepAlive: true });
      try {
        const req = (await import('../../src-shared/wire')).buildRequest(
          'soap12',
          { operation: 'AccountList2', credentials: ANN, params: {} },
          running.namespace,
        );
        let continued!: () => void;
        const isContinued = new Promise<void>((resolve) => (continued = resolve));
        let r!: ReturnType<typeof httpRequest>;
        const answer = new Promise<{ status: number; connection: string | undefined; body: string }>((resolve, reject) => {
          r = httpRequest(
            {
              agent,
              host: '127.0.0.1',
              port: running.port,
              path: req.path,
              method: 'POST',
              // The service's "100 Continue" says it has the request and waits for its body.
              headers: { ...req.headers, 'Content-Length': Buffer.byteLength(req.body), Expect: '100-continue' },
            },
            (res) => {
              let body = '';
              res.on('data', (c: Buffer) => (body += c));
              res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection, body }));
            },
          );
          r.on('error', reject);
          // Half the body once the service has the request, the rest once it has begun to stop.
          r.on('continue', () => r.write(req.body.slice(0, 100), () => continued()));
          r.flushHeaders();
        });
        await settles('the service to take the request (100 Continue)', isContinued);
        // A grace far longer than the test may take: the keep-alive connection must not hold the stop up.
        const closed = running.close({ graceMs: 60_000 });
        r.end(req.body.slice(100));
        const res = await answer;
        expect(res.status).toBe(200);
        expect(res.body).toContain('<AccountList2Result>');
        expect(res.connection).toBe('close');
        await settles('the stop to end once the answer is out (not after the grace of a minute)', closed);
        await expect(fetch(`${running.url}/API/APIservice.asmx`)).rejects.toThrow();
      } finally {
        agent.destroy();
        await running.close();
        await s.close();
      }
    });
  });
});
