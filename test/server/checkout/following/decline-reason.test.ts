/**
 * What a shopper is told of a decline: the backend turns the gateway's code into a reason the
 * element has words for, and sends it with the order; codes that point at fraud or say nothing a
 * shopper can act on have none.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { declineReason } from '../../../../server/src/checkout/following/decline-reason.js';
import { type Backend, withSandboxAndBackend } from '../../../support/loopback-stack.js';
import { testCard as card, createSession, Shopper } from '../../../support/widget-api-client.js';

describe('decline reasons', () => {
  it('a code the shopper can act on has a reason; fraud codes and unknown ones none', () => {
    assert.deepEqual(
      ['51', '33', '54', '57', '58', '62', '61', '65', 'N7', '82', '19', '91', '96'].map(
        declineReason,
      ),
      [
        'funds',
        'expired',
        'expired',
        'not-permitted',
        'not-permitted',
        'not-permitted',
        'limit',
        'limit',
        'cvc',
        'cvc',
        'try-later',
        'try-later',
        'try-later',
      ],
    );
    // Lost, stolen, pick up, "do not honour", and no code at all.
    for (const code of ['41', '43', '04', '05', '', null, undefined])
      assert.equal(declineReason(code), undefined, String(code));
  });

  describe('sent to the widget with the order', () => {
    let be: Backend;
    withSandboxAndBackend((started) => {
      ({ be } = started);
    });

    it('insufficient funds: errorCode 51 and declineReason funds; an approval has none', async () => {
      const declined = await createSession(be.url);
      const final = await new Shopper(be.url, declined.token).complete(card('insufficient-funds'));
      assert.equal(final.action, 'final');
      assert.equal(final.order.status, 'declined');
      assert.equal(final.order.errorCode, '51');
      assert.equal(final.order.declineReason, 'funds');

      const approved = await createSession(be.url);
      const paid = await new Shopper(be.url, approved.token).complete(card('approved'));
      assert.equal(paid.order.status, 'approved');
      assert.equal(paid.order.declineReason, undefined);
    });
  });
});
