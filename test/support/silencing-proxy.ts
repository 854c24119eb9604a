/**
 * A TCP proxy on loopback in front of PostgreSQL that can make the connections of one application name
 * (as the startup message gives it) silently broken: from then on nothing reaches them and nothing of
 * theirs is passed on, yet no one closes them, as behind a NAT or firewall that drops a connection's
 * packets, or after a failover that leaves it half open. Connections made afterwards work.
 */
import { createConnection, createServer, type Socket } from 'node:net';

export interface SilencingProxy {
  /** The connection string `url` with the proxy's port. */
  url: string;
  /** Silences the open connections whose startup message names `applicationName`; how many. */
  silence(applicationName: string): number;
  /** The open connections, not silenced, whose startup message names `applicationName`. */
  working(applicationName: string): number;
  close(): Promise<void>;
}

export async function startSilencingProxy(url: string): Promise<SilencingProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  const open: { startup: Buffer; silent: boolean }[] = [];
  const server = createServer((client) => {
    const upstream = createConnection({ host: target.hostname, port: Number(target.port) });
    const link = { startup: Buffer.alloc(0), silent: false };
    open.push(link);
    for (const s of [client, upstream]) sockets.add(s);
    client.on('data', (d: Buffer) => {
      if (link.startup.length < 1024) link.startup = Buffer.concat([link.startup, d]);
      if (!link.silent) upstream.write(d);
    });
    upstream.on('data', (d: Buffer) => {
      if (!link.silent) client.write(d);
    });
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
      const at = open.indexOf(link);
      if (at >= 0) open.splice(at, 1);
    };
    for (const s of [client, upstream]) {
      s.on('error', drop);
      s.on('close', drop);
    }
  });
  const named = (link: { startup: Buffer }, applicationName: string) => link.startup.includes(`application_name\0${applicationName}\0`);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(url);
  proxied.port = String((server.address() as { port: number }).port);
  return {
    url: proxied.toString(),
    silence(applicationName) {
      const marked = open.filter((l) => !l.silent && named(l, applicationName));
      for (const l of marked) l.silent = true;
      return marked.length;
    },
    working: (applicationName) => open.filter((l) => !l.silent && named(l, applicationName)).length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
