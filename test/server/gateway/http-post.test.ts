/**
 * The gateway client's own HTTP (gateway/http-post.ts) answers what the global fetch answered for
 * the client's one use: a form POST whose answer is read whole as text.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { httpPost } from '../../../server/src/gateway/http-post.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

describe('httpPost', () => {
  let server: Server;
  let base: string;
  let handle: Handler = (_req, _body, res) => res.end();
  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => handle(req, Buffer.concat(chunks).toString('utf8'), res));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const post = (path: string, body = 'a=1&b=Zo%C3%AB', signal = new AbortController().signal) =>
    httpPost(`${base}${path}`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        'Content-Length': String(Buffer.byteLength(body)),
        'X-Request-Id': 'req-1',
      },
      body: new TextEncoder().encode(body),
      signal,
      redirect: 'manual',
    });

  test('sends the method, path, headers and body; answers the status, headers and text', async () => {
    let seen: {
      method?: string;
      url?: string;
      headers?: IncomingMessage['headers'];
      body?: string;
    } = {};
    handle = (req, body, res) => {
      seen = { method: req.method, url: req.url, headers: req.headers, body };
      res.writeHead(201, { 'Content-Type': 'application/vnd.pay+json', 'X-Two': ['a', 'b'] });
      res.end('{"type":"async-response","name":"Zoë"}');
    };
    const response = await post('/paynet/api/v2/sale/1');
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, '/paynet/api/v2/sale/1');
    assert.equal(seen.body, 'a=1&b=Zo%C3%AB');
    assert.equal(seen.headers?.['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(seen.headers?.['x-request-id'], 'req-1');
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('Content-Type'), 'application/vnd.pay+json');
    assert.equal(response.headers.get('x-two'), 'a, b');
    assert.equal(response.headers.get('x-absent'), null);
    assert.equal(await response.text(), '{"type":"async-response","name":"Zoë"}');
  });

  test('a redirect is the answer, never followed', async () => {
    let calls = 0;
    handle = (_req, _body, res) => {
      calls += 1;
      res.writeHead(307, { Location: `${base}/elsewhere` });
      res.end();
    };
    const response = await post('/paynet/api/v2/sale/1');
    assert.equal(response.status, 307);
    assert.equal(response.headers.get('location'), `${base}/elsewhere`);
    assert.equal(calls, 1);
  });

  test('a byte order mark is dropped and a compressed answer decoded, as fetch does', async () => {
    handle = (_req, _body, res) => {
      res.writeHead(200, { 'Content-Encoding': 'gzip' });
      res.end(gzipSync(Buffer.from('\uFEFF{"status":"approved"}', 'utf8')));
    };
    assert.equal(await (await post('/status')).text(), '{"status":"approved"}');
  });

  test('the signal aborts a request the server does not answer', async () => {
    handle = () => {};
    const controller = new AbortController();
    const pending = post('/hang', 'a=1', controller.signal);
    controller.abort();
    await assert.rejects(pending, { name: 'AbortError' });
  });

  test('a refused connection rejects with its code', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/x`;
    await new Promise((resolve) => closed.close(resolve));
    await assert.rejects(
      httpPost(url, {
        method: 'POST',
        headers: {},
        body: new Uint8Array(0),
        signal: new AbortController().signal,
        redirect: 'manual',
      }),
      { code: 'ECONNREFUSED' },
    );
  });
});
