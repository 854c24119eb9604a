/**
 * Clients that each send most of a large request body and then stall, holding their connection: what the
 * service's budget of bodies held at once is for (past it a request gets 503 at once and its connection is
 * closed). For the abuse test and its benchmark.
 *
 * Whether the service has read what they sent is told by the kernel (Linux): the bytes still in the queues
 * of each connection's two sockets (/proc/net/tcp), not guessed by waiting a while.
 */
import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';

export interface StalledBodies {
  /** Clients answered 503 (over the budget). */
  refused(): number;
  /** The status lines the clients got, for failure messages. */
  statuses(): string;
  /** True once every client has been refused, or is gone, or has had all it sent read by the service. */
  allRead(): boolean;
  close(): void;
}

/** A TCP socket of this machine as /proc/net/tcp lists it (IPv4): its ports and the bytes in its queues. */
interface TcpSocket {
  local: number;
  remote: number;
  /** Sent by the application, not yet taken by the peer. */
  tx: number;
  /** Received, not yet read by the application. */
  rx: number;
}

function tcpSockets(): TcpSocket[] {
  const out: TcpSocket[] = [];
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 5) continue;
    const port = (address: string) => Number.parseInt(address.split(':')[1]!, 16);
    const [tx, rx] = f[4]!.split(':').map((hex) => Number.parseInt(hex, 16));
    out.push({ local: port(f[1]!), remote: port(f[2]!), tx: tx!, rx: rx! });
  }
  return out;
}

/**
 * For each connection to the service on `port`, by the client's port: whether every byte the client sent
 * has been read by the service (nothing left in the client's send queue or the service's receive queue).
 */
export function readByService(port: number): Map<number, boolean> {
  const sockets = tcpSockets();
  const read = new Map<number, boolean>();
  for (const s of sockets) if (s.local === port) read.set(s.remote, s.rx === 0);
  for (const s of sockets) if (s.remote === port && s.tx > 0) read.set(s.local, false);
  return read;
}

/**
 * Opens `count` connections to the service on 127.0.0.1:`port`, each sending the headers of a SOAP POST and
 * all but the last byte of a body of `bodyBytes`; resolves once every one has sent its bytes (or failed).
 * They come from four loopback addresses: one address may hold only a quarter of the service's connections
 * (server/connection-slots.ts), and what is under test is the budget of bodies, not that cap.
 */
export async function stallBodies(port: number, count: number, bodyBytes: number): Promise<StalledBodies> {
  const body = Buffer.alloc(bodyBytes - 1, 'a');
  const sockets: Socket[] = [];
  const refused = new Set<Socket>();
  let statuses = '';
  await Promise.all(
    Array.from(
      { length: count },
      () =>
        new Promise<void>((resolve) => {
          const s = connect({ port, host: '127.0.0.1', localAddress: `127.0.0.${1 + (sockets.length % 4)}` });
          sockets.push(s);
          s.on('error', () => resolve());
          s.on('data', (c: Buffer) => {
            const status = c.toString('latin1', 0, 12);
            statuses += status;
            if (/^HTTP\/1\.1 503/.test(status)) refused.add(s);
          });
          s.on('connect', () => {
            s.write(
              `POST /API/APIservice.asmx HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/xml; charset=utf-8\r\nContent-Length: ${bodyBytes}\r\n\r\n`,
            );
            // All but the last byte: the service holds what it has read and waits for the rest.
            s.write(body, () => resolve());
          });
        }),
    ),
  );
  return {
    refused: () => refused.size,
    statuses: () => statuses,
    allRead() {
      const read = readByService(port);
      return sockets.every((s) => refused.has(s) || s.destroyed || read.get(s.localPort ?? -1) === true);
    },
    close() {
      for (const s of sockets) s.destroy();
    },
  };
}
