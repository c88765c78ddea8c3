/**
 * Migration 019 (issue 35) on both engines: a session keeps what the element asks (`collect`,
 * every group named, `auto` where the merchant named none) and its country hint; an attempt keeps
 * the customer it carried, phone whole; a card offered in a session brings its order's customer.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CheckoutStore, NewCheckoutSession } from '../../../server/src/store/index.js';
import { engines } from './engines.js';

let counter = 0;
function newSession(overrides: Partial<NewCheckoutSession> = {}): NewCheckoutSession {
  counter += 1;
  return {
    clientOrderId: `collect-${process.pid}-${counter}`,
    amountMinor: 999,
    currency: 'EUR',
    intent: 'sale',
    expiresAt: new Date(Date.now() + 15 * 60_000),
    ...overrides,
  };
}

/** A phone of 13 digits that passes Luhn: masked as a card number anywhere but a customer. */
const LUHN_PHONE = '+4915112345678';

for (const engine of engines()) {
  describe(`the shopper's data in the store on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    test('a session keeps collect (auto where unnamed) and its country hint', async () => {
      const plain = await store.sessions.create(newSession());
      assert.deepEqual(plain.collect, { email: 'auto', phone: 'auto', billingAddress: 'auto' });
      assert.equal(plain.countryHint, null);
      assert.deepEqual(plain.customer, {});
      const set = await store.sessions.create(
        newSession({
          collect: { email: 'never', billingAddress: 'always' },
          countryHint: 'DE',
          customer: { email: 'a@example.com', phone: LUHN_PHONE },
        }),
      );
      const read = await store.sessions.get(set.id);
      assert.deepEqual(read?.collect, { email: 'never', phone: 'auto', billingAddress: 'always' });
      assert.equal(read?.countryHint, 'DE');
      assert.deepEqual(read?.customer, { email: 'a@example.com', phone: LUHN_PHONE });
    });

    test('an attempt keeps the customer it carried from its claim; card numbers in it masked, its phone whole', async () => {
      const session = await store.sessions.create(newSession());
      const customer = {
        email: 'jan@example.de',
        phone: LUHN_PHONE,
        address1: 'Box 4111111111111111',
        city: 'Berlin',
      };
      const claim = await store.sessions.claimForPayment(session.id, { customer });
      assert.ok(claim.won);
      const expected = { ...customer, address1: 'Box 411111******1111' };
      assert.deepEqual(claim.order.customer, expected);
      assert.deepEqual((await store.orders.get(claim.order.id))?.customer, expected);
      const unpaid = await store.sessions.create(newSession());
      assert.equal((await store.orders.get(unpaid.orderId ?? ''))?.customer, null);
    });

    test("an offered card brings its order's customer", async () => {
      const first = await store.sessions.create(newSession());
      const claim = await store.sessions.claimForPayment(first.id, {
        customer: { email: 'kept@example.com', phone: LUHN_PHONE },
      });
      assert.ok(claim.won);
      const ref = `ref-collect-${process.pid}-${counter}`;
      await store.cardRefs.register({
        id: ref,
        orderId: claim.order.id,
        brand: 'VISA',
        last4: '0002',
      });
      const offering = await store.sessions.create(newSession({ savedCards: [ref] }));
      const [offer] = await store.sessionCards.offered(offering.id);
      assert.deepEqual(offer?.keptCustomer, { email: 'kept@example.com', phone: LUHN_PHONE });
      const byHandle = await store.sessionCards.byHandle(offering.id, offer?.handle ?? '');
      assert.deepEqual(byHandle?.keptCustomer, offer?.keptCustomer);
    });
  });
}
