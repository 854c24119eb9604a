/**
 * A TCP proxy on loopback that puts a round trip between a client and a service: every chunk waits
 * rtt/2 in each direction (order kept), and a new connection costs one round trip before any data flows,
 * as a TCP handshake over that link would. It counts connections, so that tests can see reuse, and the
 * exchanges on them (a request, then its answer: HTTP/1.1 without pipelining alternates), so that tests
 * can count round trips by order of events rather than by the clock.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface LatencyProxy {
  /** Base URL: http://127.0.0.1:<port> */
  url: string;
  connections: number;
  /**
   * The longest chain of exchanges each begun after the one before had its answer (since `from`, a count of
   * exchanges seen; see `exchangeCount`): the round trips a client's requests cost at the least, whatever
   * the time each took. One request at a time makes it the number of requests.
   */
  roundTripDepth(from?: number): number;
  /** Exchanges begun so far. */
  exchangeCount(): number;
  close(): Promise<void>;
}

/** One request and its answer on a connection, in the proxy's order of events. */
interface Exchange {
  start: number;
  end: number;
}

/** The longest chain of exchanges in which each began after the previous one's answer had come. */
function longestChain(exchanges: Exchange[]): number {
  const sorted = [...exchanges].sort((a, b) => a.start - b.start);
  const chain: number[] = [];
  for (const [i, x] of sorted.entries()) {
    let before = 0;
    for (let j = 0; j < i; j++) if (sorted[j]!.end < x.start) before = Math.max(before, chain[j]!);
    chain.push(before + 1);
  }
  return Math.max(0, ...chain);
}

/**
 * Writes `chunk` to `to` after `delayMs`, never before the chunks scheduled earlier on the same direction.
 * `received` hears each chunk as it comes, `delivered` as it is passed on.
 */
function delayedPipe(from: Socket, to: Socket, delayMs: number, hooks: { received?: () => void; delivered?: () => void } = {}): void {
  let last = 0;
  from.on('data', (chunk: Buffer) => {
    hooks.received?.();
    const at = Math.max(Date.now() + delayMs, last);
    last = at;
    setTimeout(() => {
      if (to.destroyed) return;
      to.write(chunk);
      hooks.delivered?.();
    }, at - Date.now());
  });
  from.on('end', () => {
    setTimeout(() => to.end(), Math.max(0, last - Date.now()) + delayMs);
  });
}

export async function startLatencyProxy(target: string, rttMs: number): Promise<LatencyProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const exchanges: Exchange[] = [];
  let events = 0;
  const proxy: LatencyProxy = {
    url: '',
    connections: 0,
    roundTripDepth: (from = 0) => longestChain(exchanges.slice(from)),
    exchangeCount: () => exchanges.length,
    close: async () => {},
  };
  const server: Server = createServer((client) => {
    proxy.connections++;
    // The exchange under way on this connection: a request chunk after an answer begins the next one.
    let current: Exchange | null = null;
    let answered = false;
    const requestChunk = () => {
      if (current && !answered) return;
      current = { start: ++events, end: Infinity };
      answered = false;
      exchanges.push(current);
    };
    const answerChunk = () => {
      if (!current) return;
      answered = true;
      current.end = ++events;
    };
    client.setNoDelay(true);
    client.pause();
    sockets.add(client);
    // The handshake's round trip, then the link.
    setTimeout(() => {
      const upstream = createConnection({ host: hostname, port: Number(port), noDelay: true }, () => {
        // A request begins when the client sends it; its answer has come when the client gets it.
        delayedPipe(client, upstream, rttMs / 2, { received: requestChunk });
        delayedPipe(upstream, client, rttMs / 2, { delivered: answerChunk });
        client.resume();
      });
      sockets.add(upstream);
      const drop = () => {
        client.destroy();
        upstream.destroy();
      };
      upstream.on('error', drop);
      client.on('error', drop);
      upstream.on('close', () => setTimeout(() => client.destroy(), rttMs / 2));
      client.on('close', () => setTimeout(() => upstream.destroy(), rttMs / 2));
    }, rttMs);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  proxy.url = `http://127.0.0.1:${address.port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return proxy;
}
