import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CheckoutStore } from '../../../server/src/store/index.js';
import { engines } from './engines.js';

let counter = 0;

for (const engine of engines()) {
  describe(`a session and its order in one read, on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    const newSession = () => {
      counter += 1;
      return store.sessions.create({
        clientOrderId: `read-${process.pid}-${counter}`,
        amountMinor: 1042,
        currency: 'EUR',
        intent: 'sale',
        description: 'A lamp',
        customer: { email: 'shopper@example.com', tags: ['x'] },
        metadata: { cart: 'c-9' },
        expiresAt: new Date(Date.now() + 15 * 60_000 + 123),
      });
    };

    /** What the two repositories answer, read separately. */
    const separately = async (sessionId: string) => {
      const session = await store.sessions.get(sessionId);
      assert.ok(session?.orderId);
      return { session, order: await store.orders.get(session.orderId) };
    };

    test('answers exactly what sessions.get and orders.get answer, fresh from creation', async () => {
      const session = await newSession();
      const both = await store.sessionReads.withOrder(session.id);
      assert.deepEqual(both, await separately(session.id));
      assert.equal(both?.order?.status, 'awaiting-payment');
    });

    test('and once paid: card fields, the next action, a gateway id, versions', async () => {
      const session = await newSession();
      const claim = await store.sessions.claimForPayment(session.id, {
        merchantOrigin: 'https://shop.example',
        cardBrand: 'visa',
        cardLast4: '1111',
        cardMasked: '411111******1111',
        nextAction: { next: { action: 'wait', retryAfterMs: 1000 }, answered: [] },
      });
      assert.ok(claim.won && claim.order);
      await store.orders.transition(claim.order.id, {
        from: ['new'],
        to: 'processing',
        patch: { gatewayOrderId: '77001' },
      });
      const both = await store.sessionReads.withOrder(session.id);
      assert.deepEqual(both, await separately(session.id));
      assert.equal(both?.session.state, 'paying');
      assert.equal(both?.order?.gatewayOrderId, '77001');
      assert.equal(both?.order?.cardMasked, '411111******1111');
    });

    test('an unknown session is null', async () => {
      assert.equal(await store.sessionReads.withOrder('no-such-session'), null);
    });
  });
}
