/**
 * Smaller holes (Idempotency-Key scope, hosted mode, card data in the history, throttling, token
 * expiry, redirects, amounts a currency cannot hold), each attacked by hand against the in-process
 * stack (sandbox and backend on loopback HTTP), each asserting that nothing changed: the order, its
 * operations, the stored rows and the sandbox's transactions.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import jwt from 'jsonwebtoken';
import {
  type Backend,
  BROWSER,
  CHECKOUT_TABLES,
  CUSTOMER,
  card,
  closeServer,
  createSession,
  JWT_SECRET,
  listen,
  MERCHANT_API_KEY,
  MERCHANT_ORIGIN,
  merchant,
  type Pair,
  SANDBOX_TABLES,
  Shopper,
  sandboxTransactions,
  snapshotTables,
  startBackend,
  startPair,
  uniqueOrderId,
} from './support/proof.js';

describe('smaller holes', () => {
  let pair: Pair;
  /** Every answer body the backend read from the gateway, as it came. */
  const gatewayAnswers: string[] = [];
  before(async () => {
    pair = await startPair(
      {},
      {
        gatewayFetch: async (url, init) => {
          const res = await fetch(url, init);
          const text = await res.text();
          gatewayAnswers.push(text);
          return { status: res.status, headers: res.headers, text: async () => text };
        },
      },
    );
  });
  after(async () => {
    await pair.close();
  });

  const api = (method: 'GET' | 'POST', path: string, body?: unknown, headers = {}) =>
    merchant(pair.be.url, method, path, body, headers);

  async function paidOrder(intent: 'sale' | 'preauth', amount: string, currency = 'EUR') {
    const session = await createSession(pair.be.url, { intent, amount, currency });
    const final = await new Shopper(pair.be.url, session.token).complete(card('approved'));
    assert.equal(final.order.status, 'approved');
    return session.orderId;
  }

  /** Every stored row of both sides, once the sandbox has no callback left to send. */
  async function everything() {
    await pair.sb.sandbox.idle();
    return {
      checkout: await snapshotTables(pair.db, CHECKOUT_TABLES),
      sandbox: await snapshotTables(pair.db, SANDBOX_TABLES),
    };
  }

  /** The sandbox's refunds of one order: its return operations, whatever their status. */
  async function sandboxReturns(orderId: string) {
    const txs = await sandboxTransactions(pair.sb, orderId);
    return txs.flatMap((t) => [
      ...t.operations.filter((o) => o.type === 'return'),
      ...(t.kind === 'return'
        ? [{ type: t.kind, amountMinor: t.amountMinor, status: t.status }]
        : []),
    ]);
  }

  describe('Idempotency-Key scope', () => {
    it('/return, /return/, /RETURN and an encoded order id under one key refund once', async () => {
      const orderId = await paidOrder('sale', '7.00');
      const key = `idem-${uniqueOrderId()}`;
      const once = { 'Idempotency-Key': key };
      const first = await api('POST', `/v1/orders/${orderId}/return`, { amount: '1.00' }, once);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      const before = await everything();

      // The attack: other spellings of the same route under the same key.
      const spellings = [
        `/v1/orders/${orderId}/return/`,
        `/v1/orders/${orderId}/RETURN`,
        `/v1/ORDERS/${orderId}/RETURN`,
        `/v1/Orders/${orderId}/Return/`,
      ];
      for (const path of spellings) {
        const res = await api('POST', path, { amount: '1.00' }, once);
        assert.equal(res.status, 404, `${path}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'not-found');
      }
      // The same route with the order id percent-encoded: the same scope, so a replay.
      const encoded = `/v1/orders/${orderId.replace('-', '%2D')}/return`;
      assert.notEqual(encoded, `/v1/orders/${orderId}/return`);
      const replay = await api('POST', encoded, { amount: '1.00' }, once);
      assert.equal(replay.status, 200);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
      assert.deepEqual(replay.body, first.body);

      assert.deepEqual(await everything(), before);
      const order = await api('GET', `/v1/orders/${orderId}`);
      assert.equal(order.body.returnedAmount, '1.00');
      const returns = await sandboxReturns(orderId);
      assert.equal(returns.length, 1, JSON.stringify(returns));
      assert.equal(returns[0]?.amountMinor, 100);
    });

    it('the same key on another order is another scope (it runs)', async () => {
      const a = await paidOrder('sale', '3.00');
      const b = await paidOrder('sale', '3.00');
      const once = { 'Idempotency-Key': `idem-${uniqueOrderId()}` };
      const ra = await api('POST', `/v1/orders/${a}/return`, { amount: '1.00' }, once);
      const rb = await api('POST', `/v1/orders/${b}/return`, { amount: '1.00' }, once);
      assert.equal(ra.status, 200);
      assert.equal(rb.status, 200);
      assert.equal(rb.headers.get('idempotent-replayed'), null);
      assert.equal((await api('GET', `/v1/orders/${b}`)).body.returnedAmount, '1.00');
    });
  });

  describe('hosted mode and the modes a session allows', () => {
    /** A widget call as a script on any page (or curl) would make it, with the Origin it chooses. */
    const widgetCall = async (token: string, path: string, origin?: string, body?: unknown) => {
      const res = await fetch(`${pair.be.url}/widget${path}`, {
        method: body === undefined && path === '/session' ? 'GET' : 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          ...(origin === undefined ? {} : { Origin: origin }),
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
      return { status: res.status, body: (await res.json()) as any };
    };
    const payBody = () => ({
      card: {
        number: card('approved').pan,
        expMonth: '12',
        expYear: '2030',
        cvc: '123',
        holder: 'John Smith',
      },
      browser: BROWSER,
    });

    it('/widget/hosted from evil.example or with no Origin: 403, the session stays open', async () => {
      const session = await createSession(pair.be.url);
      const before = await everything();
      for (const origin of ['https://evil.example', undefined, 'null']) {
        const res = await widgetCall(session.token, '/hosted', origin);
        assert.equal(res.status, 403, `${origin}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'forbidden');
      }
      assert.deepEqual(await everything(), before);
      assert.deepEqual(await sandboxTransactions(pair.sb, session.orderId), []);
      const view = await widgetCall(session.token, '/session', MERCHANT_ORIGIN);
      assert.equal(view.body.state, 'open');
      assert.equal(view.body.order, undefined);
      // The merchant's own page still gets the hosted form.
      const ok = await widgetCall(session.token, '/hosted', MERCHANT_ORIGIN);
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.action, 'redirect');
    });

    it('a direct-only session refuses /widget/hosted (409) and still takes the card', async () => {
      const session = await createSession(pair.be.url, { modes: ['direct'] });
      const view = await widgetCall(session.token, '/session', MERCHANT_ORIGIN);
      assert.deepEqual(view.body.modes, ['direct']);
      const before = await everything();
      const res = await widgetCall(session.token, '/hosted', MERCHANT_ORIGIN);
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.deepEqual(res.body.error, {
        code: 'conflict',
        message: 'This checkout session does not allow hosted mode (allowed: direct)',
        requestId: res.body.error.requestId,
      });
      assert.deepEqual(await everything(), before);
      assert.deepEqual(await sandboxTransactions(pair.sb, session.orderId), []);
      const final = await new Shopper(pair.be.url, session.token).complete(card('approved'));
      assert.equal(final.order.status, 'approved');
    });

    it('a hosted-only session refuses /widget/pay (409): no card reaches the gateway', async () => {
      const session = await createSession(pair.be.url, { modes: ['hosted'] });
      const view = await widgetCall(session.token, '/session', MERCHANT_ORIGIN);
      assert.deepEqual(view.body.modes, ['hosted']);
      const before = await everything();
      const res = await widgetCall(session.token, '/pay', MERCHANT_ORIGIN, payBody());
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.equal(
        res.body.error.message,
        'This checkout session does not allow direct mode (allowed: hosted)',
      );
      assert.deepEqual(await everything(), before);
      assert.deepEqual(await sandboxTransactions(pair.sb, session.orderId), []);
      const hosted = await widgetCall(session.token, '/hosted', MERCHANT_ORIGIN);
      assert.equal(hosted.status, 200, JSON.stringify(hosted.body));
      assert.equal(hosted.body.action, 'redirect');
    });

    it('a session allows both modes unless told; bad modes are 400s naming modes', async () => {
      const session = await createSession(pair.be.url);
      const view = await widgetCall(session.token, '/session', MERCHANT_ORIGIN);
      assert.deepEqual(view.body.modes, ['direct', 'hosted']);
      const before = await everything();
      for (const [modes, field, message] of [
        [[], 'modes', 'modes: must name at least one mode'],
        [['card'], 'modes.0', undefined],
        [['direct', 'direct'], 'modes', 'modes: must not repeat a mode'],
        ['direct', 'modes', undefined],
      ] as const) {
        const res = await api('POST', '/v1/checkout-sessions', {
          amount: '1.00',
          currency: 'EUR',
          orderId: uniqueOrderId(),
          description: 'x',
          customer: CUSTOMER,
          modes,
        });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.field, field);
        if (message) assert.equal(res.body.error.message, message);
      }
      assert.deepEqual(await everything(), before);
    });
  });

  describe('card data', () => {
    /** Every stored row of the backend as text, and every log line, for the searches. */
    async function storedAndLogged() {
      const rows = await snapshotTables(pair.db, CHECKOUT_TABLES);
      return `${Object.values(rows).join('\n')}\n${pair.be.logs.join('')}`;
    }

    it('the expiry the gateway echoes in its status never reaches gateway_history', async () => {
      const session = await createSession(pair.be.url);
      const shopper = new Shopper(pair.be.url, session.token);
      const res = await shopper.call('POST', '/pay', {
        card: {
          number: card('approved').pan,
          expMonth: '11',
          expYear: '2037',
          cvc: '123',
          holder: 'John Smith',
        },
        browser: BROWSER,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const final = await shopper.until(res.body);
      assert.equal(final.order.status, 'approved');
      const order = await pair.store.orders.getByClientOrderId(session.orderId);
      assert.ok(order);
      const history = await pair.store.history.forOrder(order.id);
      const statuses = history.filter((e) => e.operation === 'status' && e.response);
      assert.ok(statuses.length > 0, 'the backend asked the gateway for the status');
      // The gateway did send it (so the test can fail): its status answer names the expiry.
      assert.ok(
        gatewayAnswers.some((a) => a.includes('card-exp-month') && a.includes('2037')),
        'the sandbox echoes the expiry',
      );
      // The year on its own: not the same four digits inside a timestamp or an id (UUIDs go first).
      const year = /(?<![0-9A-Za-z])2037(?![0-9A-Za-z])/;
      const withoutIds = (text: string) =>
        text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>');
      for (const entry of history) {
        const text = withoutIds(JSON.stringify(entry));
        assert.ok(!/exp[-_]?(ire[-_]?)?(month|year)/i.test(text), text);
        assert.ok(!year.test(text), text);
      }
      const everything = withoutIds(await storedAndLogged());
      const found = year.exec(everything);
      assert.equal(
        found,
        null,
        found ? everything.slice(found.index - 200, found.index + 200) : '',
      );
    });

    it('a 12-digit card number is shown as 2 + 4 digits and is found by the log scrubber', async () => {
      const pan = '500000000009';
      const session = await createSession(pair.be.url);
      const shopper = new Shopper(pair.be.url, session.token);
      const res = await shopper.call('POST', '/pay', {
        card: { number: pan, expMonth: '12', expYear: '2030', cvc: '123', holder: 'John Smith' },
        browser: BROWSER,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(res.body.order.card, {
        brand: 'UNKNOWN',
        last4: '0009',
        masked: '50******0009',
      });
      await shopper.until(res.body);
      const merchantView = await api('GET', `/v1/orders/${session.orderId}`);
      assert.equal(merchantView.body.card.masked, '50******0009');
      // The attack on the old mask: 10 of 12 digits shown left ~10 Luhn candidates.
      pair.be.checkout.context.logger.warn({ note: `shopper typed ${pan}` }, `card ${pan}`);
      await pair.sb.sandbox.idle();
      const text = await storedAndLogged();
      assert.ok(!text.includes(pan));
      assert.ok(!text.includes(pan.slice(0, 8)));
    });
  });

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

  it('a session token signed with the real secret but without exp is refused everywhere', async () => {
    const session = await createSession(pair.be.url);
    const forever = jwt.sign(
      { sub: session.id, aud: 'pay-checkout-widget', iss: 'pay-checkout' },
      JWT_SECRET,
      { algorithm: 'HS256' },
    );
    assert.equal((jwt.decode(forever) as { exp?: number }).exp, undefined);
    // The same claims with an exp are accepted: only the missing expiry is refused.
    const bounded = jwt.sign(
      { sub: session.id, aud: 'pay-checkout-widget', iss: 'pay-checkout' },
      JWT_SECRET,
      { algorithm: 'HS256', expiresIn: 60 },
    );
    assert.equal((await new Shopper(pair.be.url, bounded).call('GET', '/session')).status, 200);
    const before = await everything();
    const shopper = new Shopper(pair.be.url, forever);
    for (const [method, path, body] of [
      ['GET', '/session'],
      ['GET', '/next?wait=0'],
      ['POST', '/hosted', {}],
      ['POST', '/cancel', { reason: 'shopper-left' }],
      [
        'POST',
        '/pay',
        {
          card: {
            number: card('approved').pan,
            expMonth: '12',
            expYear: '2030',
            cvc: '123',
            holder: 'John Smith',
          },
          browser: BROWSER,
        },
      ],
    ] as const) {
      const res = await shopper.call(method, path, body);
      assert.equal(res.status, 401, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'unauthorized');
    }
    assert.deepEqual(await everything(), before);
    assert.deepEqual(await sandboxTransactions(pair.sb, session.orderId), []);
  });

  it('a gateway answering 307 to another host never gets the card sent there', async () => {
    // The attack: whoever controls the gateway's front (or a proxy) redirects a card-bearing POST.
    const received: string[] = [];
    const collector = await listen((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        received.push(`${req.method} ${req.url} ${body}`);
        res.end('{}');
      });
    });
    const redirector = await listen((req, res) => {
      req.resume();
      res.writeHead(307, { Location: `${collector.url}${req.url}` }).end();
    });
    const be = await startBackend(pair.sb, {
      store: pair.store,
      config: { gateway: { ...pair.be.config.gateway, url: `${redirector.url}/paynet` } },
    });
    try {
      const session = await createSession(be.url);
      const before = await sandboxTransactions(pair.sb, session.orderId);
      const res = await new Shopper(be.url, session.token).call('POST', '/pay', {
        card: {
          number: card('approved').pan,
          expMonth: '12',
          expYear: '2030',
          cvc: '123',
          holder: 'John Smith',
        },
        browser: BROWSER,
      });
      assert.notEqual(res.body?.order?.status, 'approved', JSON.stringify(res.body));
      assert.deepEqual(received, []);
      assert.deepEqual(before, []);
      assert.deepEqual(await sandboxTransactions(pair.sb, session.orderId), []);
      const order = await pair.store.orders.getByClientOrderId(session.orderId);
      assert.ok(order);
      const history = await pair.store.history.forOrder(order.id);
      assert.ok(history.length > 0);
      for (const entry of history) {
        if (entry.operation === 'sale') assert.equal(entry.httpStatus, 307);
      }
    } finally {
      await be.close();
      await closeServer(redirector.server);
      await closeServer(collector.server);
    }
  });

  describe('amounts the currency cannot hold', () => {
    it('capture 1.234 on a EUR preauth and return 1.234 on a EUR sale: 400 naming amount', async () => {
      const preauth = await paidOrder('preauth', '10.00');
      const sale = await paidOrder('sale', '10.00');
      const before = await everything();
      for (const [orderId, kind] of [
        [preauth, 'capture'],
        [sale, 'return'],
      ] as const) {
        const res = await api('POST', `/v1/orders/${orderId}/${kind}`, { amount: '1.234' });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.code, 'validation');
        assert.equal(res.body.error.field, 'amount');
        assert.equal(res.body.error.message, 'amount: amount "1.234" has 3 decimals; EUR has 2');
      }
      assert.deepEqual(await everything(), before);
    });

    it('capture and return 1.5 on JPY orders: 400 naming amount, nothing moves', async () => {
      const preauth = await paidOrder('preauth', '500', 'JPY');
      const sale = await paidOrder('sale', '500', 'JPY');
      const before = await everything();
      for (const [orderId, kind] of [
        [preauth, 'capture'],
        [sale, 'return'],
      ] as const) {
        const res = await api('POST', `/v1/orders/${orderId}/${kind}`, { amount: '1.5' });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.field, 'amount');
        assert.equal(res.body.error.message, 'amount: amount "1.5" has 1 decimals; JPY has 0');
      }
      assert.deepEqual(await everything(), before);
      // An amount that fits still works on the same order.
      const ok = await api('POST', `/v1/orders/${preauth}/capture`, { amount: '200' });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.order.capturedAmount, '200');
    });

    it('capture 1.234 on a KWD preauth (not whole cents, so no control can sign it): 400 naming amount', async () => {
      const preauth = await paidOrder('preauth', '2.000', 'KWD');
      const before = await everything();
      const res = await api('POST', `/v1/orders/${preauth}/capture`, { amount: '1.234' });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.field, 'amount');
      assert.match(res.body.error.message, /^amount: /);
      assert.deepEqual(await everything(), before);
      const ok = await api('POST', `/v1/orders/${preauth}/capture`, { amount: '1.230' });
      assert.equal(ok.status, 200, JSON.stringify(ok.body));
      assert.equal(ok.body.order.capturedAmount, '1.230');
    });

    it('a checkout session of 0 or 0.00 is refused with 400 naming amount', async () => {
      const before = await everything();
      for (const amount of ['0', '0.00', '00.0']) {
        const res = await api('POST', '/v1/checkout-sessions', {
          amount,
          currency: 'EUR',
          orderId: uniqueOrderId(),
          description: 'Nothing to pay',
          customer: CUSTOMER,
        });
        assert.equal(res.status, 400, JSON.stringify(res.body));
        assert.equal(res.body.error.field, 'amount');
        assert.equal(res.body.error.message, 'amount: must be more than zero');
      }
      assert.deepEqual(await everything(), before);
    });
  });
});
