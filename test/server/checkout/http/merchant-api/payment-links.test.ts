/**
 * The merchant API of payment links: creation with defaults and a QR code of the URL, 400s naming
 * the field, a guessed id's 404, the cursor list, deactivation, and expiry with exactly one
 * `payment_link.expired` event (the sweeper or the first read after it, whoever comes first).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Backend,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../../../support/loopback-stack.js';
import { CUSTOMER, merchant } from '../../../../support/widget-api-client.js';

/** A link knows only an amount: the element asks the shopper for the rest. */
const LINK = { amount: '25.00', currency: 'EUR', description: 'Invoice 2026-114' };

describe('merchant API: payment links', () => {
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

  const eventsOf = async (linkId: string) => {
    const { rows } = await be.store.db.query<{ event: string }>(
      `select event from merchant_webhooks where payload->'data'->'paymentLink'->>'id' = $1
       order by seq`,
      [linkId],
    );
    return rows.map((r) => r.event);
  };

  it('creates a one-off link: its URL, active, 7 days, a random order id prefix and an SVG QR code of the URL', async () => {
    const before = Date.now();
    const res = await merchant(be.url, 'POST', '/v1/payment-links', LINK);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const { qrCode, createdAt, updatedAt, expiresAt, id, orderIdPrefix, ...rest } = res.body;
    assert.match(id, /^plink_[A-Za-z0-9_-]{22}$/);
    assert.match(orderIdPrefix, /^pl-[a-z]{12}$/);
    assert.deepEqual(rest, {
      url: `${be.url}/pay/${id}`,
      livemode: true,
      state: 'active',
      amount: '25.00',
      currency: 'EUR',
      intent: 'sale',
      description: 'Invoice 2026-114',
      customer: {},
      collect: { email: 'auto', phone: 'auto', billingAddress: 'auto' },
      countryHint: null,
      locale: null,
      returnUrl: null,
      metadata: {},
      reusable: false,
      maxPayments: 1,
      paymentCount: 0,
      payments: [],
    });
    const days = (Date.parse(expiresAt) - before) / 86_400_000;
    assert.ok(days > 6.99 && days < 7.01, `expires in ${days} days`);
    assert.match(qrCode, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    assert.match(qrCode, /<path/);
    const read = await merchant(be.url, 'GET', `/v1/payment-links/${id}`);
    assert.equal(read.status, 200);
    assert.equal(read.body.qrCode, qrCode);
    assert.equal(read.body.state, 'active');
  });

  it('keeps what a session takes of the customer, and passes it on', async () => {
    const res = await merchant(be.url, 'POST', '/v1/payment-links', {
      ...LINK,
      customer: CUSTOMER,
      collect: { email: 'never', phone: 'never', billingAddress: 'always' },
      countryHint: 'GB',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual(res.body.customer, CUSTOMER);
    assert.deepEqual(res.body.collect, {
      email: 'never',
      phone: 'never',
      billingAddress: 'always',
    });
    assert.equal(res.body.countryHint, 'GB');
  });

  it('answers a replay of its Idempotency-Key with the same link, and makes no second one', async () => {
    const key = `link-${Date.now()}`;
    const first = await merchant(be.url, 'POST', '/v1/payment-links', LINK, {
      'Idempotency-Key': key,
    });
    const again = await merchant(be.url, 'POST', '/v1/payment-links', LINK, {
      'Idempotency-Key': key,
    });
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.equal(again.body.id, first.body.id);
  });

  it('refuses bad input with a 400 naming the field', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...LINK, amount: '0.00' }, 'amount'],
      [{ ...LINK, amount: '1.234' }, 'amount'],
      [{ ...LINK, currency: 'XXQ' }, 'currency'],
      [{ ...LINK, description: '' }, 'description'],
      [{ ...LINK, maxPayments: 2 }, 'maxPayments'],
      [{ ...LINK, reusable: true, maxPayments: 0 }, 'maxPayments'],
      [{ ...LINK, expiresAt: new Date(Date.now() - 1000).toISOString() }, 'expiresAt'],
      [{ ...LINK, expiresAt: new Date(Date.now() + 91 * 86_400_000).toISOString() }, 'expiresAt'],
      [{ ...LINK, expiresAt: 'next week' }, 'expiresAt'],
      [{ ...LINK, locale: 'xx' }, 'locale'],
      [{ ...LINK, orderId: '4111111111111111' }, 'orderId'],
      [{ ...LINK, orderId: 'a b' }, 'orderId'],
      [{ ...LINK, returnUrl: 'javascript:alert(1)' }, 'returnUrl'],
      [{ ...LINK, color: 'red' }, 'color'],
      [{ ...LINK, collect: { email: 'sometimes' } }, 'collect.email'],
      [{ ...LINK, collect: { phone: 'never' } }, 'customer.phone'],
      [{ ...LINK, countryHint: 'gb' }, 'countryHint'],
    ];
    for (const [body, field] of cases) {
      const res = await merchant(be.url, 'POST', '/v1/payment-links', body);
      assert.equal(res.status, 400, `${field}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.field, field, JSON.stringify(res.body));
    }
  });

  it('a guessed or malformed id is a 404 that names no other link', async () => {
    for (const id of ['plink_AAAAAAAAAAAAAAAAAAAAAA', 'nope', '1']) {
      const res = await merchant(be.url, 'GET', `/v1/payment-links/${id}`);
      assert.equal(res.status, 404);
      assert.equal(res.body.error.code, 'not-found');
      const off = await merchant(be.url, 'POST', `/v1/payment-links/${id}/deactivate`, {});
      assert.equal(off.status, 404);
    }
  });

  it('lists links newest first by a cursor, with no QR code', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await merchant(be.url, 'POST', '/v1/payment-links', {
        ...LINK,
        orderId: `inv-${i}-${Date.now().toString(36)}`,
      });
      made.push(res.body.id);
    }
    const first = await merchant(be.url, 'GET', '/v1/payment-links?limit=2');
    assert.equal(first.status, 200);
    assert.deepEqual(
      first.body.paymentLinks.map((l: { id: string }) => l.id),
      [made[2], made[1]],
    );
    assert.equal(first.body.paymentLinks[0].qrCode, undefined);
    const next = await merchant(
      be.url,
      'GET',
      `/v1/payment-links?limit=2&cursor=${first.body.nextCursor}`,
    );
    assert.equal(next.body.paymentLinks[0].id, made[0]);
    const bad = await merchant(be.url, 'GET', '/v1/payment-links?cursor=zz!');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.field, 'cursor');
  });

  it('deactivates an active link once; a deactivated link stays so', async () => {
    const { body } = await merchant(be.url, 'POST', '/v1/payment-links', LINK);
    const off = await merchant(be.url, 'POST', `/v1/payment-links/${body.id}/deactivate`, {});
    assert.equal(off.status, 200);
    assert.equal(off.body.state, 'deactivated');
    const again = await merchant(be.url, 'POST', `/v1/payment-links/${body.id}/deactivate`, {});
    assert.equal(again.body.state, 'deactivated');
    assert.deepEqual(await eventsOf(body.id), []);
  });

  it('expires at its expiry: the first read or the sweeper, with one payment_link.expired', async () => {
    const a = (await merchant(be.url, 'POST', '/v1/payment-links', LINK)).body;
    const b = (await merchant(be.url, 'POST', '/v1/payment-links', LINK)).body;
    await be.store.db.query(
      "update payment_links set expires_at = now() - interval '1 second' where id = any($1)",
      [[a.id, b.id]],
    );
    const read = await merchant(be.url, 'GET', `/v1/payment-links/${a.id}`);
    assert.equal(read.body.state, 'expired');
    assert.ok((await be.checkout.sweepPaymentLinks()) >= 1);
    assert.equal(
      (await merchant(be.url, 'GET', `/v1/payment-links/${b.id}`)).body.state,
      'expired',
    );
    await be.checkout.sweepPaymentLinks();
    assert.deepEqual(await eventsOf(a.id), ['payment_link.expired']);
    assert.deepEqual(await eventsOf(b.id), ['payment_link.expired']);
    // Deactivating an expired link answers it as it is.
    const off = await merchant(be.url, 'POST', `/v1/payment-links/${a.id}/deactivate`, {});
    assert.equal(off.body.state, 'expired');
  });

  it('is in the OpenAPI document', async () => {
    const res = await fetch(`${be.url}/v1/openapi.json`);
    const doc = (await res.json()) as { paths: Record<string, Record<string, unknown>> };
    assert.ok(doc.paths['/v1/payment-links']?.post);
    assert.ok(doc.paths['/v1/payment-links']?.get);
    assert.ok(doc.paths['/v1/payment-links/{paymentLinkId}']?.get);
    assert.ok(doc.paths['/v1/payment-links/{paymentLinkId}/deactivate']?.post);
  });
});
