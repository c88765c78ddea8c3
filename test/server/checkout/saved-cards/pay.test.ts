/**
 * Paying with a saved card by its security code. The element sees the offered cards (details from
 * get-card-info, most recent first) under handles of its session, never a card reference; a
 * handle of another session, a made-up one or a reference itself is refused (400
 * `saved-card-unknown`) with nothing claimed or sent; so is a missing code where the session
 * requires it, and an expired card (409 `saved-card-expired`). A payment is make-rebill with
 * `cvv2` and the shopper's IP, an attempt like any other (a decline gives the list back, never two
 * approvals), and goes through 3-D Secure with the very next actions of a sale.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import type { NextAction } from '../../../../contract/api-types.js';
import {
  type Backend,
  type Sandbox,
  startBackend,
  withSandboxAndBackend,
} from '../../../support/loopback-stack.js';
import {
  testCard as card,
  createSession,
  merchant,
  Shopper,
  savedCard,
} from '../../../support/widget-api-client.js';

describe('paying with a saved card', () => {
  let sb: Sandbox;
  let be: Backend;
  withSandboxAndBackend((started) => {
    ({ sb, be } = started);
  });

  /** A session offering `refs`, its shopper, and the cards its element is shown. */
  async function offering(
    refs: string[],
    overrides: Record<string, unknown> = {},
    instance: Backend = be,
  ) {
    const session = await createSession(instance.url, { savedCards: refs, ...overrides });
    const shopper = new Shopper(instance.url, session.token);
    const view = await shopper.call('GET', '/session');
    assert.equal(view.status, 200, JSON.stringify(view.body));
    return { session, shopper, view: view.body };
  }

  /** Nothing happened to the session: still open, its order unpaid, no gateway call for it. */
  async function untouched(orderId: string, shopper: Shopper) {
    assert.equal((await shopper.call('GET', '/session')).body.state, 'open');
    const row = await be.store.orders.getByClientOrderId(orderId);
    assert.equal(row?.status, 'awaiting-payment');
    assert.equal((await be.store.history.forOrder(row.id)).length, 0);
  }

  let approvedRef: string;
  let challengeRef: string;
  before(async () => {
    approvedRef = (await savedCard(be)).ref;
    challengeRef = (await savedCard(be, 'saved-card-challenge')).ref;
  });

  it('the element is shown the offered cards, most recent first, under handles: never a card reference', async () => {
    const { view } = await offering([approvedRef, challengeRef]);
    assert.equal(view.saveCard, 'never');
    assert.equal(view.savedCardCvc, 'required');
    const [first, second] = view.savedCards;
    assert.equal(view.savedCards.length, 2);
    const { handle: h1, ...challenge } = first;
    const { handle: h2, ...approved } = second;
    assert.deepEqual(challenge, {
      brand: 'VISA',
      brandId: 'visa',
      last4: '0176',
      expMonth: '12',
      expYear: '2030',
      holder: 'John Smith',
      expired: false,
    });
    assert.equal(approved.last4, '0002');
    assert.ok(/^[A-Za-z0-9_-]{32}$/.test(h1) && /^[A-Za-z0-9_-]{32}$/.test(h2) && h1 !== h2);
    const text = JSON.stringify(view);
    assert.ok(!text.includes(approvedRef) && !text.includes(challengeRef));
  });

  it('refuses a handle of another session, a made-up one and a card reference: nothing claimed, nothing sent', async () => {
    const other = await offering([approvedRef]);
    const { session, shopper } = await offering([challengeRef]);
    for (const handle of [
      other.view.savedCards[0].handle,
      'A'.repeat(32),
      approvedRef,
      challengeRef,
    ]) {
      const res = await shopper.call('POST', '/pay', shopper.savedCardBody(handle, '123'));
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(
        [res.body.error.code, res.body.error.field],
        ['saved-card-unknown', 'savedCard'],
      );
    }
    await untouched(session.orderId, shopper);
  });

  it('a required security code missing: 400 naming cvc, nothing claimed', async () => {
    const { session, shopper, view } = await offering([approvedRef]);
    const res = await shopper.call(
      'POST',
      '/pay',
      shopper.savedCardBody(view.savedCards[0].handle),
    );
    assert.equal(res.status, 400);
    assert.equal(res.body.error.field, 'cvc');
    await untouched(session.orderId, shopper);
  });

  it('pays by make-rebill with cvv2 and the shopper IP; the code is kept nowhere', async () => {
    const { session, shopper, view } = await offering([approvedRef]);
    const final = await shopper.complete(
      card('approved'),
      await shopper.paySaved(view.savedCards[0].handle, '123'),
    );
    assert.equal(final.order.status, 'approved');
    assert.deepEqual(final.order.card, { brand: 'VISA', last4: '0002', masked: '**** 0002' });
    const read = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
    assert.equal(read.body.attempts[0].paidWithCardRef, approvedRef);
    const row = await be.store.orders.getByClientOrderId(session.orderId);
    const [rebill] = (await be.store.history.forOrder(row!.id)).filter(
      (e) => e.operation === 'make-rebill',
    );
    assert.ok(rebill, 'one make-rebill');
    assert.equal(rebill.request.cardrefid, approvedRef);
    assert.equal(rebill.request.ipaddress, '127.0.0.1');
    assert.equal(rebill.request.cvv2, undefined, 'the security code is not kept');
    const { rows } = await sb.sandbox.store.db.query<{ data: { kind: string } }>(
      'select data from sandbox_transactions where client_orderid = $1',
      [session.orderId],
    );
    assert.deepEqual(
      rows.map((r) => r.data.kind),
      ['rebill'],
    );
  });

  it('a wrong code declines: the list comes back for another attempt, and one approval is kept', async () => {
    const { session, shopper, view } = await offering([approvedRef]);
    const handle = view.savedCards[0].handle;
    const declined = await shopper.complete(
      card('approved'),
      await shopper.paySaved(handle, '000'),
    );
    assert.equal(declined.order.status, 'declined');
    assert.equal(declined.order.attemptsLeft, 4);
    const again = await shopper.call('GET', '/session');
    assert.equal(again.body.state, 'open');
    assert.equal(again.body.savedCards[0].handle, handle);
    const approved = await shopper.complete(
      card('approved'),
      await shopper.paySaved(handle, '123'),
    );
    assert.equal(approved.order.status, 'approved');
    const read = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
    assert.deepEqual(
      read.body.attempts.map((a: { status: string }) => a.status),
      ['declined', 'approved'],
    );
  });

  it('an optional code may be left out: charged with the cardholder-absent rules', async () => {
    const { shopper, view } = await offering([approvedRef], { savedCardCvc: 'optional' });
    assert.equal(view.savedCardCvc, 'optional');
    const final = await shopper.complete(
      card('approved'),
      await shopper.paySaved(view.savedCards[0].handle),
    );
    assert.equal(final.order.status, 'approved');
  });

  it('through a 3-D Secure challenge: the same next actions as a sale that asks for one', async () => {
    const { shopper, view } = await offering([challengeRef]);
    const first: NextAction = await shopper.paySaved(view.savedCards[0].handle, '123');
    const saved = await shopper.complete(card('saved-card-challenge'), first);
    assert.equal(saved.order.status, 'approved');

    const sale = await createSession(be.url);
    const seller = new Shopper(be.url, sale.token);
    const sold = await seller.complete(card('3ds2-challenge-no-method'));
    assert.equal(sold.order.status, 'approved');
    assert.deepEqual(shopper.steps, seller.steps);
    assert.deepEqual(shopper.steps, ['method-without-url', 'challenge', 'final']);
  });

  it('a wrong one-time code in the challenge declines, and the list comes back', async () => {
    const { shopper, view } = await offering([challengeRef]);
    const first = await shopper.paySaved(view.savedCards[0].handle, '123');
    const final = await shopper.complete(card('saved-card-challenge'), first, { otp: '0000' });
    assert.equal(final.order.status, 'declined');
    assert.equal((await shopper.call('GET', '/session')).body.state, 'open');
  });

  it('a card the gateway describes without an expiry is not shown, and the backend says so in its log', async () => {
    const { ref } = await savedCard(be);
    const shown = (await offering([ref])).view.savedCards;
    assert.equal(shown.length, 1);
    await sb.sandbox.store.db.query(
      `update sandbox_card_refs set data = jsonb_set(data, '{expMonth}', '""') where id = $1`,
      [ref],
    );
    // Another instance, which has not read it yet, asks the gateway.
    const other = await startBackend(sb, { store: be.store });
    try {
      const { session, view } = await offering([ref], {}, other);
      assert.deepEqual(view.savedCards, []);
      const lines = other.logs.filter((line) => line.includes('saved card not shown'));
      assert.equal(lines.length, 1, other.logs.join('\n'));
      assert.ok(lines[0]?.includes(`"sessionId":"${session.id}"`), lines[0]);
      assert.ok(!lines[0]?.includes(ref), lines[0]);
    } finally {
      await other.close();
    }
  });

  it('an expired card is shown as such and refused: 409 saved-card-expired, nothing claimed', async () => {
    const expiredRef = (await savedCard(be)).ref;
    // The gateway now says it expired; another instance, which has not read it yet, asks.
    await sb.sandbox.store.db.query(
      `update sandbox_card_refs set data = jsonb_set(data, '{expYear}', '"2020"') where id = $1`,
      [expiredRef],
    );
    const other = await startBackend(sb, { store: be.store });
    try {
      const { session, shopper, view } = await offering([expiredRef], {}, other);
      assert.equal(view.savedCards[0].expired, true);
      assert.equal(view.savedCards[0].expYear, '2020');
      const res = await shopper.call(
        'POST',
        '/pay',
        shopper.savedCardBody(view.savedCards[0].handle, '123'),
      );
      assert.equal(res.status, 409);
      assert.deepEqual(
        [res.body.error.code, res.body.error.field],
        ['saved-card-expired', 'savedCard'],
      );
      await untouched(session.orderId, shopper);
    } finally {
      await other.close();
    }
  });
});
