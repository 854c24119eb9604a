/**
 * The service cannot be held by one client: an address over its cap of connections is reset while
 * other addresses are served; idle keep-alive connections are closed, the longest idle first, when slots
 * run low, so that a new client gets in; and a flood of calls with made-up logins from one address does
 * not make another address's first login wait behind it (verification-slots.ts). Other addresses are
 * other loopback addresses (Linux routes all of 127/8 to lo).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request, type IncomingHttpHeaders } from 'node:http';
import { Agent as SecureAgent, request as secureRequest } from 'node:https';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_HASH_PARAMS } from '../../src-service/auth/password';
import { RENEWAL, VERIFICATIONS_BUSY, VerificationSlots } from '../../src-service/auth/verification-slots';
import { ServiceBusy } from '../../src-service/errors';
import { addressKey, TrustedProxies } from '../../src-service/server/client-address';
import { LISTEN_BACKLOG } from '../../src-service/server/http-server';
import { limitsOf } from '../../src-service/server/limits';
import { checkLimits } from '../../src-service/service';
import type { Credentials } from '../../src-shared/catalog';
import { buildRequest } from '../../src-shared/wire';
import { describeBackends } from '../support/backends';
import { makeCertificate, opensslFor } from '../support/certificates';
import { needTool } from '../support/external-tools';
import type { TestService } from '../support/service';
import { ANN, BOB, startFixtureService } from './fixture';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

const dir = mkdtempSync(join(tmpdir(), 'bookkeeping-one-client-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One call (SOAP 1.2 AccountList2) on a connection of its own from `localAddress`. */
function callFrom(service: TestService, localAddress: string, credentials: Credentials): Promise<Answer> {
  const req = buildRequest('soap12', { operation: 'AccountList2', credentials, params: {} }, service.namespace);
  return new Promise((resolve, reject) => {
    const r = request(
      { host: '127.0.0.1', port: service.port, localAddress, agent: false, path: req.path, method: req.method, headers: req.headers },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    r.on('error', reject);
    r.end(req.body);
  });
}

interface Held {
  socket: Socket;
  closed: boolean;
  agent: Agent;
}

/** A keep-alive connection from `localAddress`, answered once (the HTML page) and then left idle, held open; over TLS with `tls`. */
function holdConnection(service: TestService, localAddress: string, tls = false): Promise<Held> {
  const agent = tls
    ? new SecureAgent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false })
    : new Agent({ keepAlive: true, maxSockets: 1 });
  const send = tls ? secureRequest : request;
  return new Promise((resolve, reject) => {
    const r = send({ host: '127.0.0.1', port: service.port, localAddress, agent, path: '/API/APIservice.asmx' }, (res) => {
      res.resume();
      res.on('end', () => resolve(held));
    });
    const held = { closed: false, agent } as Held;
    r.on('socket', (socket) => {
      held.socket = socket;
      socket.once('close', () => (held.closed = true));
    });
    r.on('error', reject);
    r.end();
  });
}

/**
 * A request whose body never ends: in progress until its connection goes. It asks for 100 Continue,
 * which the service sends once it has taken the request in.
 */
function requestInProgress(service: TestService, localAddress: string, tls: boolean): Promise<Held> {
  const agent = tls
    ? new SecureAgent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false })
    : new Agent({ keepAlive: true, maxSockets: 1 });
  const send = tls ? secureRequest : request;
  const headers = { 'Content-Type': 'application/soap+xml; charset=utf-8', 'Content-Length': '1000', Expect: '100-continue' };
  const r = send({ host: '127.0.0.1', port: service.port, localAddress, agent, method: 'POST', path: '/API/APIservice.asmx', headers });
  r.on('error', () => undefined);
  const held = { closed: false, agent } as Held;
  r.on('socket', (socket) => {
    held.socket = socket;
    socket.once('close', () => (held.closed = true));
  });
  r.flushHeaders();
  return new Promise((resolve) => r.once('continue', () => r.write('<?xml', () => resolve(held))));
}

async function holdConnections(service: TestService, localAddress: string, n: number, tls = false): Promise<Held[]> {
  const held: Held[] = [];
  // One after another, so that the first is the longest idle.
  for (let i = 0; i < n; i++) held.push(await holdConnection(service, localAddress, tls));
  return held;
}

const release = (held: Held[]) => held.forEach((h) => h.agent.destroy());

