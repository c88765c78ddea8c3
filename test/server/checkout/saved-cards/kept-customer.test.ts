/**
 * A saved card keeps its order's customer (issue 35): a session offering it lists, in the card's
 * `knows`, the groups of its `collect` the kept data covers; paying with it, the backend fills
 * those from the kept data and the shopper types only the rest. The attempt keeps the customer it
 * paid for (merchant API, webhooks); the family's make-rebill takes no customer fields, so none
 * is sent.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { type Backend, withSandboxAndBackend } from '../../../support/loopback-stack.js';
import { scaled } from '../../../support/time-scale.js';
import {
  testCard as card,
  createSession,
  merchant,
  Shopper,
} from '../../../support/widget-api-client.js';

const TYPED = {
  phone: '+33 6 12 34 56 78',
  billingAddress: { country: 'FR', address1: '1 rue de Rivoli', city: 'Paris', zipCode: '75001' },
};
const KEPT = {
  email: 'claire@example.fr',
  phone: '+33612345678',
  country: 'FR',
  address1: '1 rue de Rivoli',
  city: 'Paris',
  zipCode: '75001',
};

describe('a saved card keeps what its first payment gave', () => {
  let be: Backend;
  withSandboxAndBackend(({ be: started }) => {
    be = started;
  });

  /** The card reference kept from `orderId`'s approved attempt, once made. */
  async function keptRef(orderId: string): Promise<{ ref: string; orderRowId: string }> {
    const row = await be.store.orders.getByClientOrderId(orderId);
    assert.ok(row);
    for (const end = Date.now() + scaled(5_000); Date.now() < end; ) {
      const kept = await be.store.cardRefs.ofOrder(row.id);
      if (kept) return { ref: kept.id, orderRowId: row.id };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.fail('the card was not kept');
  }

  let saved: { ref: string; orderRowId: string };
  before(async () => {
    // The first payment: the shop knew only the e-mail, the shopper typed the rest.
    const first = await createSession(be.url, {
      customer: { email: KEPT.email },
      saveCard: 'always',
    });
    const shopper = new Shopper(be.url, first.token);
    const res = await shopper.call('POST', '/pay', {
      ...shopper.payBody(card('approved')),
      shopper: TYPED,
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await shopper.complete(card('approved'), res.body)).order.status, 'approved');
    saved = await keptRef(first.orderId);
  });

  /** A session offering the saved card, its shopper and what the element is shown. */
  async function offering(overrides: Record<string, unknown> = {}) {
    const session = await createSession(be.url, {
      customer: undefined,
      savedCards: [saved.ref],
      ...overrides,
    });
    const shopper = new Shopper(be.url, session.token);
    const view = (await shopper.call('GET', '/session')).body;
    return { session, shopper, view, handle: view.savedCards[0].handle as string };
  }

  it("lists what the card knows, and pays with it asking nothing: the attempt keeps the card's customer", async () => {
    const { session, shopper, view, handle } = await offering();
    assert.deepEqual(view.collect, ['email', 'phone', 'billingAddress']);
    assert.deepEqual(view.savedCards[0].knows, ['email', 'phone', 'billingAddress']);
    const final = await shopper.complete(card('approved'), await shopper.paySaved(handle, '123'));
    assert.equal(final.order.status, 'approved');
    const order = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
    assert.deepEqual(order.body.customer, KEPT);
    const row = await be.store.orders.getByClientOrderId(session.orderId);
    const [rebill] = (await be.store.history.forOrder(row?.id ?? '')).filter(
      (e) => e.operation === 'make-rebill',
    );
    for (const field of ['email', 'phone', 'address1', 'city', 'zip_code', 'country'])
      assert.equal(rebill?.request[field], undefined, field);
  });

  it('a group the card knows is not sent again: 400 naming it, nothing claimed', async () => {
    const { session, shopper, handle } = await offering();
    const res = await shopper.call('POST', '/pay', {
      ...shopper.savedCardBody(handle, '123'),
      shopper: { email: 'someone@example.com' },
    });
    assert.equal(res.status, 400);
    assert.deepEqual(
      [res.body.error.field, res.body.error.message],
      ['shopper.email', 'shopper.email: must not be sent: the saved card already gave it'],
    );
    assert.equal((await shopper.call('GET', '/session')).body.state, 'open');
    const row = await be.store.orders.getByClientOrderId(session.orderId);
    assert.equal(row?.status, 'awaiting-payment');
    assert.equal((await be.store.history.forOrder(row?.id ?? '')).length, 0);
  });

  it('where the card kept only the e-mail, the shopper types the rest and only the rest', async () => {
    // As a card kept from an order that carried only an e-mail.
    await be.store.db.query('update orders set customer = $2::jsonb where id = $1', [
      saved.orderRowId,
      JSON.stringify({ email: KEPT.email }),
    ]);
    try {
      const { session, shopper, view, handle } = await offering();
      assert.deepEqual(view.savedCards[0].knows, ['email']);
      const missing = await shopper.call('POST', '/pay', shopper.savedCardBody(handle, '123'));
      assert.equal(missing.status, 400);
      assert.equal(missing.body.error.field, 'shopper.phone');
      const typed = {
        phone: '+49 30 901820',
        billingAddress: {
          country: 'DE',
          address1: 'Unter den Linden 1',
          city: 'Berlin',
          zipCode: '10117',
        },
      };
      const res = await shopper.call('POST', '/pay', {
        ...shopper.savedCardBody(handle, '123'),
        shopper: typed,
      });
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.equal((await shopper.complete(card('approved'), res.body)).order.status, 'approved');
      const order = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
      assert.deepEqual(order.body.customer, {
        email: KEPT.email,
        phone: '+4930901820',
        country: 'DE',
        address1: 'Unter den Linden 1',
        city: 'Berlin',
        zipCode: '10117',
      });
    } finally {
      await be.store.db.query('update orders set customer = $2::jsonb where id = $1', [
        saved.orderRowId,
        JSON.stringify(KEPT),
      ]);
    }
  });

  it('a full customer asks nothing: the card lists no group', async () => {
    const { view } = await offering({
      customer: { ...KEPT, phone: '+33 6 98 76 54 32' },
    });
    assert.deepEqual(view.collect, []);
    assert.equal(view.savedCards[0].knows, undefined);
  });
});
