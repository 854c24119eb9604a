/** The Node HTTP server around the endpoint: keep-alive, timeouts for slow clients, header and connection caps. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServiceEndpoint } from './endpoint';
import type { HttpLimits } from './limits';

export function createHttpServer(endpoint: ServiceEndpoint, limits: HttpLimits): Server {
  const server = createServer(
    {
      maxHeaderSize: limits.maxHeaderBytes,
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // How often Node looks for requests past their timeouts; by default only every 30 s.
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
      noDelay: true,
    },
    (req, res) => endpoint.handle(req, res),
  );
  server.maxConnections = limits.maxConnections;
  return server;
}

export function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    server.once('error', onError);
    server.listen(port, host, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Stops accepting, drops idle and open keep-alive connections, and resolves once the server is closed. */
export function shutdown(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!server.listening) return resolve();
    server.close((e) => (e ? reject(e) : resolve()));
    server.closeAllConnections();
  });
}

/** `http://host:port`, with IPv6 addresses in brackets. */
export function originOf(address: AddressInfo): string {
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
