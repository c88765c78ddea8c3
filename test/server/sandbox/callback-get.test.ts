/**
 * The sandbox's callback HTTP (sandbox/http/callback-get.ts): a GET whose status is the answer,
 * redirects never followed, the timeout's signal obeyed.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { callbackGet } from '../../../server/src/sandbox/http/callback-get.js';

describe('callbackGet', () => {
  let server: Server;
  let base: string;
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
  before(async () => {
    server = createServer((req, res) => handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const get = (path: string, signal = new AbortController().signal) =>
    callbackGet(new URL(`${base}${path}`), { method: 'GET', redirect: 'manual', signal });

  test('sends a GET with the query and answers the status', async () => {
    let seen = '';
    handle = (req, res) => {
      seen = `${req.method} ${req.url}`;
      res.end('OK');
    };
    assert.equal((await get('/callbacks/gateway?status=approved&orderid=7')).status, 200);
    assert.equal(seen, 'GET /callbacks/gateway?status=approved&orderid=7');
  });

  test('a redirect is the answer, never followed', async () => {
    let calls = 0;
    handle = (_req, res) => {
      calls += 1;
      res.writeHead(302, { Location: `${base}/elsewhere` });
      res.end();
    };
    assert.equal((await get('/callbacks/gateway')).status, 302);
    assert.equal(calls, 1);
  });

  test('the signal aborts a callback the receiver does not answer', async () => {
    handle = () => {};
    await assert.rejects(get('/hang', AbortSignal.timeout(50)));
  });
});
