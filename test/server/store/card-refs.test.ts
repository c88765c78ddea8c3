/**
 * Saved cards in the store, on both engines: a card reference is kept once per order and per
 * reference (the insert that made it says so), a session offers only references held and not
 * forgotten (otherwise nothing of the session is written), each under a handle of its own that
 * finds it in that session only, and a reference forgotten is forgotten once and offered no more.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  CardRefNotHeldError,
  CHECKOUT_MIGRATION_SET,
  type CheckoutStore,
  checkoutMigrations,
  createCheckoutStore,
  migrate,
  type NewCheckoutSession,
  openDatabase,
} from '../../../server/src/store/index.js';
import { engines, uniqueSchema } from './engines.js';

let counter = 0;
function newSession(overrides: Partial<NewCheckoutSession> = {}): NewCheckoutSession {
  counter += 1;
  return {
    clientOrderId: `saved-${process.pid}-${counter}`,
    amountMinor: 1000,
    currency: 'EUR',
    intent: 'sale',
    customer: { email: 'shopper@example.com' },
    expiresAt: new Date(Date.now() + 15 * 60_000),
    ...overrides,
  };
}

for (const engine of engines()) {
  describe(`saved cards on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    /** A card reference kept for the order of a new session. */
    async function keptRef(id: string) {
      const session = await store.sessions.create(newSession());
      const write = await store.cardRefs.register({
        id,
        orderId: session.orderId as string,
        brand: 'VISA',
        last4: '0002',
      });
      assert.ok(write.won && write.cardRef);
      return write.cardRef;
    }

    test('kept once per order and per reference: the first insert wins, the rest read it', async () => {
      const ref = await keptRef(`ref-once-${engine.name}`);
      const again = await store.cardRefs.register({
        id: ref.id,
        orderId: ref.orderId,
        brand: 'VISA',
        last4: '0002',
      });
      assert.deepEqual(again, { won: false, cardRef: ref });
      const otherRefSameOrder = await store.cardRefs.register({
        id: `${ref.id}-b`,
        orderId: ref.orderId,
        brand: 'VISA',
        last4: '0002',
      });
      assert.deepEqual(otherRefSameOrder, { won: false, cardRef: ref });
      assert.deepEqual(await store.cardRefs.ofOrder(ref.orderId), ref);
      assert.equal(await store.cardRefs.get(`${ref.id}-b`), null);
    });

    test('a session offers held references under handles of its own, most recent first', async () => {
      const older = await keptRef(`ref-old-${engine.name}`);
      const newer = await keptRef(`ref-new-${engine.name}`);
      const session = await store.sessions.create(
        newSession({ saveCard: 'ask', savedCardCvc: 'optional', savedCards: [older.id, newer.id] }),
      );
      assert.deepEqual([session.saveCard, session.savedCardCvc], ['ask', 'optional']);
      const offered = await store.sessionCards.offered(session.id);
      assert.deepEqual(
        offered.map((o) => o.cardRef.id),
        [newer.id, older.id],
      );
      const other = await store.sessions.create(newSession({ savedCards: [older.id] }));
      const [theirs] = await store.sessionCards.offered(other.id);
      assert.ok(theirs);
      assert.notEqual(theirs.handle, offered[1]?.handle);
      assert.equal(
        (await store.sessionCards.byHandle(session.id, theirs.handle))?.cardRef.id,
        undefined,
      );
      assert.equal(
        (await store.sessionCards.byHandle(other.id, theirs.handle))?.cardRef.id,
        older.id,
      );
      assert.equal(await store.sessionCards.byHandle(session.id, older.id), null);
    });

    test('a reference not held, or forgotten: CardRefNotHeldError naming it, and no session written', async () => {
      const held = await keptRef(`ref-held-${engine.name}`);
      const input = newSession({ savedCards: [held.id, 'never-made'] });
      await assert.rejects(store.sessions.create(input), (error: unknown) => {
        assert.ok(error instanceof CardRefNotHeldError);
        assert.equal(error.cardRefId, 'never-made');
        return true;
      });
      assert.equal(await store.sessions.getByClientOrderId(input.clientOrderId), null);
      assert.equal(await store.orders.getByClientOrderId(input.clientOrderId), null);

      const forgotten = await store.cardRefs.markForgotten(held.id);
      assert.ok(forgotten?.forgottenAt);
      assert.equal(await store.cardRefs.markForgotten(held.id), null, 'forgotten once');
      await assert.rejects(
        store.sessions.create(newSession({ savedCards: [held.id] })),
        CardRefNotHeldError,
      );
    });

    test('the sessions that may still be paid with a reference: open and not expired, or paying', async () => {
      const ref = await keptRef(`ref-live-${engine.name}`);
      const open = await store.sessions.create(newSession({ savedCards: [ref.id] }));
      const paying = await store.sessions.create(newSession({ savedCards: [ref.id] }));
      await store.sessions.claimForPayment(paying.id);
      const ended = await store.sessions.create(newSession({ savedCards: [ref.id] }));
      await store.sessions.expire(ended.id, { dueOnly: false });
      const past = await store.sessions.create(
        newSession({ savedCards: [ref.id], expiresAt: new Date(Date.now() - 1_000) }),
      );
      assert.ok(past);
      assert.deepEqual(
        (await store.sessionCards.liveSessionsOffering(ref.id)).sort(),
        [open.id, paying.id].sort(),
      );
    });

    test('approved attempts whose card is to be saved and has no reference are due', async () => {
      const session = await store.sessions.create(newSession());
      const claim = await store.sessions.claimForPayment(session.id, { saveCard: true });
      assert.ok(claim.won);
      await store.orders.transition(claim.order.id, { from: ['new'], to: 'approved' });
      await store.db.query(
        "update orders set updated_at = now() - interval '2 minutes' where id = $1",
        [claim.order.id],
      );
      const due = await store.cardRefs.dueToSave({ olderThanSeconds: 60 });
      assert.ok(due.some((o) => o.id === claim.order.id && o.saveCard));
      await store.cardRefs.register({
        id: `ref-due-${engine.name}`,
        orderId: claim.order.id,
        brand: 'VISA',
        last4: null,
      });
      const after = await store.cardRefs.dueToSave({ olderThanSeconds: 60 });
      assert.ok(!after.some((o) => o.id === claim.order.id));
    });
  });
}

