/**
 * keep-alive-request.ts against a server written by hand on node:net, which shares nothing with
 * Node's HTTP server: it answers each request with a fixed HTTP/1.1 response, never closes a
 * connection itself, and records when the client closed each one. Here only the client's own
 * idle timeout can close a connection, so a client that keeps idle sockets until the server
 * drops them (Node 20's agent without a timeout of its own) fails these tests.
 */
import assert from 'node:assert/strict';
import type { IncomingMessage } from 'node:http';
import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';
import { after, describe, test } from 'node:test';
import { IDLE_SOCKET_MS, keepAliveRequest } from '../../server/src/keep-alive-request.js';

interface Connection {
  opened: number;
  /** When the client ended it (the server never does). */
  closed: Promise<number>;
}

interface RawServer {
  url: URL;
  connections: Connection[];
  close(): Promise<void>;
}

async function rawServer(options: { keepAlive?: string; answerAfterMs?: number }) {
  const connections: Connection[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    let closedAt!: (at: number) => void;
    connections.push({ opened: Date.now(), closed: new Promise((r) => (closedAt = r)) });
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      // GETs without a body: a request ends at its blank line.
      for (let end = buffered.indexOf('\r\n\r\n'); end >= 0; end = buffered.indexOf('\r\n\r\n')) {
        buffered = buffered.slice(end + 4);
        const head = [
          'HTTP/1.1 200 OK',
          'Content-Length: 2',
          'Connection: keep-alive',
          ...(options.keepAlive ? [`Keep-Alive: ${options.keepAlive}`] : []),
        ];
        const answer = () => socket.write(`${head.join('\r\n')}\r\n\r\nok`);
        if (options.answerAfterMs) setTimeout(answer, options.answerAfterMs);
        else answer();
      }
    });
    socket.on('end', () => {
      closedAt(Date.now());
      socket.end();
    });
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const raw: RawServer = {
    url: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`),
    connections,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
  return raw;
}

function get(url: URL): Promise<string> {
  return keepAliveRequest<string>(url, { method: 'GET' }, (res: IncomingMessage, resolve) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => resolve(`${res.statusCode} ${Buffer.concat(chunks).toString()}`));
  });
}

/** The time `connection` was closed by the client, or a failure after `withinMs`. */
function closedByClient(connection: Connection | undefined, withinMs: number): Promise<number> {
  assert.ok(connection, 'a connection was opened');
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`the client kept an idle connection over ${withinMs} ms`)),
      withinMs,
    );
  });
  return Promise.race([connection.closed, limit]).finally(() => clearTimeout(timer));
}

describe('keepAliveRequest: idle connections', () => {
  const servers: RawServer[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));
  const start = async (options: Parameters<typeof rawServer>[0]) => {
    const server = await rawServer(options);
    servers.push(server);
    return server;
  };

  test('a connection is reused at once, and closed a second before the announced timeout', async () => {
    const server = await start({ keepAlive: 'timeout=2' });
    assert.equal(await get(server.url), '200 ok');
    assert.equal(await get(server.url), '200 ok');
    assert.equal(server.connections.length, 1, 'the second request reused the connection');

    const idleSince = Date.now();
    const closed = await closedByClient(server.connections[0], 10_000);
    // 2 s announced, less the second's margin: not before about 1 s of idleness.
    assert.ok(closed - idleSince >= 900, `closed after ${closed - idleSince} ms`);
    assert.equal(await get(server.url), '200 ok');
    assert.equal(server.connections.length, 2, 'a request after that opens a new connection');
  });

  test('without an announced timeout, an idle connection is closed after IDLE_SOCKET_MS', async () => {
    const server = await start({});
    assert.equal(await get(server.url), '200 ok');
    const idleSince = Date.now();
    const closed = await closedByClient(server.connections[0], IDLE_SOCKET_MS + 10_000);
    assert.ok(closed - idleSince >= IDLE_SOCKET_MS - 100, `closed after ${closed - idleSince} ms`);
  });

  test('a request whose answer takes longer than the idle time is still answered', async () => {
    const server = await start({ answerAfterMs: IDLE_SOCKET_MS + 500 });
    assert.equal(await get(server.url), '200 ok');
    assert.equal(server.connections.length, 1);
  });
});
