/**
 * Control characters in what a client sends, by hand: PostgreSQL stores no NUL, so a session
 * whose description held one was a 500 after the request had been accepted. Each is now a 400
 * naming the field, before anything is stored or sent to the gateway; tab and line breaks are
 * still text.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  CHECKOUT_TABLES,
  CUSTOMER,
  card,
  createSession,
  MERCHANT_ORIGIN,
  merchant,
  type Pair,
  payBody,
  SANDBOX_TABLES,
  Shopper,
  snapshotTables,
  startPair,
  uniqueOrderId,
} from './support/proof.js';

describe('control characters in what a client sends', () => {
  let pair: Pair;
  before(async () => {
    pair = await startPair();
  });
  after(async () => {
    await pair.close();
  });

  async function everything() {
    await pair.sb.sandbox.idle();
    return {
      checkout: await snapshotTables(pair.db, CHECKOUT_TABLES),
      sandbox: await snapshotTables(pair.db, SANDBOX_TABLES),
    };
  }

  const session = (overrides: Record<string, unknown>) => ({
    amount: '1.00',
    currency: 'EUR',
    orderId: uniqueOrderId(),
    description: 'Two books',
    customer: CUSTOMER,
    ...overrides,
  });

  it('merchant API: a NUL, another C0 control or DEL in any string is a 400 naming it; nothing changes', async () => {
    const cases: [string, unknown, string][] = [
      ['/v1/checkout-sessions', session({ description: 'Two\u0000books' }), 'description'],
      ['/v1/checkout-sessions', session({ metadata: { cart: 'c\u0001' } }), 'metadata.cart'],
      [
        '/v1/checkout-sessions',
        session({ metadata: { 'ca\u0000rt': 'c' } }),
        'metadata.ca\u0000rt',
      ],
      [
        '/v1/checkout-sessions',
        session({ customer: { ...CUSTOMER, city: 'London\u007f' } }),
        'customer.city',
      ],
      [
        '/v1/rebills',
        {
          orderId: uniqueOrderId(),
          cardRefId: 'ref-1',
          amount: '1.00',
          currency: 'EUR',
          description: '\u0000',
        },
        'description',
      ],
      [
        '/v1/payouts',
        {
          orderId: uniqueOrderId(),
          amount: '1.00',
          currency: 'EUR',
          card: { number: '4000000000000002', holder: 'Jo\u001bSmith' },
        },
        'card.holder',
      ],
      ['/v1/operations/op-1/resolve', { status: 'declined', note: 'checked\u0000' }, 'note'],
    ];
    const before = await everything();
    for (const [path, body, field] of cases) {
      const res = await merchant(pair.be.url, 'POST', path, body);
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'validation');
      assert.equal(res.body.error.field, field);
      assert.match(
        res.body.error.message,
        new RegExp(
          `^${field}: must (not hold control characters|be one line, without control characters)$`,
        ),
      );
    }
    assert.deepEqual(await everything(), before);
  });

  it('a name or an address line is one line: the gateway takes no line break there, so neither do we', async () => {
    const before = await everything();
    for (const [body, field] of [
      [session({ customer: { ...CUSTOMER, firstName: 'Ann\nMarie' } }), 'customer.firstName'],
      [
        session({ customer: { ...CUSTOMER, address1: '1 Main St\r\nFlat 2' } }),
        'customer.address1',
      ],
      [session({ customer: { ...CUSTOMER, city: 'Lon\tdon' } }), 'customer.city'],
    ] as const) {
      const res = await merchant(pair.be.url, 'POST', '/v1/checkout-sessions', body);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.field, field);
      assert.equal(
        res.body.error.message,
        `${field}: must be one line, without control characters`,
      );
    }
    assert.deepEqual(await everything(), before);
  });

  it('a resolve note holding a card number, however grouped, is refused', async () => {
    for (const note of [
      'Ann saw 4000 0000 0000 0002',
      'Ann saw 4000.0000.0000.0002',
      'Ann saw 4000\n0000\n0000\n0002',
      'Ann saw 4000/0000/0000/0002',
    ]) {
      const res = await merchant(pair.be.url, 'POST', '/v1/operations/op-1/resolve', {
        status: 'declined',
        note,
      });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.message, 'note: must not hold a card number');
    }
    // Other numbers are fine: an order id, a date, an amount (it reaches the 404 of op-1).
    const plain = await merchant(pair.be.url, 'POST', '/v1/operations/op-1/resolve', {
      status: 'declined',
      note: 'Order 100234, 2026-11-25, 12.00 EUR: no return in the back office',
    });
    assert.equal(plain.status, 404, JSON.stringify(plain.body));
  });

  it('widget API: a NUL or a line break in the holder name is a 400 naming card.holder; the session still pays', async () => {
    const { token, orderId } = await createSession(pair.be.url);
    const pay = (holder: string) =>
      fetch(`${pair.be.url}/widget/pay`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          Origin: MERCHANT_ORIGIN,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify(payBody(card('approved').pan, { holder })),
      });
    const before = await everything();
    for (const holder of ['John\u0000Smith', 'John\nSmith']) {
      const refused = await pay(holder);
      assert.equal(refused.status, 400);
      assert.deepEqual((await refused.json()).error.field, 'card.holder');
    }
    assert.deepEqual(await everything(), before);
    const paid = await pay('John Smith');
    assert.equal(paid.status, 200, await paid.clone().text());
    await paid.body?.cancel();
    const order = await merchant(pair.be.url, 'GET', `/v1/orders/${orderId}`);
    assert.notEqual(order.body.status, 'awaiting-payment');
  });

  it('tab and line breaks are text: a description with them is kept as sent, and paid', async () => {
    const description = 'Two books\n\tand a pen\r\nand ink';
    const res = await merchant(
      pair.be.url,
      'POST',
      '/v1/checkout-sessions',
      session({ description }),
    );
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const read = await merchant(pair.be.url, 'GET', `/v1/checkout-sessions/${res.body.id}`);
    assert.equal(read.body.description, description);
    // The gateway takes it as order_desc (64k of text): the shopper can pay.
    const final = await new Shopper(pair.be.url, res.body.token).complete(card('approved'));
    assert.equal(final.order.status, 'approved', JSON.stringify(final.order));
  });
});
