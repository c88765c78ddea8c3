import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CheckoutStore, NewCheckoutSession } from '../../../server/src/store/index.js';
import { engines } from './engines.js';

let counter = 0;
function newSession(overrides: Partial<NewCheckoutSession> = {}): NewCheckoutSession {
  counter += 1;
  return {
    clientOrderId: `session-order-${process.pid}-${counter}`,
    amountMinor: 2599,
    currency: 'GBP',
    intent: 'preauth',
    description: 'Two tickets',
    customer: { email: 'shopper@example.com', country: 'GB' },
    returnUrl: 'https://shop.example/done',
    metadata: { cart: 'c-1', tags: ['a', 'b'] },
    expiresAt: new Date(Date.now() + 15 * 60_000),
    ...overrides,
  };
}

for (const engine of engines()) {
  describe(`sessions on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    test('create stores exact values, jsonb round-trips (arrays included)', async () => {
      const input = newSession();
      const session = await store.sessions.create(input);
      assert.equal(session.state, 'open');
      assert.equal(session.orderId, null);
      assert.equal(session.amountMinor, 2599);
      assert.equal(session.currency, 'GBP');
      assert.equal(session.intent, 'preauth');
      assert.equal(session.description, 'Two tickets');
      assert.deepEqual(session.customer, { email: 'shopper@example.com', country: 'GB' });
      assert.deepEqual(session.metadata, { cart: 'c-1', tags: ['a', 'b'] });
      assert.equal(session.returnUrl, 'https://shop.example/done');
      assert.equal(session.expiresAt.getTime(), input.expiresAt.getTime());
      assert.equal(session.version, 1);
      assert.deepEqual(await store.sessions.get(session.id), session);
      assert.deepEqual(await store.sessions.getByClientOrderId(input.clientOrderId), session);
      assert.equal(await store.sessions.get('nope'), null);
    });

    test('claimForPayment creates the order from the session, not from the caller', async () => {
      const session = await store.sessions.create(newSession());
      const claim = await store.sessions.claimForPayment(session.id, {
        merchantOrigin: 'https://shop.example',
        cardBrand: 'mastercard',
        cardLast4: '4444',
        cardMasked: '555555******4444',
      });
      assert.equal(claim.won, true);
      assert.equal(claim.session?.state, 'paying');
      assert.equal(claim.session?.orderId, claim.order?.id);
      assert.equal(claim.order?.status, 'new');
      assert.equal(claim.order?.clientOrderId, session.clientOrderId);
      assert.equal(claim.order?.sessionId, session.id);
      assert.equal(claim.order?.amountMinor, 2599);
      assert.equal(claim.order?.currency, 'GBP');
      assert.equal(claim.order?.intent, 'preauth');
      assert.equal(claim.order?.merchantOrigin, 'https://shop.example');
      assert.equal(claim.order?.cardMasked, '555555******4444');
    });

    test('a double submit: exactly one claim wins, the other gets the same order', async () => {
      for (let round = 0; round < 3; round++) {
        const session = await store.sessions.create(newSession());
        const claims = await Promise.all([
          store.sessions.claimForPayment(session.id),
          store.sessions.claimForPayment(session.id),
          store.sessions.claimForPayment(session.id),
        ]);
        const winners = claims.filter((c) => c.won);
        assert.equal(winners.length, 1);
        for (const c of claims.filter((c) => !c.won)) {
          assert.equal(c.won === false && c.reason, 'already-claimed');
          assert.deepEqual(c.order, winners[0]?.order);
        }
        const orders = await store.db.query<{ n: number }>(
          'select count(*)::int as n from orders where session_id = $1',
          [session.id],
        );
        assert.deepEqual(orders.rows, [{ n: 1 }]);
      }
    });

    test('an expired session is marked expired and takes no payment', async () => {
      const session = await store.sessions.create(
        newSession({ expiresAt: new Date(Date.now() - 1000) }),
      );
      const claim = await store.sessions.claimForPayment(session.id);
      assert.equal(claim.won, false);
      assert.equal(claim.won === false && claim.reason, 'expired');
      assert.equal(claim.session?.state, 'expired');
      assert.equal(claim.order, null);
      assert.equal((await store.sessions.get(session.id))?.state, 'expired');
      const missing = await store.sessions.claimForPayment('no-such-session');
      assert.deepEqual(missing, { won: false, reason: 'not-found', session: null, order: null });
    });

    test('a cancelled session is closed to payments', async () => {
      const session = await store.sessions.create(newSession());
      const cancelled = await store.sessions.transition(session.id, {
        from: ['open', 'paying'],
        to: 'cancelled',
      });
      assert.equal(cancelled.won, true);
      assert.equal(cancelled.session?.state, 'cancelled');
      const claim = await store.sessions.claimForPayment(session.id);
      assert.equal(claim.won === false && claim.reason, 'closed');
    });

    test('transition is compare-and-set: a refused one changes nothing', async () => {
      const session = await store.sessions.create(newSession());
      await store.sessions.claimForPayment(session.id);
      const done = await store.sessions.transition(session.id, {
        from: ['paying'],
        to: 'completed',
      });
      assert.equal(done.won, true);
      assert.equal(done.session?.version, 3);
      const refused = await store.sessions.transition(session.id, {
        from: ['open'],
        to: 'cancelled',
      });
      assert.equal(refused.won, false);
      assert.equal(refused.session?.state, 'completed');
      assert.equal(refused.session?.version, 3);
      const again = await store.sessions.claimForPayment(session.id);
      assert.equal(again.won === false && again.reason, 'already-claimed');
      assert.equal(again.order?.id, done.session?.orderId);
    });
  });
}
