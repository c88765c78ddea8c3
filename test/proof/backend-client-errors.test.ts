/**
 * Client mistakes get a 4xx, never a 500 (each was a 500 once; found by the fuzzer):
 *  1. OPTIONS /widget/* from an origin that is not allowed, or with no Origin: a preflight has no
 *     session for the per-session rate limiter to count.
 *  2. A body whose Content-Encoding (gzip, deflate, br) does not match its bytes.
 *  3. Malformed percent-encoding in a path parameter (/v1/orders/%, /return/%E0%A4%A).
 *  4. A NUL byte in a merchant API path id (/v1/orders/%00): not found, before any SQL.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import {
  createSession,
  MERCHANT_API_KEY,
  MERCHANT_ORIGIN,
  type Pair,
  startPair,
} from './support/proof.js';

function send(
  baseUrl: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: Buffer,
): Promise<{ status: number; body: string }> {
  const url = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method,
        path,
        headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) },
      },
      (res) => {
        let text = '';
        res.on('data', (c) => {
          text += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('client mistakes get a 4xx, never a 500', () => {
  let pair: Pair;
  let token: string;
  before(async () => {
    pair = await startPair();
    token = (await createSession(pair.be.url)).token;
  });
  after(async () => {
    await pair.close();
  });

  it('OPTIONS to the widget API from a foreign origin, or none', async () => {
    for (const origin of ['https://evil.example', 'null', undefined]) {
      for (const path of ['/widget/session', '/widget/pay', '/WIDGET/PAY']) {
        const res = await send(pair.be.url, 'OPTIONS', path, {
          ...(origin ? { origin } : {}),
          'access-control-request-method': 'POST',
        });
        assert.ok(res.status < 500, `${origin} ${path}: ${res.status} ${res.body}`);
      }
    }
  });

  it('a Content-Encoding that does not match the body', async () => {
    const json = Buffer.from('{"a":1}');
    const cases: [string, Record<string, string>][] = [
      ['/widget/pay', { authorization: `Bearer ${token}`, origin: MERCHANT_ORIGIN }],
      ['/v1/checkout-sessions', { authorization: `Bearer ${MERCHANT_API_KEY}` }],
    ];
    for (const [path, auth] of cases) {
      for (const encoding of ['gzip', 'deflate', 'br']) {
        const res = await send(
          pair.be.url,
          'POST',
          path,
          { ...auth, 'content-type': 'application/json', 'content-encoding': encoding },
          encoding === 'gzip' ? deflateSync(json) : json,
        );
        assert.ok(res.status >= 400 && res.status < 500, `${path} ${encoding}: ${res.status}`);
      }
    }
  });

  it('malformed percent-encoding in a path parameter', async () => {
    for (const [method, path] of [
      ['GET', '/v1/orders/%'],
      ['GET', '/v1/orders/%E0%A4%A'],
      ['POST', '/return/%'],
      ['GET', '/return/aaaaaaaaaaaaaaaa%E0%A4%A'],
    ] as const) {
      const res = await send(pair.be.url, method, path, {
        authorization: `Bearer ${MERCHANT_API_KEY}`,
      });
      assert.ok(res.status >= 400 && res.status < 500, `${method} ${path}: ${res.status}`);
    }
  });

  it('a NUL byte in a merchant API path id', async () => {
    for (const [method, path] of [
      ['GET', '/v1/orders/%00'],
      ['GET', '/v1/orders/a%00b'],
      ['POST', '/v1/orders/%00/refresh'],
    ] as const) {
      const res = await send(
        pair.be.url,
        method,
        path,
        {
          authorization: `Bearer ${MERCHANT_API_KEY}`,
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        method === 'POST' ? Buffer.from('{}') : undefined,
      );
      assert.equal(res.status, 404, `${method} ${path}: ${res.status} ${res.body}`);
    }
  });
});
