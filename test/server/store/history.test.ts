import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CheckoutStore } from '../../../server/src/store/index.js';
import { engines } from './engines.js';

const PAN = '4111111111111111';
const CVV = '7319';

for (const engine of engines()) {
  describe(`gateway history on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    test('record stores a sanitised request and response, exactly', async () => {
      const order = await store.orders.create({
        clientOrderId: 'hist-1',
        intent: 'sale',
        amountMinor: 1000,
        currency: 'EUR',
      });
      await store.history.record({
        orderId: order.id,
        operation: 'SALE',
        request: new URLSearchParams({
          client_orderid: 'hist-1',
          amount: '10.00',
          currency: 'EUR',
          credit_card_number: PAN,
          cvv2: CVV,
          expire_month: '12',
          expire_year: '2031',
          card_printed_name: 'JANE SHOPPER',
          control: 'a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
          oauth_signature: 'sig==',
          merchant_control_key: 'the-key',
          api_secret: 's',
          order_desc: `paid with ${PAN}`,
        }),
        response: {
          type: 'async-response',
          'paynet-order-id': '902133',
          'merchant-order-id': 'hist-1',
          'card-number': PAN,
          nested: { cvv2: CVV, ok: true },
        },
        httpStatus: 200,
        durationMs: 12.6,
        requestId: 'req-1',
      });
      const [entry, ...more] = await store.history.forOrder(order.id);
      assert.ok(entry);
      assert.equal(more.length, 0);
      assert.deepEqual(entry.request, {
        client_orderid: 'hist-1',
        amount: '10.00',
        currency: 'EUR',
        order_desc: 'paid with 411111******1111',
      });
      assert.deepEqual(entry.response, {
        type: 'async-response',
        'paynet-order-id': '902133',
        'merchant-order-id': 'hist-1',
        nested: { ok: true },
      });
      assert.equal(entry.httpStatus, 200);
      assert.equal(entry.durationMs, 13);
      assert.equal(entry.requestId, 'req-1');
      assert.equal(entry.operation, 'SALE');
      assert.equal(entry.orderId, order.id);
    });

    test('record stores a transport error without a response', async () => {
      await store.history.record({
        operation: 'STATUS',
        operationId: 'op-1',
        request: { login: 'merchant', orderid: '77' },
        error: 'ETIMEDOUT',
        durationMs: 30000,
      });
      const [entry, ...more] = await store.history.forOperation('op-1');
      assert.ok(entry);
      assert.equal(more.length, 0);
      assert.equal(entry.response, null);
      assert.equal(entry.httpStatus, null);
      assert.equal(entry.orderId, null);
      assert.equal(entry.error, 'ETIMEDOUT');
      assert.deepEqual(entry.request, { login: 'merchant', orderid: '77' });
      assert.equal(entry.durationMs, 30000);
    });

    test('record masks a card number quoted in the error text', async () => {
      await store.history.record({
        operation: 'SALE',
        operationId: 'op-mask',
        request: { orderid: '78' },
        error: 'gateway-validation: card_4000000000000002 is blocked',
      });
      const [entry] = await store.history.forOperation('op-mask');
      assert.equal(entry?.error, 'gateway-validation: card_400000******0002 is blocked');
    });

    test('history is append-only: updates and deletes are refused by the database', async () => {
      await store.history.record({
        operation: 'STATUS',
        operationId: 'op-append-only',
        request: { orderid: '1' },
      });
      const [entry] = await store.history.forOperation('op-append-only');
      assert.ok(entry);
      await assert.rejects(
        store.db.query(`update gateway_history set operation = 'X' where id = $1`, [entry.id]),
        /append-only/,
      );
      await assert.rejects(
        store.db.query('delete from gateway_history where id = $1', [entry.id]),
        /append-only/,
      );
    });
  });
}