describe('the saved-cards migration on a store that made card references before', () => {
  test('each approved order with a card reference is held, with its brand and last four', async () => {
    const url = process.env.TEST_DATABASE_URL;
    const schema = url ? uniqueSchema() : undefined;
    const db = await openDatabase({ ...(url ? { url } : {}), ...(schema ? { schema } : {}) });
    try {
      const before = checkoutMigrations.findIndex((m) => m.id === '013-saved-cards');
      await migrate(db, CHECKOUT_MIGRATION_SET, checkoutMigrations.slice(0, before));
      await db.query(
        `insert into orders (id, client_orderid, intent, amount_minor, currency, status, return_ref,
           card_brand, card_last4)
         values ('row-1', 'ord-1', 'sale', 100, 'EUR', 'approved', 'rr-1', 'VISA', '0002'),
                ('row-2', 'ord-2', 'sale', 100, 'EUR', 'approved', 'rr-2', null, null)`,
      );
      await db.query(
        `insert into merchant_operations (id, kind, client_id, gateway_ref, status, data)
         values ('op-1', 'card-ref', 'ord-1', 'ref-1', 'approved', '{"orderRowId":"row-1"}'),
                ('op-2', 'card-ref', 'ord-2', null, 'unknown', '{"orderRowId":"row-2"}'),
                ('op-3', 'rebill', 'rb-1', 'ref-1', 'approved', '{}')`,
      );
      await migrate(db, CHECKOUT_MIGRATION_SET, checkoutMigrations);
      const store = createCheckoutStore(db);
      const kept = await store.cardRefs.get('ref-1');
      assert.deepEqual(
        [kept?.orderId, kept?.brand, kept?.last4, kept?.forgottenAt],
        ['row-1', 'VISA', '0002', null],
      );
      assert.equal(await store.cardRefs.ofOrder('row-2'), null);
      const { rows } = await db.query('select count(*)::int as n from card_refs');
      assert.equal(Number(rows[0]?.n), 1);
    } finally {
      if (schema) await db.query(`drop schema if exists "${schema}" cascade`);
      await db.close();
    }
  });
});
