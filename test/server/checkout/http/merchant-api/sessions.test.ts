/**
 * Orders from their first moment: creating a checkout session creates its order
 * (`awaiting-payment`), which the merchant reads, lists and is refused money operations on; a
 * session read never shows its token; a session ends unpaid at its expiry (sweeper, or the first
 * read after it) or early on the merchant's request, leaving its order `expired` with exactly one
 * `order.expired` webhook.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { luhnValid } from '../../../../../contract/card/luhn.js';
import {
  type Backend,
  MERCHANT_ORIGIN,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../../../support/loopback-stack.js';
import {
  CUSTOMER,
  createSession,
  merchant,
  Shopper,
} from '../../../../support/widget-api-client.js';

const APPROVED = { pan: '4000000000000002' };

describe('merchant API: checkout sessions and their orders from the first moment', () => {
  let sb: Sandbox;
  let be: Backend;
  before(async () => {
    sb = await startSandbox();
    be = await startBackend(sb, {
      config: { webhook: { url: 'http://127.0.0.1:9/hook', secret: 'whsec-test-0123456789' } },
    });
  });
  after(async () => {
    await be.close();
    await sb.close();
  });

  /** The webhooks queued for the order with this merchant order id: [event, order status]. */
  const webhooksOf = async (orderId: string) => {
    const { rows } = await be.store.db.query<{ event: string; payload: { data: unknown } }>(
      `select w.event, w.payload from merchant_webhooks w join orders o on o.id = w.order_id
       where o.client_orderid = $1 order by w.created_at`,
      [orderId],
    );
    return rows.map((r) => [
      r.event,
      (r.payload.data as { order: { status: string } }).order.status,
    ]);
  };
  const pastExpiry = (sessionId: string) =>
    be.store.db.query(
      "update checkout_sessions set expires_at = now() - interval '1 second' where id = $1",
      [sessionId],
    );

  it('a new session answers its order id, and the order reads awaiting-payment at once', async () => {
    const res = await merchant(be.url, 'POST', '/v1/checkout-sessions', {
      amount: '12.34',
      currency: 'EUR',
      orderId: `first-${Date.now().toString(36)}`,
      intent: 'preauth',
      description: 'Two tickets',
      customer: CUSTOMER,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const orderId = res.body.orderId as string;
    assert.match(orderId, /^first-/);
    const order = await merchant(be.url, 'GET', `/v1/orders/${orderId}`);
    assert.equal(order.status, 200);
    const { createdAt, updatedAt, ...rest } = order.body;
    assert.deepEqual(rest, {
      orderId,
      livemode: true,
      gatewayOrderId: null,
      sessionId: res.body.id,
      intent: 'preauth',
      status: 'awaiting-payment',
      amount: '12.34',
      currency: 'EUR',
      capturedAmount: '0.00',
      returnedAmount: '0.00',
      voided: false,
      card: null,
      reason: null,
      errorCode: null,
      cardRef: null,
      // Unpaid: no attempt has carried a customer to the gateway yet.
      customer: null,
      attempts: [],
    });
    assert.equal(createdAt, updatedAt);
    const listed = await merchant(be.url, 'GET', '/v1/orders?status=awaiting-payment&limit=500');
    assert.equal(listed.status, 200);
    assert.ok(listed.body.orders.some((o: { orderId: string }) => o.orderId === orderId));
    assert.deepEqual(await webhooksOf(orderId), []);
  });

  it('capture, void and return on an unpaid order: 409 naming its state, nothing changed', async () => {
    const session = await createSession(be.url, { intent: 'preauth' });
    const before = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
    const countOperations = async () =>
      (await be.store.db.query('select count(*)::int as n from merchant_operations')).rows;
    const operationsBefore = await countOperations();
    for (const [kind, body] of [
      ['capture', { amount: '1.00' }],
      ['void', {}],
      ['return', {}],
    ] as const) {
      const res = await merchant(be.url, 'POST', `/v1/orders/${session.orderId}/${kind}`, body);
      assert.equal(res.status, 409, `${kind}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'conflict');
      assert.match(res.body.error.message, /is awaiting-payment; only an approved order/);
    }
    assert.deepEqual(await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`), before);
    assert.deepEqual(await countOperations(), operationsBefore);
  });

  it('reads a session with its order, never its token; an unknown id is 404', async () => {
    const session = await createSession(be.url, { amount: '5.00', modes: ['direct'] });
    const res = await merchant(be.url, 'GET', `/v1/checkout-sessions/${session.id}`);
    assert.equal(res.status, 200);
    const { expiresAt, createdAt, updatedAt, order, ...rest } = res.body;
    assert.deepEqual(rest, {
      id: session.id,
      orderId: session.orderId,
      state: 'open',
      amount: '5.00',
      currency: 'EUR',
      intent: 'sale',
      description: 'Test order',
      modes: ['direct'],
      maxAttempts: 5,
      saveCard: 'never',
      savedCards: [],
      savedCardCvc: 'required',
      collect: { email: 'auto', phone: 'auto', billingAddress: 'auto' },
      countryHint: null,
      livemode: true,
      returnUrl: `${MERCHANT_ORIGIN}/thank-you`,
      metadata: {},
    });
    assert.ok(Date.parse(expiresAt) > Date.now());
    assert.equal(order.orderId, session.orderId);
    assert.equal(order.status, 'awaiting-payment');
    assert.ok(!JSON.stringify(res.body).includes(session.token));
    assert.ok(!JSON.stringify(res.body).includes('token'));
    const missing = await merchant(be.url, 'GET', '/v1/checkout-sessions/no-such-session');
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, 'not-found');
  });

  it('the paid order is the same order: created with the session, final after the payment', async () => {
    const session = await createSession(be.url);
    const unpaid = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
    const final = await new Shopper(be.url, session.token).complete(APPROVED);
    assert.equal(final.order.status, 'approved');
    const paid = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
    assert.equal(paid.body.status, 'approved');
    assert.equal(paid.body.createdAt, unpaid.body.createdAt);
    assert.equal(paid.body.card.last4, '0002');
    const read = await merchant(be.url, 'GET', `/v1/checkout-sessions/${session.id}`);
    assert.equal(read.body.state, 'completed');
    assert.equal(read.body.order.status, 'approved');
    assert.deepEqual(await webhooksOf(session.orderId), [['order.approved', 'approved']]);
    // A finished session cannot be expired.
    const expire = await merchant(be.url, 'POST', `/v1/checkout-sessions/${session.id}/expire`, {});
    assert.equal(expire.status, 409);
    assert.equal(
      expire.body.error.message,
      `Checkout session ${session.id} is completed; only an open session can be expired`,
    );
  });

  it('expire ends an open session: the order expires, one webhook, the widget takes no payment', async () => {
    const session = await createSession(be.url);
    const res = await merchant(be.url, 'POST', `/v1/checkout-sessions/${session.id}/expire`, {});
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.state, 'expired');
    assert.equal(res.body.order.status, 'expired');
    const again = await merchant(be.url, 'POST', `/v1/checkout-sessions/${session.id}/expire`, {});
    assert.equal(again.status, 200);
    assert.equal(again.body.state, 'expired');
    assert.deepEqual(await webhooksOf(session.orderId), [['order.expired', 'expired']]);

    const shopper = new Shopper(be.url, session.token);
    const view = await shopper.call('GET', '/session');
    assert.equal(view.status, 200);
    assert.equal(view.body.state, 'expired');
    assert.equal(view.body.order, undefined);
    const pay = await shopper.call('POST', '/pay', shopper.payBody(APPROVED));
    assert.equal(pay.status, 410);
    assert.equal(pay.body.error.code, 'session-expired');
    const order = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
    assert.equal(order.body.status, 'expired');
    assert.equal(order.body.card, null);
    const unknown = await merchant(be.url, 'POST', '/v1/checkout-sessions/nope/expire', {});
    assert.equal(unknown.status, 404);
  });

  it('expire while the shopper pays: 409 naming the state; the payment goes on', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    const paying = await shopper.pay(APPROVED);
    const res = await merchant(be.url, 'POST', `/v1/checkout-sessions/${session.id}/expire`, {});
    assert.equal(res.status, 409);
    // The attempt under way is named (or the payment was done already).
    assert.match(
      res.body.error.message,
      new RegExp(
        ` is paying: attempt 1 \\(${session.orderId}\\) is under way| is completed; only an open session`,
      ),
    );
    const final = await shopper.complete(APPROVED, paying);
    assert.equal(final.order.status, 'approved');
  });

  it('a card-like number of any brand in a description is masked before it is stored', async () => {
    const cases: [string, string][] = [
      ['1234000000000006', '123400******0006'],
      ['9000000000000001', '900000******0001'],
      ['400000000002', '40******0002'],
    ];
    for (const [pan, masked] of cases) {
      const session = await createSession(be.url, { description: `order for card ${pan}` });
      const read = await merchant(be.url, 'GET', `/v1/checkout-sessions/${session.id}`);
      assert.equal(read.body.description, `order for card ${masked}`);
      const widget = await new Shopper(be.url, session.token).call('GET', '/session');
      assert.ok(!JSON.stringify(widget.body).includes(pan));
    }
    // A number that fails Luhn (an order number) is kept as sent.
    const plain = await createSession(be.url, { description: 'order 1234000000000007' });
    const read = await merchant(be.url, 'GET', `/v1/checkout-sessions/${plain.id}`);
    assert.equal(read.body.description, 'order 1234000000000007');
  });

  it('an orderId that is a card-like number is a 400 naming orderId, never echoed', async () => {
    for (const orderId of ['1234000000000006', '400000000002', 'ord-4111111111111111']) {
      const res = await merchant(be.url, 'POST', '/v1/checkout-sessions', {
        amount: '1.00',
        currency: 'EUR',
        orderId,
        description: 'x',
        customer: CUSTOMER,
      });
      assert.equal(res.status, 400, `${orderId}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.field, 'orderId');
      assert.ok(!JSON.stringify(res.body).includes(orderId.replace('ord-', '')));
    }
    // A numeric id that fails Luhn (or is shorter than a card number) is taken.
    let numeric = String(Date.now());
    if (luhnValid(numeric))
      numeric = `${numeric.slice(0, -1)}${(Number(numeric.slice(-1)) + 1) % 10}`;
    await createSession(be.url, { orderId: numeric });
    await createSession(be.url, { orderId: String(Date.now() % 1e11) });
  });

  it('an unknown key that is a card-like number of any brand is never echoed in the 400', async () => {
    for (const key of ['400000100000', '1234000000000006', '9000 0000 0000 0001']) {
      const res = await merchant(be.url, 'POST', '/v1/checkout-sessions', {
        amount: '1.00',
        currency: 'EUR',
        orderId: `ord-${Date.now()}`,
        description: 'x',
        customer: CUSTOMER,
        [key]: 'x',
      });
      assert.equal(res.status, 400);
      assert.equal(res.body.error.field, 'body');
      assert.ok(!JSON.stringify(res.body).includes(key), JSON.stringify(res.body));
    }
    const named = await merchant(be.url, 'POST', '/v1/checkout-sessions', {
      amount: '1.00',
      currency: 'EUR',
      orderId: `ord-${Date.now()}`,
      description: 'x',
      customer: CUSTOMER,
      colour: 'x',
    });
    assert.equal(named.body.error.field, 'colour');
  });

  it('past its expiry: the sweeper expires session and order once; a read does not wait for it', async () => {
    const swept = await createSession(be.url);
    const read = await createSession(be.url);
    await pastExpiry(swept.id);
    await pastExpiry(read.id);
    // Read first: the order tells the truth before any sweep.
    const order = await merchant(be.url, 'GET', `/v1/orders/${read.orderId}`);
    assert.equal(order.body.status, 'expired');
    assert.ok((await be.checkout.expireSessions()) >= 1);
    assert.equal(await be.checkout.expireSessions(), 0);
    const session = await merchant(be.url, 'GET', `/v1/checkout-sessions/${swept.id}`);
    assert.equal(session.body.state, 'expired');
    assert.equal(session.body.order.status, 'expired');
    assert.deepEqual(await webhooksOf(swept.orderId), [['order.expired', 'expired']]);
    assert.deepEqual(await webhooksOf(read.orderId), [['order.expired', 'expired']]);
  });

  it('a shopper paying past the expiry is refused with 410 and the order expires once', async () => {
    const session = await createSession(be.url);
    await pastExpiry(session.id);
    const shopper = new Shopper(be.url, session.token);
    const pay = await shopper.call('POST', '/pay', shopper.payBody(APPROVED));
    assert.equal(pay.status, 410);
    assert.equal(
      (await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`)).body.status,
      'expired',
    );
    assert.deepEqual(await webhooksOf(session.orderId), [['order.expired', 'expired']]);
  });
});

