/**
 * What strangers can call is throttled per IP: failed merchant-API logins (the key checked before
 * the body is read), return pages and gateway callbacks, while other IPs and the merchant's valid
 * key go on; attacked by hand against the in-process stack (sandbox and backend on loopback HTTP),
 * each case asserting that nothing changed: the order, its operations, the stored rows and the
 * sandbox's transactions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Backend, createSession, MERCHANT_API_KEY, startBackend } from './support/proof.js';
import { usePair } from './support/use-pair.js';

const { pair, everything } = usePair();

describe('throttling what strangers can call', () => {
  // A second instance on the same store and sandbox, behind a "proxy" on loopback so that each
  // request can name its client IP, with limits a test can reach.
  let be: Backend;
  before(async () => {
    be = await startBackend(pair.sb, {
      store: pair.store,
      config: { trustProxy: ['loopback'] },
      publicLimits: { returnPerIp: 3, callbacksPerIp: 3, failedAuthPerIp: 3 },
    });
  });
  after(async () => {
    await be.close();
  });
  const call = async (path: string, ip: string, init: RequestInit = {}) => {
    const res = await fetch(`${be.url}${path}`, {
      ...init,
      headers: { 'X-Forwarded-For': ip, ...(init.headers as Record<string, string>) },
    });
    const text = await res.text();
    return { status: res.status, text };
  };
  const code = (text: string) => (JSON.parse(text) as { error: { code: string } }).error.code;

  it('merchant API: the key is checked before the body is read, and failed logins are limited per IP', async () => {
    const before = await everything();
    const wrong = {
      method: 'POST',
      headers: { Authorization: 'Bearer guess-0001', 'Content-Type': 'application/json' },
    };
    // Not JSON, then a body over the 32 kB cap: 401 both times (the key came first).
    const notJson = await call('/v1/checkout-sessions', '198.51.100.1', {
      ...wrong,
      body: '{"amount":',
    });
    assert.equal(notJson.status, 401);
    assert.equal(code(notJson.text), 'unauthorized');
    const huge = await call('/v1/checkout-sessions', '198.51.100.1', {
      ...wrong,
      body: JSON.stringify({ pad: 'x'.repeat(40_000) }),
    });
    assert.equal(huge.status, 401);
    const none = await call('/v1/orders', '198.51.100.1');
    assert.equal(none.status, 401);
    // The fourth failure from that IP: 429, whatever it tries.
    const limited = await call('/v1/checkout-sessions', '198.51.100.1', { ...wrong, body: '{}' });
    assert.equal(limited.status, 429);
    assert.equal(code(limited.text), 'rate-limited');
    // Another IP still gets its own 401s; the valid key is never throttled, even from that IP.
    const other = await call('/v1/orders', '198.51.100.2');
    assert.equal(other.status, 401);
    const merchantCall = await call('/v1/orders?limit=1', '198.51.100.1', {
      headers: { Authorization: `Bearer ${MERCHANT_API_KEY}` },
    });
    assert.equal(merchantCall.status, 200);
    assert.deepEqual(await everything(), before);
  });

  it('/return/{ref}: the fourth request a minute from one IP is a 429, other IPs go on', async () => {
    const before = await everything();
    for (let i = 0; i < 3; i++) {
      const res = await call('/return/no-such-ref', '198.51.100.10', {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: 'cres=x',
      });
      assert.equal(res.status, 404, res.text.slice(0, 200));
    }
    const limited = await call('/return/no-such-ref', '198.51.100.10');
    assert.equal(limited.status, 429);
    assert.equal(code(limited.text), 'rate-limited');
    assert.equal((await call('/return/no-such-ref', '198.51.100.11')).status, 404);
    assert.deepEqual(await everything(), before);
  });

  it('/callbacks/gateway: forged callbacks are limited per IP, and change nothing', async () => {
    const session = await createSession(be.url);
    const before = await everything();
    const forged = `/callbacks/gateway?${new URLSearchParams({
      status: 'approved',
      orderid: '7000001',
      client_orderid: session.orderId,
      control: 'deadbeef'.repeat(5),
    })}`;
    for (let i = 0; i < 3; i++) {
      assert.equal((await call(forged, '198.51.100.20')).status, 403);
    }
    const limited = await call(forged, '198.51.100.20');
    assert.equal(limited.status, 429);
    assert.equal(code(limited.text), 'rate-limited');
    assert.equal((await call(forged, '198.51.100.21')).status, 403);
    assert.deepEqual(await everything(), before);
  });
});
