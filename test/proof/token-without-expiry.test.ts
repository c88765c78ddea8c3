/**
 * A widget session token signed with the real secret but without an expiry is refused on every
 * widget route; attacked by hand against the in-process stack (sandbox and backend on loopback
 * HTTP), each case asserting that nothing changed: the order, its operations, the stored rows and
 * the sandbox's transactions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import jwt from 'jsonwebtoken';
import {
  card,
  createSession,
  JWT_SECRET,
  payBody,
  Shopper,
  sandboxTransactions,
} from './support/proof.js';
import { usePair } from './support/use-pair.js';

const { pair, everything } = usePair();

describe('a widget token without an expiry', () => {
  it('a session token signed with the real secret but without exp is refused everywhere', async () => {
    const session = await createSession(pair.be.url);
    const forever = jwt.sign(
      { sub: session.id, aud: 'pay-checkout-widget', iss: 'pay-checkout' },
      JWT_SECRET,
      { algorithm: 'HS256' },
    );
    assert.equal((jwt.decode(forever) as { exp?: number }).exp, undefined);
    // The same claims with an exp are accepted: only the missing expiry is refused.
    const bounded = jwt.sign(
      { sub: session.id, aud: 'pay-checkout-widget', iss: 'pay-checkout' },
      JWT_SECRET,
      { algorithm: 'HS256', expiresIn: 60 },
    );
    assert.equal((await new Shopper(pair.be.url, bounded).call('GET', '/session')).status, 200);
    const before = await everything();
    const shopper = new Shopper(pair.be.url, forever);
    for (const [method, path, body] of [
      ['GET', '/session'],
      ['GET', '/next?wait=0'],
      ['POST', '/hosted', {}],
      ['POST', '/cancel', { reason: 'shopper-left' }],
      ['POST', '/pay', payBody(card('approved').pan)],
      ['POST', '/extend', { expiresAt: new Date().toISOString() }],
    ] as const) {
      const res = await shopper.call(method, path, body);
      assert.equal(res.status, 401, `${method} ${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'unauthorized');
    }
    assert.deepEqual(await everything(), before);
    assert.deepEqual(await sandboxTransactions(pair.sb, session.orderId), []);
  });
});
