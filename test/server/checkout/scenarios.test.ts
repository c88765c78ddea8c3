/**
 * Every sandbox scenario, through the widget API alone, to its exact final status.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TEST_CARDS } from '../../../server/src/sandbox/index.js';
import { type Backend, withSandboxAndBackend } from '../../support/loopback-stack.js';
import { createSession, merchant, Shopper } from '../../support/widget-api-client.js';

const card = (scenario: string) => {
  const found = TEST_CARDS.find((c) => c.scenario === scenario);
  assert.ok(found, scenario);
  return { pan: found.pan, cvv: found.cvv, otp: found.otp };
};

describe('sandbox scenarios through the widget API', () => {
  let be: Backend;
  withSandboxAndBackend((started) => {
    ({ be } = started);
  });

  const expectations: [string, string, string[], { errorCode?: string }?][] = [
    ['approved', 'approved', ['final']],
    ['declined', 'declined', ['final'], { errorCode: '05' }],
    ['insufficient-funds', 'declined', ['final'], { errorCode: '51' }],
    ['3ds2-frictionless', 'approved', ['method', 'final']],
    ['3ds2-challenge', 'approved', ['method', 'challenge', 'final']],
    ['3ds2-challenge-no-method', 'approved', ['method-without-url', 'challenge', 'final']],
    ['3ds2-method-timeout', 'approved', ['method', 'final']],
    ['3ds1', 'approved', ['3ds1', 'final']],
    ['error', 'error', ['final'], { errorCode: '96' }],
    ['filtered', 'filtered', ['final']],
    ['unknown-then-approved', 'approved', ['final']],
  ];

  for (const [scenario, status, steps, extra] of expectations) {
    it(`${scenario} ends ${status}`, async () => {
      const session = await createSession(be.url);
      const shopper = new Shopper(be.url, session.token);
      const final = await shopper.complete(card(scenario));
      assert.equal(final.action, 'final');
      assert.deepEqual(shopper.steps, steps);
      assert.equal(final.order.status, status);
      assert.equal(final.order.orderId, session.orderId);
      assert.equal(final.order.amount, '10.42');
      assert.equal(final.order.amountMinor, 1042);
      assert.deepEqual(final.order.card, {
        brand: 'VISA',
        last4: card(scenario).pan.slice(-4),
        masked: `400000******${card(scenario).pan.slice(-4)}`,
      });
      if (extra?.errorCode) assert.equal(final.order.errorCode, extra.errorCode);
      // Approved, the session is done; failed, it takes another card (attempt 2 of 5).
      const view = await shopper.call('GET', '/session');
      assert.equal(view.body.state, status === 'approved' ? 'completed' : 'open');
      assert.equal(final.order.attemptsLeft, status === 'approved' ? 0 : 4);
      const order = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
      assert.equal(order.body.status, status);
      assert.deepEqual(
        order.body.attempts.map((a: { id: string; status: string }) => [a.id, a.status]),
        [[session.orderId, status]],
      );
    });
  }

  it('a wrong one-time code declines the 3DS 2 challenge', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    const final = await shopper.complete(card('3ds2-challenge'), undefined, { otp: '0000' });
    assert.equal(final.order.status, 'declined');
  });

  it('cancel on the 3DS 1.0.2 page declines', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    const final = await shopper.complete(card('3ds1'), undefined, { cancel: true });
    assert.equal(final.order.status, 'declined');
  });

  it('a preauth session authorises with the preauth intent', async () => {
    const session = await createSession(be.url, { intent: 'preauth' });
    const shopper = new Shopper(be.url, session.token);
    const final = await shopper.complete(card('3ds2-challenge'));
    assert.equal(final.order.status, 'approved');
    assert.equal(final.order.intent, 'preauth');
  });
});
