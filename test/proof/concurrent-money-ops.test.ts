/**
 * Concurrent captures and returns on one order, as a merchant's retrying server (or two of its
 * workers) would send them: the backend serialises money movements per order, so only one at a
 * time reaches the gateway and their sum never exceeds what the order allows, whatever the
 * gateway itself would accept.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createSession,
  historyCount,
  merchant,
  type Pair,
  Shopper,
  sandboxTransactions,
  startPair,
  uniqueOrderId,
} from './support/proof.js';

describe('concurrent money operations on one order', () => {
  let pair: Pair;
  before(async () => {
    pair = await startPair();
  });
  after(async () => {
    await pair.close();
  });

  async function paidOrder(intent: 'sale' | 'preauth', amount: string) {
    const s = await createSession(pair.be.url, { amount, intent, orderId: uniqueOrderId(intent) });
    const final = await new Shopper(pair.be.url, s.token).complete({ pan: '4000000000000002' });
    assert.equal(final.order.status, 'approved');
    const order = await pair.store.orders.getByClientOrderId(s.orderId);
    assert.ok(order);
    return order;
  }

  it('three parallel captures of 8.00 on a 12.34 preauth: one reaches the gateway', async () => {
    const order = await paidOrder('preauth', '12.34');
    const answers = await Promise.all(
      [1, 2, 3].map(() =>
        merchant(pair.be.url, 'POST', `/v1/orders/${order.clientOrderId}/capture`, {
          amount: '8.00',
        }),
      ),
    );
    assert.deepEqual(answers.map((a) => a.status).sort(), [200, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) {
      assert.equal(refused.body.error.code, 'conflict');
    }
    assert.equal(await historyCount(pair.be, order.id, 'capture'), 1);
    const [tx] = await sandboxTransactions(pair.sb, order.clientOrderId);
    assert.deepEqual(
      tx?.operations.map((o) => [o.type, o.amountMinor, o.status]),
      [
        ['preauth', 1234, 'approved'],
        ['capture', 800, 'approved'],
      ],
    );
    assert.equal((await pair.store.orders.get(order.id))?.capturedMinor, 800);
  });

  it('parallel returns never refund more than the sale', async () => {
    const order = await paidOrder('sale', '10.42');
    const returned: number[] = [];
    for (let round = 0; round < 3; round++) {
      const answers = await Promise.all(
        [1, 2, 3].map(() =>
          merchant(pair.be.url, 'POST', `/v1/orders/${order.clientOrderId}/return`, {
            amount: '4.00',
          }),
        ),
      );
      for (const a of answers) {
        assert.ok(a.status === 200 || a.status === 409, `${a.status} ${JSON.stringify(a.body)}`);
      }
      returned.push(answers.filter((a) => a.status === 200).length);
    }
    const stored = await pair.store.orders.get(order.id);
    assert.ok(stored);
    assert.ok(stored.returnedMinor <= 1042);
    // Two 4.00 returns fit in 10.42, a third does not: exactly two reached the gateway.
    assert.equal(stored.returnedMinor, 800);
    assert.equal(await historyCount(pair.be, order.id, 'return'), 2);
    const [tx] = await sandboxTransactions(pair.sb, order.clientOrderId);
    assert.equal(tx?.operations.filter((o) => o.type === 'return').length, 2);
    assert.equal(
      returned.reduce((a, b) => a + b, 0),
      2,
    );
  });
});