describe('a keyed session creation keeps no widget token at rest', () => {
  let sb: Sandbox;
  let be: Backend;
  before(async () => {
    sb = await startSandbox();
    be = await startBackend(sb);
  });
  after(async () => {
    await be.close();
    await sb.close();
  });

  it('the key keeps the answer without its token, and a replay signs one that works', async () => {
    const key = `key-${Date.now()}`;
    const body = {
      amount: '10.00',
      currency: 'EUR',
      orderId: `tok-${Date.now()}`,
      description: 'Token at rest',
      customer: CUSTOMER,
    };
    const first = await merchant(be.url, 'POST', '/v1/checkout-sessions', body, {
      'Idempotency-Key': key,
    });
    assert.equal(first.status, 201);
    const { rows } = await be.store.db.query<{ body: string }>(
      'select response_body::text as body from idempotency_keys where key = $1',
      [key],
    );
    assert.equal(rows.length, 1);
    assert.ok(!rows[0]?.body.includes(first.body.token), 'the token is not stored');
    assert.ok(!rows[0]?.body.includes('"token"'));
    const again = await merchant(be.url, 'POST', '/v1/checkout-sessions', body, {
      'Idempotency-Key': key,
    });
    assert.equal(again.status, 201);
    assert.equal(again.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(
      [again.body.id, again.body.orderId, again.body.expiresAt],
      [first.body.id, first.body.orderId, first.body.expiresAt],
    );
    const view = await new Shopper(be.url, again.body.token).call('GET', '/session');
    assert.equal(view.status, 200);
    assert.equal(view.body.id, first.body.id);
  });
});
