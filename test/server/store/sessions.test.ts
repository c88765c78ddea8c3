import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type CheckoutStore,
  type NewCheckoutSession,
  UniqueViolationError,
} from '../../../server/src/store/index.js';
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

    test("create makes the session's order at once: awaiting-payment, with the session's fields", async () => {
      const input = newSession();
      const session = await store.sessions.create(input);
      assert.ok(session.orderId);
      const order = await store.orders.get(session.orderId);
      assert.ok(order);
      assert.deepEqual(
        {
          status: order.status,
          clientOrderId: order.clientOrderId,
          sessionId: order.sessionId,
          intent: order.intent,
          amountMinor: order.amountMinor,
          currency: order.currency,
          gatewayOrderId: order.gatewayOrderId,
          nextAction: order.nextAction,
          version: order.version,
        },
        {
          status: 'awaiting-payment',
          clientOrderId: input.clientOrderId,
          sessionId: session.id,
          intent: 'preauth',
          amountMinor: 2599,
          currency: 'GBP',
          gatewayOrderId: null,
          nextAction: null,
          version: 1,
        },
      );
      assert.deepEqual(await store.orders.getByClientOrderId(input.clientOrderId), order);
    });

    test('an order id taken by an order: the session is refused and nothing is left behind', async () => {
      const input = newSession();
      await store.orders.create({
        clientOrderId: input.clientOrderId,
        intent: 'sale',
        amountMinor: 100,
        currency: 'EUR',
      });
      await assert.rejects(store.sessions.create(input), UniqueViolationError);
      assert.equal(await store.sessions.getByClientOrderId(input.clientOrderId), null);
    });

    test('modes: both unless given; the column refuses none and unknown ones', async () => {
      assert.deepEqual((await store.sessions.create(newSession())).modes, ['direct', 'hosted']);
      const hosted = await store.sessions.create(newSession({ modes: ['hosted'] }));
      assert.deepEqual(hosted.modes, ['hosted']);
      assert.deepEqual((await store.sessions.get(hosted.id))?.modes, ['hosted']);
      for (const modes of [[], ['card']] as never[]) {
        await assert.rejects(store.sessions.create(newSession({ modes })), /check constraint/);
      }
    });

    test("claimForPayment starts the session's order with the session's fields, not the caller's", async () => {
      const session = await store.sessions.create(newSession());
      const claim = await store.sessions.claimForPayment(session.id, {
        merchantOrigin: 'https://shop.example',
        cardBrand: 'mastercard',
        cardLast4: '4444',
        cardMasked: '555555******4444',
      });
      assert.equal(claim.won, true);
      assert.equal(claim.session?.state, 'paying');
      assert.equal(claim.session?.orderId, session.orderId);
      assert.equal(claim.order?.id, session.orderId);
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

    test('a session from before orders came with sessions: the claim creates its order', async () => {
      const session = await store.sessions.create(newSession());
      await store.db.query('update checkout_sessions set order_id = null where id = $1', [
        session.id,
      ]);
      await store.db.query('delete from orders where id = $1', [session.orderId]);
      const claim = await store.sessions.claimForPayment(session.id, { cardLast4: '4444' });
      assert.equal(claim.won, true);
      assert.equal(claim.order?.status, 'new');
      assert.equal(claim.order?.clientOrderId, session.clientOrderId);
      assert.equal(claim.order?.cardLast4, '4444');
      assert.equal(claim.session?.orderId, claim.order?.id);
    });

    test('an expired session is marked expired with its order, and takes no payment', async () => {
      const session = await store.sessions.create(
        newSession({ expiresAt: new Date(Date.now() - 1000) }),
      );
      const claim = await store.sessions.claimForPayment(session.id);
      assert.equal(claim.won, false);
      assert.equal(claim.won === false && claim.reason, 'expired');
      assert.equal(claim.session?.state, 'expired');
      assert.equal(claim.order?.id, session.orderId);
      assert.equal(claim.order?.status, 'expired');
      // This claim expired it: the caller announces it (once).
      assert.equal(claim.won === false && claim.reason === 'expired' && claim.expiry?.won, true);
      assert.equal((await store.sessions.get(session.id))?.state, 'expired');
      const again = await store.sessions.claimForPayment(session.id);
      assert.equal(again.won === false && again.reason, 'expired');
      assert.equal(again.won === false && again.reason === 'expired' && again.expiry, undefined);
      assert.equal(again.order?.status, 'expired');
      const missing = await store.sessions.claimForPayment('no-such-session');
      assert.deepEqual(missing, { won: false, reason: 'not-found', session: null, order: null });
    });

    test('expire: an open session and its order end together, once', async () => {
      const session = await store.sessions.create(newSession());
      // Not due yet: only the early (merchant's) expiry takes it.
      const notDue = await store.sessions.expire(session.id, { dueOnly: true });
      assert.equal(notDue.won, false);
      assert.equal(notDue.session?.state, 'open');
      assert.equal(notDue.order?.status, 'awaiting-payment');
      const ended = await store.sessions.expire(session.id, { dueOnly: false });
      assert.equal(ended.won, true);
      assert.equal(ended.session?.state, 'expired');
      assert.equal(ended.order?.status, 'expired');
      assert.equal(ended.order?.version, 2);
      const twice = await store.sessions.expire(session.id, { dueOnly: false });
      assert.equal(twice.won, false);
      assert.equal(twice.order?.version, 2);
      const claim = await store.sessions.claimForPayment(session.id);
      assert.equal(claim.won === false && claim.reason, 'expired');
      const missing = await store.sessions.expire('no-such-session', { dueOnly: false });
      assert.deepEqual(missing, { won: false, session: null, order: null });
    });

    test('expire refuses a session whose payment is under way; its order is untouched', async () => {
      const session = await store.sessions.create(newSession());
      const claim = await store.sessions.claimForPayment(session.id);
      const refused = await store.sessions.expire(session.id, { dueOnly: false });
      assert.equal(refused.won, false);
      assert.equal(refused.session?.state, 'paying');
      assert.deepEqual(refused.order, claim.order);
    });

    test('dueForExpiry lists open sessions past their expiry only, oldest first', async () => {
      const past = (ms: number) => newSession({ expiresAt: new Date(Date.now() - ms) });
      const older = await store.sessions.create(past(60_000));
      const newer = await store.sessions.create(past(30_000));
      const paying = await store.sessions.create(newSession());
      await store.sessions.claimForPayment(paying.id);
      await store.db.query(
        "update checkout_sessions set expires_at = now() - interval '90 seconds' where id = $1",
        [paying.id],
      );
      await store.sessions.create(newSession());
      const due = await store.sessions.dueForExpiry(1000);
      assert.ok(due.indexOf(older.id) >= 0 && due.indexOf(older.id) < due.indexOf(newer.id));
      assert.ok(!due.includes(paying.id));
      for (const id of due) await store.sessions.expire(id, { dueOnly: true });
      assert.deepEqual(await store.sessions.dueForExpiry(1000), []);
      assert.equal((await store.orders.get(newer.orderId ?? ''))?.status, 'expired');
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

    test('extend moves an open expiry once per expiry seen, counts it, and stops at the most allowed', async () => {
      const session = await store.sessions.create(newSession());
      assert.equal(session.extensions, 0);
      const to = new Date(session.expiresAt.getTime() + 15 * 60_000);
      const moved = await store.sessions.extend(session.id, {
        from: session.expiresAt,
        to,
        maxExtensions: 2,
      });
      assert.equal(moved?.expiresAt.getTime(), to.getTime());
      assert.equal(moved?.extensions, 1);
      assert.equal(moved?.version, session.version + 1);
      // The same expiry seen again: it moved already, nothing changes.
      const twice = await store.sessions.extend(session.id, {
        from: session.expiresAt,
        to: new Date(to.getTime() + 60_000),
        maxExtensions: 2,
      });
      assert.equal(twice, null);
      const later = new Date(to.getTime() + 15 * 60_000);
      assert.equal(
        (await store.sessions.extend(session.id, { from: to, to: later, maxExtensions: 2 }))
          ?.extensions,
        2,
      );
      // The most allowed reached: refused, the row as it was.
      assert.equal(
        await store.sessions.extend(session.id, {
          from: later,
          to: new Date(later.getTime() + 60_000),
          maxExtensions: 2,
        }),
        null,
      );
      const stored = await store.sessions.get(session.id);
      assert.equal(stored?.expiresAt.getTime(), later.getTime());
      assert.equal(stored?.extensions, 2);
    });

    test('extend leaves a session that is not open, or past its expiry, as it was', async () => {
      const paying = await store.sessions.create(newSession());
      await store.sessions.claimForPayment(paying.id);
      const past = await store.sessions.create(
        newSession({ expiresAt: new Date(Date.now() - 1_000) }),
      );
      for (const s of [paying, past]) {
        const before = await store.sessions.get(s.id);
        const change = {
          from: s.expiresAt,
          to: new Date(s.expiresAt.getTime() + 60_000),
          maxExtensions: 10,
        };
        assert.equal(await store.sessions.extend(s.id, change), null);
        assert.deepEqual(await store.sessions.get(s.id), before);
      }
    });
  });
}
