/**
 * A payment outlives its session's token: a shopper who spends longer than the session in a
 * 3-D Secure challenge still sees the order through, and sees the result for a grace period after
 * it ended; an expired token never starts a payment.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import jwt from 'jsonwebtoken';
import {
  AFTER_EXPIRY_MAX_MS,
  FINISHED_ORDER_GRACE_MS,
} from '../../../../../server/src/checkout/http/widget-api/router.js';
import {
  type Backend,
  JWT_SECRET,
  withSandboxAndBackend,
} from '../../../../support/loopback-stack.js';
import { createSession, runChallenge, Shopper } from '../../../../support/widget-api-client.js';

/** The session's own token as it will be `agoSeconds` after the session's 30 minutes. */
function expiredToken(sessionId: string, agoSeconds = 60): string {
  return jwt.sign(
    {
      sub: sessionId,
      aud: 'pay-checkout-widget',
      iss: 'pay-checkout',
      exp: Math.floor(Date.now() / 1000) - agoSeconds,
    },
    JWT_SECRET,
    { algorithm: 'HS256' },
  );
}

describe('the session token and a payment in flight', () => {
  let be: Backend;
  withSandboxAndBackend((started) => {
    ({ be } = started);
  });

  it('an expired token follows its challenge to the end, then reads the result for a grace period', async () => {
    const session = await createSession(be.url);
    const fresh = new Shopper(be.url, session.token);
    const challenge = await fresh.until(await fresh.pay({ pan: '4000000000000051' }));
    assert.equal(challenge.action, 'method');
    const late = new Shopper(be.url, expiredToken(session.id));
    const open = await late.until(await late.methodResult('U'));
    assert.equal(open.action, 'challenge');
    if (open.action !== 'challenge') return;
    // Hours after its expiry a token is done, even with the order still in flight.
    const ancient = new Shopper(be.url, expiredToken(session.id, AFTER_EXPIRY_MAX_MS / 1000 + 60));
    const refused = await ancient.call('GET', '/next?wait=0');
    assert.equal(refused.status, 401);
    assert.equal(refused.body.error.code, 'session-expired');
    // Starting a payment is never allowed on an expired token.
    const pay = await late.call('POST', '/pay', {});
    assert.equal(pay.status, 401);
    assert.equal(pay.body.error.code, 'session-expired');

    await runChallenge(open.acsUrl, { creq: open.creq }, '1234');
    const final = await late.until(await late.next(2));
    assert.equal(final.action, 'final');
    assert.equal(final.order.status, 'approved');
    const read = await late.call('GET', '/session');
    assert.equal(read.status, 200);
    assert.equal(read.body.order.status, 'approved');

    // Once the grace period after the final status is over, the token is done.
    await be.store.db.query(
      `update orders set updated_at = now() - make_interval(secs => $2) where client_orderid = $1`,
      [session.orderId, FINISHED_ORDER_GRACE_MS / 1000 + 1],
    );
    const gone = await late.call('GET', '/session');
    assert.equal(gone.status, 401);
    assert.equal(gone.body.error.code, 'session-expired');
  });

  it('an expired token of a session with nothing paid is refused', async () => {
    const session = await createSession(be.url);
    const res = await new Shopper(be.url, expiredToken(session.id)).call('GET', '/session');
    assert.equal(res.status, 401);
    assert.equal(res.body.error.code, 'session-expired');
  });
});
