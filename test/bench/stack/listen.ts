/** An HTTP server on 127.0.0.1 and a free port: the bench never listens on any other address. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export async function listenLoopback(): Promise<{ server: Server; url: string }> {
  const server = createServer();
  // Load tests keep connections open; the default 5 s keep-alive is fine, but no header timeout
  // should cut a long poll short.
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}` };
}

export function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
