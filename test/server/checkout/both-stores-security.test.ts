/**
 * Security and no-card-data, on both stores: tokens, CORS, validation, double submit, 3DS
 * replays, forged returns and callbacks, rate limits, body limits, opaque 500s, and a search of
 * the whole store and the captured logs for the card number and the CVV after full payments.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import jwt from 'jsonwebtoken';
import type { GatewayClient } from '../../../server/src/gateway/index.js';
import { createGatewayClient } from '../../../server/src/gateway/index.js';
import { computeControl } from '../../../server/src/signing/index.js';
import {
  type Backend,
  JWT_SECRET,
  MERCHANT_ORIGIN,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../support/loopback-stack.js';
import { dumpStore, pgliteStore, postgresStore, type TestStore } from '../../support/stores.js';
import {
  BROWSER,
  CUSTOMER,
  createSession,
  merchant,
  postForm,
  returnMessage,
  Shopper,
  uniqueOrderId,
} from '../../support/widget-api-client.js';

/** Not a sandbox table card: follows the CVV rules (123 approves). Distinctive for the search. */
const PAN = '4242424242424242';
const CVV = '123';

for (const testStore of [pgliteStore(), postgresStore('checkout_security')] as TestStore[]) {
  describe(`security and card data (${testStore.kind})`, () => {
    let sb: Sandbox;
    let be: Backend;
    before(async () => {
      sb = await startSandbox();
      const store = await testStore.open();
      be = await startBackend(sb, { store, widgetLimits: { perSession: 40 } });
    });
    after(async () => {
      await be.close();
      await be.store.close();
      await sb.close();
      await testStore.cleanup();
    });

    it('refuses tokens that are missing, forged, of another algorithm, expired or for another audience', async () => {
      const session = await createSession(be.url);
      const call = (token: string) =>
        fetch(`${be.url}/widget/session`, {
          headers: { Authorization: `Bearer ${token}`, Origin: MERCHANT_ORIGIN },
        });
      assert.equal((await fetch(`${be.url}/widget/session`)).status, 401);
      const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: session.id, aud: 'pay-checkout-widget', iss: 'pay-checkout' })).toString('base64url')}.`;
      assert.equal((await call(none)).status, 401);
      const wrongKey = jwt.sign(
        { sub: session.id, aud: 'pay-checkout-widget', iss: 'pay-checkout' },
        'another-secret-another-secret-000',
        { algorithm: 'HS256' },
      );
      assert.equal((await call(wrongKey)).status, 401);
      const hs512 = jwt.sign(
        { sub: session.id, aud: 'pay-checkout-widget', iss: 'pay-checkout' },
        JWT_SECRET,
        { algorithm: 'HS512' },
      );
      assert.equal((await call(hs512)).status, 401);
      const otherAudience = jwt.sign(
        { sub: session.id, aud: 'merchant', iss: 'pay-checkout' },
        JWT_SECRET,
        { algorithm: 'HS256' },
      );
      assert.equal((await call(otherAudience)).status, 401);
      const expired = jwt.sign(
        {
          sub: session.id,
          aud: 'pay-checkout-widget',
          iss: 'pay-checkout',
          exp: Math.floor(Date.now() / 1000) - 10,
        },
        JWT_SECRET,
        { algorithm: 'HS256' },
      );
      const res = await call(expired);
      assert.equal(res.status, 401);
      assert.equal(
        ((await res.json()) as { error: { code: string } }).error.code,
        'session-expired',
      );
      const good = await call(session.token);
      assert.equal(good.status, 200);
      const view = (await good.json()) as {
        amount: string;
        currency: string;
        intent: string;
        state: string;
        orderId: string;
      };
      assert.deepEqual(
        [view.amount, view.currency, view.intent, view.state, view.orderId],
        ['10.42', 'EUR', 'sale', 'open', session.orderId],
      );
    });

    it('answers CORS only to allowed origins and refuses a pay from elsewhere', async () => {
      const session = await createSession(be.url);
      const preflight = (origin: string) =>
        fetch(`${be.url}/widget/pay`, {
          method: 'OPTIONS',
          headers: {
            Origin: origin,
            'Access-Control-Request-Method': 'POST',
            'Access-Control-Request-Headers': 'authorization,content-type',
          },
        });
      assert.equal(
        (await preflight(MERCHANT_ORIGIN)).headers.get('access-control-allow-origin'),
        MERCHANT_ORIGIN,
      );
      assert.equal(
        (await preflight('https://evil.example')).headers.get('access-control-allow-origin'),
        null,
      );
      const evil = new Shopper(be.url, session.token, 'https://evil.example');
      const res = await evil.call('POST', '/pay', {
        card: { number: PAN, expMonth: '12', expYear: '2030', cvc: CVV, holder: 'A' },
        browser: BROWSER,
      });
      assert.equal(res.status, 403);
      assert.equal(
        (await new Shopper(be.url, session.token).call('GET', '/session')).body.state,
        'open',
      );
    });

    it('validates the card and names the field without echoing it', async () => {
      const session = await createSession(be.url);
      const shopper = new Shopper(be.url, session.token);
      const res = await shopper.call('POST', '/pay', {
        card: {
          number: '4242424242424241',
          expMonth: '12',
          expYear: '2030',
          cvc: CVV,
          holder: 'A',
        },
        browser: BROWSER,
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.field, 'card.number');
      assert.ok(!JSON.stringify(res.body).includes('4242424242424241'));
      const month = await shopper.call('POST', '/pay', {
        card: { number: PAN, expMonth: '13', expYear: '2030', cvc: CVV, holder: 'A' },
        browser: BROWSER,
      });
      assert.equal(month.body.error.field, 'card.expMonth');
      const tamper = await shopper.call('POST', '/pay', {
        card: { number: PAN, expMonth: '12', expYear: '2030', cvc: CVV, holder: 'A' },
        browser: BROWSER,
        amount: '0.01',
      });
      assert.equal(tamper.status, 400);
      assert.equal(tamper.body.error.field, 'amount');
      assert.equal(tamper.body.error.message, 'amount: is not a field of this request');
      const big = await fetch(`${be.url}/widget/pay`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${session.token}`,
          Origin: MERCHANT_ORIGIN,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ pad: 'x'.repeat(20_000) }),
      });
      assert.equal(big.status, 413);
    });

    it('a double submit pays once and answers the same order', async () => {
      const session = await createSession(be.url);
      const shopper = new Shopper(be.url, session.token);
      const card = { pan: PAN, cvv: CVV };
      const [a, b] = await Promise.all([shopper.pay(card), shopper.pay(card)]);
      assert.equal(a.order.orderId, session.orderId);
      assert.equal(b.order.orderId, session.orderId);
      const final = await shopper.complete(card, await shopper.next(2));
      assert.equal(final.order.status, 'approved');
      const order = await be.store.orders.getByClientOrderId(session.orderId);
      const sales = (
        await be.store.db.query(
          `select count(*)::int as n from gateway_history where order_id = $1 and operation = 'sale'`,
          [order?.id],
        )
      ).rows[0] as { n: number };
      assert.equal(sales.n, 1);
    });

    it('refuses a second method result, replays of the challenge and forged final redirects', async () => {
      const session = await createSession(be.url);
      const shopper = new Shopper(be.url, session.token);
      const first = await shopper.until(await shopper.pay({ pan: '4000000000000044' }));
      assert.equal(first.action, 'method');
      const challenge = await shopper.until(await shopper.methodResult('N'));
      const again = await shopper.call('POST', '/method-result', {
        threeDSCompInd: 'Y',
        browser: BROWSER,
      });
      assert.equal(again.status, 409);
      assert.equal(again.body.error.code, 'conflict');
      assert.equal(challenge.action, 'challenge');
      const order = await be.store.orders.getByClientOrderId(session.orderId);
      assert.ok(order);
      const returnUrl = `${be.url}/return/${order.returnRef}`;
      // A forged final redirect: wrong control.
      const forged = await postForm(returnUrl, {
        status: 'approved',
        orderid: order.gatewayOrderId ?? '',
        client_orderid: order.clientOrderId,
        control: 'f'.repeat(40),
      });
      assert.equal(forged.status, 403);
      assert.equal((await be.store.orders.get(order.id))?.status, 'processing');
      // The page's CSP allows its one script by hash and only the merchant as a framer.
      const csp = forged.headers.get('content-security-policy') ?? '';
      assert.match(csp, /script-src 'sha256-[A-Za-z0-9+/=]+'/);
      assert.match(csp, /frame-ancestors 'self' https:\/\/shop\.example/);
      assert.equal(forged.headers.get('x-frame-options'), null);
      // A cres for a challenge never shown: nothing expected yet is uploaded.
      const final = await shopper.complete({ pan: '4000000000000044', otp: '1234' }, challenge);
      assert.equal(final.order.status, 'approved');
      const replay = await postForm(returnUrl, { cres: 'eyJ0cmFuc1N0YXR1cyI6IlkifQ' });
      assert.equal(replay.status, 200);
      assert.match(replay.html, /already finished\. Nothing was changed/);
      assert.equal(returnMessage(replay.html).message.type, 'final');
      const unknown = await postForm(`${be.url}/return/${'A'.repeat(43)}`, { cres: 'x' });
      assert.equal(unknown.status, 404);
      assert.match(unknown.html, /Unknown payment\. Nothing was changed/);
      // A genuine final redirect for a finished order changes nothing and sends the shopper back.
      const control = computeControl(
        'final-notification',
        {
          status: 'declined',
          orderid: order.gatewayOrderId ?? '',
          client_orderid: order.clientOrderId,
        },
        be.config.gateway.controlKey,
      );
      const late = await postForm(returnUrl, {
        status: 'declined',
        orderid: order.gatewayOrderId ?? '',
        client_orderid: order.clientOrderId,
        control,
      });
      assert.equal(late.status, 200);
      assert.equal((await be.store.orders.get(order.id))?.status, 'approved');
      assert.equal(returnMessage(late.html).returnUrl, `${MERCHANT_ORIGIN}/thank-you`);
    });

    it('refuses forged callbacks; a genuine one only makes us ask the status, once', async () => {
      const session = await createSession(be.url);
      const shopper = new Shopper(be.url, session.token);
      const first = await shopper.until(await shopper.pay({ pan: '4000000000000044' }));
      assert.equal(first.action, 'method');
      const order = await be.store.orders.getByClientOrderId(session.orderId);
      assert.ok(order?.gatewayOrderId);
      const query = (status: string, control: string) =>
        `${be.url}/callbacks/gateway?${new URLSearchParams({ status, orderid: order.gatewayOrderId ?? '', client_orderid: order.clientOrderId, merchant_order: order.clientOrderId, type: 'sale', control })}`;
      const forged = await fetch(query('approved', 'a'.repeat(40)));
      assert.equal(forged.status, 403);
      assert.equal((await be.store.orders.get(order.id))?.status, 'processing');
      const statusCalls = async () =>
        (await be.store.history.forOrder(order.id)).filter((h) => h.operation === 'status').length;
      const before = await statusCalls();
      const control = computeControl(
        'final-notification',
        { status: 'declined', orderid: order.gatewayOrderId, client_orderid: order.clientOrderId },
        be.config.gateway.controlKey,
      );
      // The gateway retries: repeats get 200 and are acted on once.
      for (let i = 0; i < 3; i++)
        assert.equal((await fetch(query('declined', control))).status, 200);
      // The gateway still waits on the 3DS Method: its status, not the callback, decides.
      assert.equal((await be.store.orders.get(order.id))?.status, 'processing');
      assert.equal(await statusCalls(), before + 1);
      const rows = await be.store.callbacks.forGatewayOrder(order.gatewayOrderId);
      assert.equal(rows.filter((r) => r.status === 'declined').length, 1);
      const next = await shopper.next(0);
      assert.equal(next.action, 'method');
      assert.equal(next.order.status, 'processing');
    });

    it('rate-limits the widget API per session', async () => {
      const session = await createSession(be.url);
      const shopper = new Shopper(be.url, session.token);
      const statuses: number[] = [];
      for (let i = 0; i < 45; i++) statuses.push((await shopper.call('GET', '/session')).status);
      assert.equal(statuses.filter((s) => s === 200).length, 40);
      assert.equal(statuses.at(-1), 429);
    });

    it('never stores, logs or answers the card number or the CVV', async () => {
      const card = { pan: PAN, cvv: CVV };
      for (const intent of ['sale', 'preauth'] as const) {
        const session = await createSession(be.url, { intent });
        const final = await new Shopper(be.url, session.token).complete(card);
        assert.equal(final.order.status, 'approved');
        assert.ok(!JSON.stringify(final).includes(PAN));
      }
      const session = await createSession(be.url);
      const final = await new Shopper(be.url, session.token).complete({
        pan: '4000000000000077',
        otp: '1234',
      });
      assert.equal(final.order.status, 'approved');
      const verification = await merchant(be.url, 'POST', '/v1/account-verifications', {
        orderId: uniqueOrderId('av'),
        card: { number: PAN, expMonth: '12', expYear: '2030', cvc: CVV, holder: 'John Smith' },
        customer: CUSTOMER,
      });
      assert.equal(verification.status, 200);
      const payout = await merchant(be.url, 'POST', '/v1/payouts', {
        orderId: uniqueOrderId('po'),
        amount: '1.00',
        currency: 'EUR',
        card: { number: PAN },
      });
      assert.equal(payout.status, 200);
      const bad = await new Shopper(be.url, (await createSession(be.url)).token).call(
        'POST',
        '/pay',
        {
          card: { number: PAN, expMonth: '12', expYear: '2030', cvc: CVV, holder: 'X' },
          browser: { ...BROWSER, colorDepth: 'deep' },
        },
      );
      assert.equal(bad.status, 400);

      const dump = await dumpStore(be.store);
      assert.ok(dump.includes('424242******4242'), 'the masked number is kept');
      assert.ok(!dump.includes(PAN), 'the PAN is in the store');
      assert.doesNotMatch(dump, /"(cvv2?|cvc|credit_card_number|expire_month|expire_year)"\s*:/i);
      assert.doesNotMatch(dump, new RegExp(`"[^"]*"\\s*:\\s*"${CVV}"`));
      const logs = be.logs.join('');
      assert.ok(logs.length > 1000);
      assert.ok(!logs.includes(PAN), 'the PAN is in the logs');
      assert.doesNotMatch(logs, new RegExp(`"[^"]*"\\s*:\\s*"${CVV}"`));
      assert.ok(!logs.includes(be.config.merchantApiKey));
      assert.ok(!logs.includes(be.config.gateway.controlKey));
    });

    it('answers an unexpected error with 500, a request id and nothing internal', async () => {
      const real = createGatewayClient({
        gatewayUrl: sb.gatewayUrl,
        endpointId: '1',
        login: 'x',
        controlKey: 'y',
      });
      const broken = new Proxy(real, {
        get(target, name) {
          if (name === 'getCardInfo')
            return () => Promise.reject(new Error('db password is hunter2'));
          return target[name as keyof GatewayClient];
        },
      });
      const other = await startBackend(sb, { gateway: broken });
      try {
        const res = await merchant(other.url, 'GET', '/v1/card-refs/abc');
        assert.equal(res.status, 500);
        assert.equal(res.body.error.code, 'internal');
        assert.equal(res.body.error.message, 'Internal error');
        assert.equal(res.body.error.requestId, res.headers.get('x-request-id'));
        assert.ok(!JSON.stringify(res.body).includes('hunter2'));
        assert.match(res.headers.get('content-security-policy') ?? '', /default-src 'none'/);
      } finally {
        await other.close();
      }
    });
  });
}
