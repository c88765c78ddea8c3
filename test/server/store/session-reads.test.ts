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

    test('a change made after a read is in the next read, whichever way it was made', async () => {
      const session = await newSession();
      const first = await store.sessionReads.withOrder(session.id);
      assert.equal(first?.order?.status, 'awaiting-payment');
      assert.ok(first.order);
      // What a caller does to its answer is its own: the next answer is untouched.
      first.session.state = 'expired';
      first.order.amountMinor = 1;
      const again = await store.sessionReads.withOrder(session.id);
      assert.equal(again?.session.state, 'open');
      assert.equal(again?.order?.amountMinor, 1042);

      await store.sessions.claimForPayment(session.id, {
        merchantOrigin: 'https://shop.example',
        cardBrand: 'visa',
        cardLast4: '1111',
        cardMasked: '411111******1111',
        nextAction: { next: { action: 'wait', retryAfterMs: 1000 }, answered: [] },
      });
      assert.equal((await store.sessionReads.withOrder(session.id))?.session.state, 'paying');
      // Raw SQL, as an operator's fix would be, not through a repository.
      await store.db.query(`update orders set status = 'declined' where id = $1`, [
        session.orderId,
      ]);
      const after = await store.sessionReads.withOrder(session.id);
      assert.equal(after?.order?.status, 'declined');
      assert.deepEqual(after, await separately(session.id));
    });

    test('an unknown session is null', async () => {
      assert.equal(await store.sessionReads.withOrder('no-such-session'), null);
    });
  });
}
