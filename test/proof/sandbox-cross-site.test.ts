/**
 * Attacks on a developer's sandbox from a web page they happen to visit: a cross-site "simple"
 * POST (text/plain, a form) to the dev routes that wipe its transactions or switch its faults, and
 * framing its card form into another site. Each is performed as the attacker's page would, and
 * the sandbox's state is compared before and after.
 */
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import {
  type Harness,
  orderId,
  REDIRECT,
  saleRequest,
  startSandbox,
  waitForStatus,
} from '../server/sandbox/helpers.js';
import { card, SANDBOX_TABLES, snapshotTables } from './support/proof.js';

const EVIL = 'https://evil.example';

/** A request as a rebinding page's browser sends it: to this machine, with the page's own Host. */
function withHost(url: string, host: string, body?: string): Promise<{ status: number }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: body === undefined ? 'GET' : 'POST',
        headers: { Host: host, 'Content-Type': 'application/json' },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/** What a page on another site can send without a CORS preflight: the three "simple" types. */
const SIMPLE_POSTS: { type: string; body: string }[] = [
  { type: 'text/plain', body: '{"endpointId":"*"}' },
  { type: 'application/x-www-form-urlencoded', body: 'endpointId=*' },
  { type: 'multipart/form-data; boundary=x', body: '--x\r\n\r\n--x--\r\n' },
];

describe('sandbox dev routes refuse cross-site requests', () => {
  let h: Harness;
  before(async () => {
    h = await startSandbox();
  });
  after(async () => {
    await h.close();
  });

  const crossSite = (path: string, type: string, body: string) =>
    fetch(`${h.origin}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': type, Origin: EVIL },
      body,
    });
  const json = (path: string, body?: unknown) =>
    fetch(`${h.origin}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  it('POST /sandbox/reset as a form or text/plain: 415, every transaction still there', async () => {
    const request = saleRequest(card('approved').pan, orderId('xsite'));
    const sale = await h.client.sale(request);
    assert.match(sale.orderId ?? '', /^\d+$/);
    await waitForStatus(h, request.client_orderid, sale.orderId ?? '');
    const before = await snapshotTables(h.sandbox.store.db, SANDBOX_TABLES);
    assert.match(before.sandbox_transactions ?? '', new RegExp(`"${sale.orderId}"`));

    for (const path of ['/sandbox/reset', '/paynet/sandbox/reset']) {
      for (const { type, body } of SIMPLE_POSTS) {
        const res = await crossSite(path, type, body);
        assert.equal(res.status, 415, `${path} ${type}`);
        assert.deepEqual(await res.json(), {
          error: `/sandbox/reset takes Content-Type: application/json (got ${type})`,
        });
      }
      // No Content-Type at all (a form-less fetch with no-cors) is refused too.
      const bare = await fetch(`${h.origin}${path}`, { method: 'POST', headers: { Origin: EVIL } });
      assert.equal(bare.status, 415);
      assert.deepEqual(await bare.json(), {
        error: '/sandbox/reset takes Content-Type: application/json (got none)',
      });
    }
    await h.sandbox.idle();
    assert.deepEqual(await snapshotTables(h.sandbox.store.db, SANDBOX_TABLES), before);
  });

  it('POST /sandbox/faults as a form or text/plain: 415, the switches unchanged', async () => {
    const set = await json('/sandbox/faults', { endpointId: h.endpointId, latencyMs: 5 });
    assert.equal(set.status, 200);
    const switches = await (await fetch(`${h.origin}/sandbox/faults`)).json();
    assert.deepEqual(switches, { [h.endpointId]: { latencyMs: 5 } });
    for (const { type, body } of SIMPLE_POSTS) {
      const res = await crossSite('/sandbox/faults', type, body);
      assert.equal(res.status, 415, type);
      assert.deepEqual(await res.json(), {
        error: `/sandbox/faults takes Content-Type: application/json (got ${type})`,
      });
    }
    assert.deepEqual(h.sandbox.faults.snapshot(), switches);
    assert.equal((await json('/sandbox/faults', { endpointId: h.endpointId })).status, 200);
  });

  it('a cross-site JSON POST needs a preflight, and the sandbox grants none', async () => {
    const preflight = await fetch(`${h.origin}/sandbox/reset`, {
      method: 'OPTIONS',
      headers: {
        Origin: EVIL,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    assert.equal(preflight.headers.get('access-control-allow-origin'), null);
    assert.equal(preflight.headers.get('access-control-allow-headers'), null);
  });

  it('through DNS rebinding (another site’s name resolved here): 421, nothing reset', async () => {
    const before = await snapshotTables(h.sandbox.store.db, SANDBOX_TABLES);
    for (const host of ['attacker.example', 'attacker.example:4000', '10.0.0.1']) {
      const res = await withHost(`${h.origin}/sandbox/reset`, host, '{}');
      assert.equal(res.status, 421, host);
    }
    assert.deepEqual(await snapshotTables(h.sandbox.store.db, SANDBOX_TABLES), before);
    // The test-card table is no secret: it answers any name.
    assert.equal(
      (await withHost(`${h.origin}/sandbox/test-cards`, 'attacker.example')).status,
      200,
    );
  });

  it('the developer’s own JSON reset still works: 200, the transactions gone', async () => {
    const res = await json('/sandbox/reset');
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), { reset: true });
    const { rows } = await h.sandbox.store.db.query<{ n: number }>(
      'select count(*)::int as n from sandbox_transactions',
    );
    assert.equal(rows[0]?.n, 0);
  });
});

describe('sandbox pages may be framed only by the backend and the merchant pages', () => {
  const cspOf = async (url: string) => {
    const res = await fetch(url);
    await res.text();
    return res.headers.get('content-security-policy') ?? '';
  };
  const hostedForm = async (h: Harness) => {
    const ack = await h.client.saleForm({
      client_orderid: orderId('frame'),
      amount: '5.00',
      currency: 'EUR',
      email: 'shopper@example.com',
      order_desc: 'Framing proof',
      ipaddress: '203.0.113.7',
      redirect_url: REDIRECT,
    });
    return ack.redirectUrl;
  };

  it('default: the sandbox itself and pages on this machine, never another site', async () => {
    const h = await startSandbox();
    try {
      const ancestors =
        "frame-ancestors 'self' http://localhost:* http://127.0.0.1:* http://[::1]:*";
      // The card form (hosted form) and an ACS page.
      for (const url of [await hostedForm(h), `${h.base}/acs/challenge`]) {
        const csp = await cspOf(url);
        assert.ok(csp.endsWith(`; ${ancestors}`), `${url}: ${csp}`);
        assert.doesNotMatch(csp, /evil\.example|frame-ancestors \*/);
      }
    } finally {
      await h.close();
    }
  });

  it('with frameAncestors: exactly those origins', async () => {
    const h = await startSandbox({
      frameAncestors: ['https://pay.shop.example', 'https://shop.example'],
    });
    try {
      const ancestors = "frame-ancestors 'self' https://pay.shop.example https://shop.example";
      for (const url of [
        await hostedForm(h),
        `${h.base}/acs/challenge`,
        `${h.base}/acs/3ds-method`,
        `${h.base}/acs/3ds1`,
      ]) {
        const csp = await cspOf(url);
        assert.ok(csp.endsWith(`; ${ancestors}`), `${url}: ${csp}`);
      }
    } finally {
      await h.close();
    }
  });
});
