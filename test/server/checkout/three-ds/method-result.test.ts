/**
 * The 3DS Method result (`POST /widget/method-result`): `U` says there was no Method URL, so for
 * an order that has one it is a 400 naming `threeDSCompInd`, and nothing reaches the gateway
 * (round-4 review, R4-L5); a later `N` goes on as usual.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Backend, withSandboxAndBackend } from '../../../support/loopback-stack.js';
import { BROWSER, createSession, Shopper, testCard } from '../../../support/widget-api-client.js';

describe('the 3DS Method result', () => {
  let be: Backend;
  /** The backend's calls to the gateway, by path. */
  const sent: string[] = [];
  withSandboxAndBackend(
    (started) => {
      ({ be } = started);
    },
    {
      gatewayFetch: (url, init) => {
        sent.push(new URL(url).pathname);
        return fetch(url, init);
      },
    },
  );

  it('U for an order with a Method URL: a 400 naming threeDSCompInd, nothing sent', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    const method = await shopper.until(await shopper.pay(testCard('3ds2-challenge')));
    assert.equal(method.action, 'method');
    assert.ok(method.action === 'method' && method.methodUrl);
    const before = sent.length;
    for (let i = 0; i < 2; i++) {
      const refused = await shopper.call('POST', '/method-result', {
        threeDSCompInd: 'U',
        browser: BROWSER,
      });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, 'validation');
      assert.equal(refused.body.error.field, 'threeDSCompInd');
    }
    assert.deepEqual(sent.slice(before), [], 'no gateway call');
    const next = await shopper.until(await shopper.methodResult('N'));
    assert.equal(next.action, 'challenge');
  });
});
