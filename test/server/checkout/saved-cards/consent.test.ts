/**
 * Saving a card with the shopper's consent: a session says whether it asks (`saveCard`), and
 * only an approved payment whose shopper ticked the box (or a session saving always) leaves a
 * card reference, made once, kept with brand and last four only, shown on the order with the
 * card's expiry and holder as get-card-info gives them, and announced as `card_ref.created`.
 * Nothing for an unticked box, a declined payment, or a session that never saves. The merchant
 * may forget a reference, except while a session that may still be paid offers it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Backend,
  type Sandbox,
  withSandboxAndBackend,
} from '../../../support/loopback-stack.js';
import {
  type Card,
  CUSTOMER,
  createSession,
  merchant,
  Shopper,
} from '../../../support/widget-api-client.js';

const APPROVED = { pan: '4000000000000002' };
const DECLINED = { pan: '4000000000000010' };

describe('saving a card with the shopper consent', () => {
  let sb: Sandbox;
  let be: Backend;
  withSandboxAndBackend(
    (started) => {
      ({ sb, be } = started);
    },
    { config: { webhook: { url: 'http://127.0.0.1:9/hook', secret: 'whsec-test-0123456789' } } },
  );

  /** Probes until `probe` answers something, for a few seconds at most. */
  async function eventually<T>(what: string, probe: () => Promise<T | null | undefined>) {
    for (let tries = 0; tries < 100; tries++) {
      const value = await probe();
      if (value) return value;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.fail(`timed out waiting for ${what}`);
  }

  const order = async (orderId: string) =>
    (await merchant(be.url, 'GET', `/v1/orders/${orderId}`)).body;
  const eventTypes = async (orderId: string) =>
    (await merchant(be.url, 'GET', `/v1/events?orderId=${orderId}`)).body.events
      .map((e: { type: string }) => e.type)
      .sort();

  /** A session of `overrides` paid with `card` to its final action. */
  async function pay(overrides: Record<string, unknown>, card: Card) {
    const session = await createSession(be.url, overrides);
    const final = await new Shopper(be.url, session.token).complete(card);
    assert.equal(final.action, 'final');
    return { session, final };
  }

  /** Nothing was saved for the order: no operation, no reference here or at the gateway. */
  async function nothingSaved(orderId: string) {
    await be.checkout.reconcile(0);
    const row = await be.store.orders.getByClientOrderId(orderId);
    assert.ok(row);
    assert.equal((await order(orderId)).cardRef, null);
    assert.equal(await be.store.operations.getByClientId('card-ref', orderId), null);
    assert.equal(await be.store.cardRefs.ofOrder(row.id), null);
    if (row.gatewayOrderId) {
      const db = sb.sandbox.store.db;
      assert.equal(await sb.sandbox.store.getCardRefBySource(db, row.gatewayOrderId), undefined);
    }
    assert.ok(!(await eventTypes(orderId)).includes('card_ref.created'));
  }

  it('asked, the box left unticked: approved, and no card reference', async () => {
    const { session, final } = await pay({ saveCard: 'ask' }, { ...APPROVED, saveCard: false });
    assert.equal(final.order.status, 'approved');
    await nothingSaved(session.orderId);
  });

  it('asked and ticked, but declined: no card reference', async () => {
    const { session, final } = await pay(
      { saveCard: 'ask', maxAttempts: 1 },
      { ...DECLINED, saveCard: true },
    );
    assert.equal(final.order.status, 'declined');
    await nothingSaved(session.orderId);
  });

  it('asked and ticked, approved: one reference, on the order with the gateway card details, announced once', async () => {
    const { session } = await pay({ saveCard: 'ask' }, { ...APPROVED, saveCard: true });
    const cardRef = await eventually(
      'the card kept',
      async () => (await order(session.orderId)).cardRef,
    );
    const { id, createdAt, ...rest } = cardRef;
    assert.ok(typeof id === 'string' && id.length > 0);
    assert.ok(Date.parse(createdAt) > 0);
    assert.deepEqual(rest, {
      orderId: session.orderId,
      brand: 'VISA',
      last4: '0002',
      forgotten: false,
      expMonth: '12',
      expYear: '2030',
      holder: 'John Smith',
    });
    // The reconciler and the merchant's own request find the same reference: nothing twice.
    await be.checkout.reconcile(0);
    const again = await merchant(be.url, 'POST', `/v1/orders/${session.orderId}/card-ref`, {});
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.deepEqual(again.body, { cardRefId: id, orderId: session.orderId });
    const row = await be.store.orders.getByClientOrderId(session.orderId);
    const { rows } = await sb.sandbox.store.db.query(
      'select id from sandbox_card_refs where source_orderid = $1',
      [row?.gatewayOrderId],
    );
    assert.equal(rows.length, 1);
    // The order's events, the create-card-ref operation's too (its orderId is the order's): one
    // reference, announced once.
    assert.deepEqual(await eventTypes(session.orderId), [
      'card-ref.approved',
      'card_ref.created',
      'order.approved',
    ]);
    // The event names the reference; expiry and holder are never kept, so never in an event.
    const events = (
      await merchant(be.url, 'GET', `/v1/events?type=card_ref.created&orderId=${session.orderId}`)
    ).body.events;
    assert.equal(events.length, 1);
    const { expMonth: _m, expYear: _y, holder: _h, ...summary } = cardRef;
    assert.deepEqual(events[0].data.cardRef, summary);
    assert.equal(events[0].data.order.cardRef.id, id);
    // A list keeps the summary too.
    const listed = (
      await merchant(be.url, 'GET', '/v1/orders?status=approved&limit=500')
    ).body.orders.find((o: { orderId: string }) => o.orderId === session.orderId);
    assert.equal(listed.cardRef.id, id);
    assert.equal('expMonth' in listed.cardRef, false);
  });

  it('saving always: kept without a box', async () => {
    const { session } = await pay({ saveCard: 'always' }, APPROVED);
    const cardRef = await eventually(
      'the card kept',
      async () => (await order(session.orderId)).cardRef,
    );
    assert.equal(cardRef.last4, '0002');
  });

  it('a session that never saves refuses a ticked box: 400 naming saveCard, nothing claimed', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    const res = await shopper.call(
      'POST',
      '/pay',
      shopper.payBody({ ...APPROVED, saveCard: true }),
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.error.field, 'saveCard');
    const view = await shopper.call('GET', '/session');
    assert.equal(view.body.state, 'open');
    assert.equal(view.body.saveCard, 'never');
    assert.equal((await order(session.orderId)).status, 'awaiting-payment');
  });

  it('the session fields are checked: 400 naming the field, and nothing is created', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ saveCard: 'sometimes' }, 'saveCard'],
      [{ savedCardCvc: 'never' }, 'savedCardCvc'],
      [{ savedCards: 'abc' }, 'savedCards'],
      [{ savedCards: Array.from({ length: 11 }, (_, i) => `ref-${i}`) }, 'savedCards'],
      [{ savedCards: ['ref-a', 'ref-a'] }, 'savedCards'],
      [{ savedCards: ['no-such-ref'] }, 'savedCards.0'],
      [{ savedCards: ['no-such-ref'], intent: 'preauth' }, 'savedCards'],
      [{ savedCards: ['no-such-ref'], modes: ['hosted'] }, 'savedCards'],
    ];
    for (const [fields, field] of cases) {
      const orderId = `fields-${Date.now().toString(36)}-${field}`;
      const res = await merchant(be.url, 'POST', '/v1/checkout-sessions', {
        amount: '1.00',
        currency: 'EUR',
        orderId,
        description: 'x',
        customer: CUSTOMER,
        ...fields,
      });
      assert.equal(res.status, 400, `${JSON.stringify(fields)}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.field, field, JSON.stringify(res.body));
      assert.equal((await merchant(be.url, 'GET', `/v1/orders/${orderId}`)).status, 404);
    }
  });

  it('forgetting: refused while a session that may be paid offers it, then forgotten, offered no more', async () => {
    const { session: first } = await pay({ saveCard: 'always' }, APPROVED);
    const { id } = await eventually(
      'the card kept',
      async () => (await order(first.orderId)).cardRef,
    );
    const offering = await createSession(be.url, { savedCards: [id] });
    assert.deepEqual(
      (await merchant(be.url, 'GET', `/v1/checkout-sessions/${offering.id}`)).body.savedCards,
      [id],
    );
    const refused = await merchant(be.url, 'POST', `/v1/card-refs/${id}/forget`, {});
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.match(refused.body.error.message, new RegExp(offering.id));
    assert.equal((await merchant(be.url, 'GET', `/v1/card-refs/${id}`)).body.forgotten, false);

    const ended = await merchant(be.url, 'POST', `/v1/checkout-sessions/${offering.id}/expire`, {});
    assert.equal(ended.status, 200);
    const forgotten = await merchant(be.url, 'POST', `/v1/card-refs/${id}/forget`, {});
    assert.equal(forgotten.status, 200, JSON.stringify(forgotten.body));
    assert.equal(forgotten.body.forgotten, true);
    assert.equal((await merchant(be.url, 'POST', `/v1/card-refs/${id}/forget`, {})).status, 200);
    const read = await merchant(be.url, 'GET', `/v1/card-refs/${id}`);
    assert.deepEqual(
      [read.body.forgotten, read.body.orderId, read.body.last4],
      [true, first.orderId, '0002'],
    );

    const refusedSession = await merchant(be.url, 'POST', '/v1/checkout-sessions', {
      amount: '1.00',
      currency: 'EUR',
      orderId: `after-forget-${Date.now().toString(36)}`,
      description: 'x',
      customer: CUSTOMER,
      savedCards: [id],
    });
    assert.equal(refusedSession.status, 400);
    assert.equal(refusedSession.body.error.field, 'savedCards.0');
    assert.equal(
      (await merchant(be.url, 'POST', '/v1/card-refs/no-such-ref/forget', {})).status,
      404,
    );
  });
});
