/**
 * A TCP proxy on loopback that puts a round trip between a client and a service: every chunk waits
 * rtt/2 in each direction (order kept), and a new connection costs one round trip before any data flows,
 * as a TCP handshake over that link would. It counts connections, so that tests can see reuse.
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';

export interface LatencyProxy {
  /** Base URL: http://127.0.0.1:<port> */
  url: string;
  connections: number;
  close(): Promise<void>;
}

/** Writes `chunk` to `to` after `delayMs`, never before the chunks scheduled earlier on the same direction. */
function delayedPipe(from: Socket, to: Socket, delayMs: number): void {
  let last = 0;
  from.on('data', (chunk: Buffer) => {
    const at = Math.max(Date.now() + delayMs, last);
    last = at;
    setTimeout(() => {
      if (!to.destroyed) to.write(chunk);
    }, at - Date.now());
  });
  from.on('end', () => {
    setTimeout(() => to.end(), Math.max(0, last - Date.now()) + delayMs);
  });
}

export async function startLatencyProxy(target: string, rttMs: number): Promise<LatencyProxy> {
  const { hostname, port } = new URL(target);
  const sockets = new Set<Socket>();
  const proxy: LatencyProxy = { url: '', connections: 0, close: async () => {} };
  const server: Server = createServer((client) => {
    proxy.connections++;
    client.setNoDelay(true);
    client.pause();
    sockets.add(client);
    // The handshake's round trip, then the link.
    setTimeout(() => {
      const upstream = createConnection({ host: hostname, port: Number(port), noDelay: true }, () => {
        delayedPipe(client, upstream, rttMs / 2);
        delayedPipe(upstream, client, rttMs / 2);
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
