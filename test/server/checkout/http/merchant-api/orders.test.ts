/**
 * Merchant API: sessions, orders, capture / void / return against the order's state, the
 * Idempotency-Key, validation and authentication, and the OpenAPI document.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Backend, withSandboxAndBackend } from '../../../../support/loopback-stack.js';
import {
  CUSTOMER,
  createSession,
  merchant,
  Shopper,
  uniqueOrderId,
} from '../../../../support/widget-api-client.js';

const APPROVED = { pan: '4000000000000002' };

describe('merchant API: orders and money operations', () => {
  let be: Backend;
  withSandboxAndBackend((started) => {
    ({ be } = started);
  });

  async function paidOrder(intent: 'sale' | 'preauth', amount = '10.42') {
    const session = await createSession(be.url, { intent, amount });
    const final = await new Shopper(be.url, session.token).complete(APPROVED);
    assert.equal(final.order.status, 'approved');
    return session.orderId;
  }

  it('refuses a missing or wrong API key with 401', async () => {
    const none = await fetch(`${be.url}/v1/orders`);
    assert.equal(none.status, 401);
    const wrong = await merchant(be.url, 'GET', '/v1/orders', undefined, {
      Authorization: 'Bearer nope',
    });
    assert.equal(wrong.status, 401);
    assert.equal(wrong.body.error.code, 'unauthorized');
  });

  it('validates session input and names the field', async () => {
    const res = await merchant(be.url, 'POST', '/v1/checkout-sessions', {
      amount: '10.421',
      currency: 'EUR',
      orderId: uniqueOrderId(),
      description: 'x',
      customer: CUSTOMER,
    });
    assert.equal(res.status, 400);
    assert.equal(res.body.error.code, 'validation');
    assert.equal(res.body.error.field, 'amount');
    const badEmail = await merchant(be.url, 'POST', '/v1/checkout-sessions', {
      amount: '1.00',
      currency: 'EUR',
      orderId: uniqueOrderId(),
      description: 'x',
      customer: { ...CUSTOMER, email: 'not-an-email' },
    });
    assert.equal(badEmail.status, 400);
    assert.equal(badEmail.body.error.field, 'customer.email');
    const malformed = await fetch(`${be.url}/v1/checkout-sessions`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${be.config.merchantApiKey}`,
        'Content-Type': 'application/json',
      },
      body: '{"amount":',
    });
    assert.equal(malformed.status, 400);
    assert.equal(((await malformed.json()) as { error: { field: string } }).error.field, 'body');
  });

  it('refuses a second session with the same orderId (409)', async () => {
    const session = await createSession(be.url);
    const again = await merchant(be.url, 'POST', '/v1/checkout-sessions', {
      amount: '1.00',
      currency: 'EUR',
      orderId: session.orderId,
      description: 'x',
      customer: CUSTOMER,
    });
    assert.equal(again.status, 409);
    assert.match(again.body.error.message, /already used/);
  });

  it('reads and lists orders with filters', async () => {
    const older = await paidOrder('sale');
    const orderId = await paidOrder('sale');
    const one = await merchant(be.url, 'GET', `/v1/orders/${orderId}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.orderId, orderId);
    assert.equal(one.body.status, 'approved');
    assert.equal(one.body.amount, '10.42');
    assert.equal(one.body.capturedAmount, '0.00');
    const list = await merchant(be.url, 'GET', '/v1/orders?status=approved&limit=1');
    assert.equal(list.status, 200);
    assert.equal(list.body.orders.length, 1);
    assert.equal(list.body.orders[0].orderId, orderId);
    assert.equal(typeof list.body.nextCursor, 'string');
    const page2 = await merchant(
      be.url,
      'GET',
      `/v1/orders?status=approved&limit=1&cursor=${list.body.nextCursor}`,
    );
    assert.equal(page2.body.orders[0].orderId, older);
    const bad = await merchant(be.url, 'GET', '/v1/orders?status=paid');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.field, 'status.0');
    const missing = await merchant(be.url, 'GET', '/v1/orders/no-such-order');
    assert.equal(missing.status, 404);
  });

  it('a tampered list cursor is a 400 naming cursor, never a 500 (orders and events)', async () => {
    // base64url of "-1", "1.5", 2^53 + 1, "1' or 1=1", "NaN", "\0", "Infinity", " 12", "012".
    const tampered = ['LTE', 'MS41', 'OTAwNzE5OTI1NDc0MDk5Mw', 'MScgb3IgMT0x', 'TmFO', 'AA'];
    tampered.push('SW5maW5pdHk', 'IDEy', 'MDEy');
    for (const list of ['/v1/orders', '/v1/events']) {
      for (const cursor of tampered) {
        const res = await merchant(be.url, 'GET', `${list}?cursor=${cursor}`);
        assert.equal(res.status, 400, `${list} ${cursor}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'validation');
        assert.equal(res.body.error.field, 'cursor');
      }
      // A cursor a list gives (base64url of "12") is still taken.
      assert.equal((await merchant(be.url, 'GET', `${list}?cursor=MTI`)).status, 200);
    }
  });

  it('captures a preauth in part, then refuses a second capture and a void', async () => {
    const orderId = await paidOrder('preauth');
    const capture = await merchant(be.url, 'POST', `/v1/orders/${orderId}/capture`, {
      amount: '4.00',
    });
    assert.equal(capture.status, 200, JSON.stringify(capture.body));
    assert.equal(capture.body.operation.kind, 'capture');
    assert.equal(capture.body.operation.status, 'approved');
    assert.equal(capture.body.operation.amount, '4.00');
    assert.equal(capture.body.order.capturedAmount, '4.00');
    const again = await merchant(be.url, 'POST', `/v1/orders/${orderId}/capture`, {});
    assert.equal(again.status, 409);
    assert.equal(again.body.error.message, 'This preauth was already captured');
    const voided = await merchant(be.url, 'POST', `/v1/orders/${orderId}/void`, {});
    assert.equal(voided.status, 409);
    assert.equal(
      voided.body.error.message,
      'This preauth was captured; return it instead of voiding',
    );
    const refund = await merchant(be.url, 'POST', `/v1/orders/${orderId}/return`, {
      amount: '1.50',
    });
    assert.equal(refund.status, 200, JSON.stringify(refund.body));
    assert.equal(refund.body.order.returnedAmount, '1.50');
    const tooMuch = await merchant(be.url, 'POST', `/v1/orders/${orderId}/return`, {
      amount: '3.00',
    });
    assert.equal(tooMuch.status, 409);
    assert.equal(
      tooMuch.body.error.message,
      'The return amount exceeds what remains settled (2.50)',
    );
  });

  it("lists every event of an order by its id: its captures' and returns' too", async () => {
    const orderId = await paidOrder('preauth');
    const capture = await merchant(be.url, 'POST', `/v1/orders/${orderId}/capture`, {
      amount: '6.00',
    });
    assert.equal(capture.status, 200, JSON.stringify(capture.body));
    const refund = await merchant(be.url, 'POST', `/v1/orders/${orderId}/return`, {
      amount: '2.50',
    });
    assert.equal(refund.status, 200, JSON.stringify(refund.body));
    const listed = await merchant(be.url, 'GET', `/v1/events?orderId=${orderId}`);
    assert.equal(listed.status, 200);
    const events = listed.body.events as { type: string; data: Record<string, unknown> }[];
    assert.deepEqual(events.map((e) => e.type).sort(), [
      'capture.approved',
      'order.approved',
      'return.approved',
    ]);
    const capturedEvent = events.find((e) => e.type === 'capture.approved');
    assert.equal(capturedEvent?.data.orderId, orderId);
    assert.equal(capturedEvent?.data.operationId, capture.body.operation.id);
    assert.equal(capturedEvent?.data.kind, 'capture');
    // By type too: only this order's return.
    const returns = await merchant(
      be.url,
      'GET',
      `/v1/events?orderId=${orderId}&type=return.approved`,
    );
    assert.deepEqual(
      returns.body.events.map((e: { data: { operationId: string } }) => e.data.operationId),
      [refund.body.operation.id],
    );
  });

  it('voids an uncaptured preauth; a sale cannot be captured or voided', async () => {
    const preauth = await paidOrder('preauth');
    const voided = await merchant(be.url, 'POST', `/v1/orders/${preauth}/void`, {});
    assert.equal(voided.status, 200, JSON.stringify(voided.body));
    assert.equal(voided.body.order.voided, true);
    const capture = await merchant(be.url, 'POST', `/v1/orders/${preauth}/capture`, {});
    assert.equal(capture.status, 409);
    const sale = await paidOrder('sale');
    const c2 = await merchant(be.url, 'POST', `/v1/orders/${sale}/capture`, {});
    assert.equal(c2.status, 409);
    assert.equal(c2.body.error.message, 'Only a preauth can be captured; this order is a sale');
    const v2 = await merchant(be.url, 'POST', `/v1/orders/${sale}/void`, {});
    assert.equal(v2.status, 409);
  });

  it('returns a sale in full; a declined order cannot be returned', async () => {
    const sale = await paidOrder('sale');
    const refund = await merchant(be.url, 'POST', `/v1/orders/${sale}/return`, {});
    assert.equal(refund.status, 200);
    assert.equal(refund.body.order.returnedAmount, '10.42');
    const session = await createSession(be.url);
    const final = await new Shopper(be.url, session.token).complete({ pan: '4000000000000010' });
    assert.equal(final.order.status, 'declined');
    const res = await merchant(be.url, 'POST', `/v1/orders/${session.orderId}/return`, {});
    assert.equal(res.status, 409);
    assert.match(res.body.error.message, /is declined; only an approved order can be returned/);
  });

  it('Idempotency-Key: a repeat gets the first answer and moves no money twice', async () => {
    const sale = await paidOrder('sale');
    const key = `key-${uniqueOrderId()}`;
    const first = await merchant(
      be.url,
      'POST',
      `/v1/orders/${sale}/return`,
      { amount: '2.00' },
      { 'Idempotency-Key': key },
    );
    assert.equal(first.status, 200);
    const second = await merchant(
      be.url,
      'POST',
      `/v1/orders/${sale}/return`,
      { amount: '2.00' },
      { 'Idempotency-Key': key },
    );
    assert.equal(second.status, 200);
    assert.equal(second.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(second.body, first.body);
    const order = await merchant(be.url, 'GET', `/v1/orders/${sale}`);
    assert.equal(order.body.returnedAmount, '2.00');
    const mismatch = await merchant(
      be.url,
      'POST',
      `/v1/orders/${sale}/return`,
      { amount: '3.00' },
      { 'Idempotency-Key': key },
    );
    assert.equal(mismatch.status, 422);
    assert.equal(mismatch.body.error.code, 'idempotency-conflict');
    const sessionKey = `key-${uniqueOrderId()}`;
    const body = {
      amount: '5.00',
      currency: 'EUR',
      orderId: uniqueOrderId(),
      description: 'x',
      customer: CUSTOMER,
    };
    const s1 = await merchant(be.url, 'POST', '/v1/checkout-sessions', body, {
      'Idempotency-Key': sessionKey,
    });
    const s2 = await merchant(be.url, 'POST', '/v1/checkout-sessions', body, {
      'Idempotency-Key': sessionKey,
    });
    assert.equal(s1.status, 201);
    assert.equal(s2.status, 201);
    assert.equal(s2.body.id, s1.body.id);
  });

  it('serves an OpenAPI 3.1 document generated from the validating schemas', async () => {
    const res = await fetch(`${be.url}/v1/openapi.json`);
    assert.equal(res.status, 200);
    type Schema = { properties: Record<string, unknown>; required: string[]; $ref?: string };
    const doc = (await res.json()) as {
      openapi: string;
      components: { schemas: Record<string, Schema> };
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: {
              content: Record<string, { schema: Schema }>;
            };
            responses: Record<string, { description: string }>;
          }
        >
      >;
    };
    assert.equal(doc.openapi, '3.1.0');
    // A named schema is written once under components.schemas.
    const resolved = (schema: Schema | undefined) =>
      schema?.$ref
        ? doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')]
        : schema;
    const create = doc.paths['/v1/checkout-sessions']?.post;
    const schema = resolved(create?.requestBody?.content['application/json']?.schema);
    assert.ok(schema);
    assert.deepEqual(Object.keys(schema.properties).sort(), [
      'amount',
      'collect',
      'countryHint',
      'currency',
      'customer',
      'description',
      'expiresInMinutes',
      'intent',
      'maxAttempts',
      'metadata',
      'modes',
      'orderId',
      'returnUrl',
      'saveCard',
      'savedCardCvc',
      'savedCards',
    ]);
    assert.deepEqual(schema.properties.modes, {
      type: 'array',
      items: { type: 'string', enum: ['direct', 'hosted'] },
      minItems: 1,
      maxItems: 2,
      uniqueItems: true,
      default: ['direct', 'hosted'],
      description: (schema.properties.modes as { description: string }).description,
    });
    // Only an amount and what names the order: the element asks the shopper for the rest (issue 35).
    assert.deepEqual([...schema.required].sort(), ['amount', 'currency', 'description', 'orderId']);
    for (const path of [
      '/v1/orders/{orderId}/capture',
      '/v1/orders/{orderId}/void',
      '/v1/orders/{orderId}/return',
      '/v1/orders',
    ]) {
      assert.ok(doc.paths[path], path);
    }
    // The session routes, and the order statuses from the session's first moment.
    const sessionPaths = doc.paths as unknown as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(sessionPaths['/v1/checkout-sessions/{sessionId}'] ?? {}), ['get']);
    assert.deepEqual(Object.keys(sessionPaths['/v1/checkout-sessions/{sessionId}/expire'] ?? {}), [
      'post',
    ]);
    // Every route that takes an orderId declares the 409 of a taken one: the one namespace of
    // sessions, attempts and operations, or (never sent to the gateway) recurring payments' own.
    // A payment link's `orderId` is a prefix that claims nothing: a visit skips a taken number.
    const conflicts = new Map<string, string | undefined>();
    for (const [path, methods] of Object.entries(doc.paths)) {
      if (path === '/v1/payment-links') continue;
      const body = resolved(methods.post?.requestBody?.content['application/json']?.schema);
      if (body?.properties.orderId)
        conflicts.set(path, methods.post?.responses['409']?.description);
    }
    assert.deepEqual([...conflicts.keys()].sort(), [
      '/v1/account-verifications',
      '/v1/checkout-sessions',
      '/v1/hosted-forms',
      '/v1/payouts',
      '/v1/payouts/check',
      '/v1/rebills',
      '/v1/recurring-payments',
      '/v1/transfers',
    ]);
    for (const [path, conflict] of conflicts) {
      const holder =
        path === '/v1/recurring-payments'
          ? /another recurring payment/
          : /a checkout session, a payment attempt or a merchant operation holds it/;
      assert.match(conflict ?? '', /^orderId already used/, path);
      assert.match(conflict ?? '', holder, path);
    }
    // The pay step of a checked payout claims nothing: its 409 is the payout's state.
    assert.doesNotMatch(
      doc.paths['/v1/payouts/{payoutId}/pay']?.post?.responses['409']?.description ?? '',
      /orderId/,
    );
    const text = JSON.stringify(doc);
    assert.match(
      text,
      /"enum":\["awaiting-payment","expired","new","processing","unknown","approved","declined","error","filtered"\]/,
    );
  });
});