describe('who a connection or a call comes from', () => {
  it('an IPv4 address (also IPv4-mapped), or the /64 of an IPv6 address', () => {
    expect(addressKey('203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('::ffff:203.0.113.9')).toBe('203.0.113.9');
    expect(addressKey('2001:db8:0:1:aaaa::1')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:0db8:0000:0001:ffff:1:2:3')).toBe('2001:db8:0:1::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey(undefined)).toBe('unknown');
  });

  it('X-Forwarded-For counts only from a trusted proxy, read from the right past the trusted ones', () => {
    const trusted = new TrustedProxies(['127.0.0.1', '10.0.0.0/8']);
    expect(trusted.clientOf('198.51.100.7', '203.0.113.1')).toBe('198.51.100.7');
    expect(trusted.clientOf('127.0.0.1', '203.0.113.1')).toBe('203.0.113.1');
    // The leftmost entries are whatever the client wrote; the proxies appended the rest.
    expect(trusted.clientOf('127.0.0.1', '1.2.3.4, 203.0.113.1, 10.1.2.3')).toBe('203.0.113.1');
    expect(trusted.clientOf('::ffff:127.0.0.1', ['1.2.3.4', '203.0.113.1'])).toBe('203.0.113.1');
    expect(trusted.clientOf('127.0.0.1', 'not-an-address, 10.1.2.3')).toBe('10.1.2.3');
    expect(trusted.clientOf('127.0.0.1', undefined)).toBe('127.0.0.1');
    expect(trusted.clientOf('127.0.0.1', '2001:db8:0:1::5')).toBe('2001:db8:0:1::/64');
    expect(new TrustedProxies().clientOf('127.0.0.1', '203.0.113.1')).toBe('127.0.0.1');
    expect(() => new TrustedProxies(['10.0.0.0/33'])).toThrow('"10.0.0.0/33" is not an address or a CIDR block');
    expect(() => new TrustedProxies(['proxy.internal'])).toThrow('"proxy.internal" is not an address or a CIDR block');
  });
});

describe('the turns of password verifications', () => {
  /** A verification that ends when told to; `started` records the order in which they got a slot. */
  function verifications(slots: VerificationSlots) {
    const started: string[] = [];
    const ends = new Map<string, () => void>();
    const run = (from: string | typeof RENEWAL, name: string) =>
      slots.run(from, () => {
        started.push(name);
        return new Promise<string>((resolve) => ends.set(name, () => resolve(name)));
      });
    const end = async (name: string) => {
      ends.get(name)!();
      // Let the next ones take their slots.
      await new Promise((r) => setImmediate(r));
    };
    return { started, run, end };
  }

  it('no address takes every slot, addresses take turns, and renewals go first', async () => {
    const slots = new VerificationSlots({ concurrent: 2, queuedPerAddress: 10, queuedTotal: 100 });
    const { started, run, end } = verifications(slots);
    const flood = ['f1', 'f2', 'f3', 'f4'].map((n) => run('flood', n));
    await new Promise((r) => setImmediate(r));
    // One slot stays free for the others: the flood runs one at a time.
    expect(started).toEqual(['f1']);
    const other = run('other', 'o1');
    const others = ['o2', 'o3'].map((n) => run('other', n));
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual(['f1', 'o1']);
    const renewal = run(RENEWAL, 'r1');
    await end('f1');
    expect(started.at(-1)).toBe('r1');
    // The next turn is the flood's (the other address was served last), then theirs, each one at a time.
    await end('o1');
    await end('r1');
    expect(started).toEqual(['f1', 'o1', 'r1', 'f2', 'o2']);
    // The flood still runs one: the free slot goes to the other address.
    await end('o2');
    await end('f2');
    await end('o3');
    await end('f3');
    expect(started).toEqual(['f1', 'o1', 'r1', 'f2', 'o2', 'o3', 'f3', 'f4']);
    await end('f4');
    expect(await Promise.all([...flood, other, ...others, renewal])).toHaveLength(8);
    expect(slots.counts).toEqual({ running: 0, waiting: 0 });
  });

  it('too many waiting from one address are told to try again; others still get their place', async () => {
    const slots = new VerificationSlots({ concurrent: 2, queuedPerAddress: 2, queuedTotal: 3 });
    const { run, end } = verifications(slots);
    const placed = ['f1', 'f2', 'f3'].map((n) => run('flood', n));
    expect(slots.admits('flood')).toBe(false);
    const refused = await run('flood', 'f4').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ServiceBusy);
    expect((refused as ServiceBusy).message).toBe(VERIFICATIONS_BUSY);
    expect(slots.admits('other')).toBe(true);
    const others = ['o1', 'o2'].map((n) => run('other', n));
    // Three waiting in all now (f2, f3, o2): the last place is taken.
    expect(slots.admits('third')).toBe(false);
    for (const n of ['f1', 'o1', 'f2', 'o2', 'f3']) await end(n);
    expect(await Promise.all([...placed, ...others])).toEqual(['f1', 'f2', 'f3', 'o1', 'o2']);
  });
});

describe('connections', () => {
  it('an address over its cap is reset, other addresses and trusted proxies are served, and a slot given back is taken again', async () => {
    const { service } = await startFixtureService({ service: { limits: { maxConnectionsPerAddress: 3 }, trustedProxies: ['127.0.0.3'] } });
    const held = await holdConnections(service, '127.0.0.1', 3);
    const proxy = await holdConnections(service, '127.0.0.3', 5);
    try {
      const refused = await callFrom(service, '127.0.0.1', ANN).catch((e: NodeJS.ErrnoException) => e.code);
      expect(refused).toBe('ECONNRESET');
      expect((await callFrom(service, '127.0.0.2', ANN)).status).toBe(200);
      expect((await callFrom(service, '127.0.0.3', ANN)).status).toBe(200);
      expect(held.concat(proxy).every((h) => !h.closed)).toBe(true);
      held[0]!.agent.destroy();
      // The service hears of the close a moment later; until then the address may still be at its cap.
      await expect
        .poll(
          () =>
            callFrom(service, '127.0.0.1', ANN).then(
              (a) => a.status,
              (e: NodeJS.ErrnoException) => e.code,
            ),
          { timeout: 5000 },
        )
        .toBe(200);
    } finally {
      release([...held, ...proxy]);
      await service.close();
    }
  });

  it('when slots run low the longest idle connections are closed, so that a new client gets in', async () => {
    const limits = { maxConnections: 8, closeIdleAbove: 5, maxConnectionsPerAddress: 8 };
    const { service } = await startFixtureService({ service: { limits } });
    // As many idle connections as the service takes at all: without closing idle ones, the next client is refused.
    const held = await holdConnections(service, '127.0.0.1', 8);
    try {
      // The three oldest made room for the three newest.
      await expect.poll(() => held.map((h) => h.closed), { timeout: 5000 }).toEqual([true, true, true, false, false, false, false, false]);
      const answer = await callFrom(service, '127.0.0.2', ANN);
      expect(answer.status).toBe(200);
      // The new client's connection took the place of the longest idle one left.
      await expect.poll(() => held.map((h) => h.closed), { timeout: 5000 }).toEqual([true, true, true, true, false, false, false, false]);
    } finally {
      release(held);
      await service.close();
    }
  });
});

/** Whether iproute2's `ss` is here to show a listening socket's backlog (Linux). */
function ssFound(): boolean {
  let found: boolean;
  try {
    execFileSync('ss', ['-V'], { stdio: 'ignore' });
    found = true;
  } catch {
    found = false;
  }
  return needTool(
    found,
    { tool: 'ss (iproute2)', howToGet: 'install iproute2 (Debian/Ubuntu: apt-get install iproute2).' },
    import.meta.url,
  );
}

describe.skipIf(process.platform !== 'linux' || !ssFound())('the listening socket', () => {
  it('keeps a burst of connections waiting for their accept (Node would keep 511): what the kernel allows, up to 4096', async () => {
    const { service } = await startFixtureService();
    try {
      // For a listening socket, ss shows the backlog as its Send-Q.
      const line = execFileSync('ss', ['-Hltn', `sport = :${service.port}`], { encoding: 'utf8' }).trim();
      const somaxconn = existsSync('/proc/sys/net/core/somaxconn')
        ? Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'))
        : LISTEN_BACKLOG;
      expect(Number(line.split(/\s+/)[2]), line).toBe(Math.min(LISTEN_BACKLOG, somaxconn));
    } finally {
      await service.close();
    }
  });
});

describe('connections with a request in progress', () => {
  const withTls = opensslFor(import.meta.url);
  for (const tls of withTls ? [false, true] : [false]) {
    it(`are never closed to make room, nor the newcomer the room is made for${tls ? ' (over TLS)' : ''}`, async () => {
      const certificate = tls ? makeCertificate(dir, { name: 'one-client' }) : undefined;
      const limits = { maxConnections: 4, closeIdleAbove: 1, maxConnectionsPerAddress: 4 };
      const { service } = await startFixtureService({
        service: { limits, ...(certificate ? { tls: { cert: certificate.cert, key: certificate.key } } : {}) },
      });
      const busy = await requestInProgress(service, '127.0.0.1', tls);
      const held: Held[] = [];
      try {
        // Past the mark, but the only other connection has a request in progress: the newcomer stays.
        held.push(await holdConnection(service, '127.0.0.2', tls));
        // The next one makes the idle one go, the longest idle that is not the newcomer.
        held.push(await holdConnection(service, '127.0.0.2', tls));
        await expect.poll(() => held.map((h) => h.closed), { timeout: 5000 }).toEqual([true, false]);
        expect(busy.closed).toBe(false);
      } finally {
        release([busy, ...held]);
        await service.close();
      }
    });
  }
});

describe('the connection limits', () => {
  it('share the connections out by the total unless given, and must leave room for other clients', () => {
    expect(limitsOf({})).toMatchObject({ maxConnections: 1024, maxConnectionsPerAddress: 256, closeIdleAbove: 896 });
    expect(limitsOf({ maxConnections: 8, maxConnectionsPerAddress: undefined })).toMatchObject({
      maxConnectionsPerAddress: 2,
      closeIdleAbove: 7,
    });
    expect(() => checkLimits({ maxConnections: 8, closeIdleAbove: 8 })).toThrow(
      'Idle connections must be closed below the connections in all (8)',
    );
    expect(() => checkLimits({ maxConnectionsPerAddress: 0 })).toThrow(
      'The connections per address must be a whole number from 1 to the connections in all (1024).',
    );
  });
});

describe('a crowd told to try again', () => {
  it('gets its answer only after a pause, so that a client ignoring Retry-After is not back at once', async () => {
    // Every verification of ann waits until released; one call may wait its turn behind it, the other is the crowd.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const auth = { throttle: { slowAfter: 0, baseDelayMs: 1, lockAfter: 100, maxQueued: 1 }, sleep: () => held };
    // The crowd's pause is held by the test: the answer must wait for it, however long it lasts.
    const pauses: number[] = [];
    let endPause!: () => void;
    const paused = new Promise<void>((r) => (endPause = r));
    const pause = (ms: number) => (pauses.push(ms), paused);
    const pauseMs = 1500;
    const { service } = await startFixtureService({ service: { auth, limits: { crowdedAnswerDelayMs: pauseMs }, pause } });
    const answered: number[] = [];
    const calls = [0, 1].map(() => callFrom(service, '127.0.0.1', ANN).then((a) => (answered.push(a.status), a)));
    try {
      await expect.poll(() => pauses, { timeout: 10_000 }).toEqual([pauseMs]);
      // The crowded call's 503 is decided and held: nothing is answered while the pause lasts.
      expect(answered).toEqual([]);
      endPause();
      await expect.poll(() => answered, { timeout: 10_000 }).toEqual([503]);
      release();
      expect((await Promise.all(calls)).map((a) => a.status).sort()).toEqual([200, 503]);
    } finally {
      endPause();
      release();
      await Promise.allSettled(calls);
      await service.close();
    }
  });
});

describeBackends(import.meta.url, (backend) => {
  it('a flood of made-up logins from one address: another address logs in at its first free slot, a verified client is not held up, and the crowd is told to try again', async () => {
    // Unknown logins cost the real scrypt (a quarter of a second or more each); the users' own hashes are cheap.
    const auth = { hashParams: DEFAULT_HASH_PARAMS, verifications: { concurrent: 2, queuedPerAddress: 4 } };
    const { service } = await startFixtureService({ backend, service: { auth } });
    expect((await callFrom(service, '127.0.0.1', BOB)).status).toBe(200);
    const order: string[] = [];
    const flood = Array.from({ length: 10 }, (_, i) =>
      callFrom(service, '127.0.0.1', { ...ANN, login: `nobody${i}`, password: `guess${i}` }).then((a) => {
        order.push(a.status === 503 ? 'busy' : 'verdict');
        return a;
      }),
    );
    try {
      // The flood has reached the service once any of it is answered.
      await expect.poll(() => order.length, { timeout: 30_000 }).toBeGreaterThan(0);
      const bob = await callFrom(service, '127.0.0.1', BOB);
      expect(bob.status, 'a client verified before the flood, from the flooding address itself').toBe(200);
      const ann = await callFrom(service, '127.0.0.2', ANN);
      order.push('ann');
      expect(ann.status).toBe(200);
      expect(ann.body).toContain('<Name>Bank</Name>');
      const answers = await Promise.all(flood);
      // At most the one verification running when ann came finished before hers; the rest waited behind her.
      expect(order.slice(0, order.indexOf('ann')).filter((o) => o === 'verdict').length, order.join(' ')).toBeLessThanOrEqual(1);
      expect(order.filter((o) => o === 'busy').length, 'calls beyond the queue of the address were refused').toBeGreaterThan(0);
      for (const a of answers) {
        if (a.status === 503) {
          expect(a.headers['retry-after']).toBe('1');
          expect(a.body).toContain(VERIFICATIONS_BUSY);
        } else {
          expect(a.status).toBe(500);
          expect(a.body).toContain('Invalid credentials');
        }
      }
    } finally {
      await Promise.allSettled(flood);
      await service.close();
    }
  }, 60_000);
});
