/**
 * Card data the gateway echoes or a short card number never reaches the stored rows or the logs:
 * the expiry in the gateway's status answers is kept out of gateway_history, and a 12-digit number
 * is masked as 2 + 4 digits and found by the log scrubber. Against the in-process stack (sandbox
 * and backend on loopback HTTP), every answer of the gateway read as it came.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CHECKOUT_TABLES,
  card,
  createSession,
  payBody,
  Shopper,
  snapshotTables,
} from './support/proof.js';
import { usePair } from './support/use-pair.js';

/** Every answer body the backend read from the gateway, as it came. */
const gatewayAnswers: string[] = [];
const { pair, api } = usePair(
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

describe('card data', () => {
  /** Every stored row of the backend as text, and every log line, for the searches. */
  async function storedAndLogged() {
    const rows = await snapshotTables(pair.db, CHECKOUT_TABLES);
    return `${Object.values(rows).join('\n')}\n${pair.be.logs.join('')}`;
  }

  it('the expiry the gateway echoes in its status never reaches gateway_history', async () => {
    const session = await createSession(pair.be.url);
    const shopper = new Shopper(pair.be.url, session.token);
    const res = await shopper.call(
      'POST',
      '/pay',
      payBody(card('approved').pan, { expMonth: '11', expYear: '2037' }),
    );
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
    assert.equal(found, null, found ? everything.slice(found.index - 200, found.index + 200) : '');
  });

  it('a 12-digit card number is shown as 2 + 4 digits and is found by the log scrubber', async () => {
    const pan = '500000000009';
    const session = await createSession(pair.be.url);
    const shopper = new Shopper(pair.be.url, session.token);
    const res = await shopper.call('POST', '/pay', payBody(pan));
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
