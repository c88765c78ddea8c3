/**
 * The remaining routes, in-process with supertest: health, readiness, cancel, the hosted-form
 * mode of the widget, and unknown routes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import request from 'supertest';
import {
  type Backend,
  MERCHANT_ORIGIN,
  type Sandbox,
  startBackend,
  withSandboxAndBackend,
} from '../../../support/loopback-stack.js';
import { createSession, Shopper } from '../../../support/widget-api-client.js';

describe('health, cancel, hosted mode', () => {
  let sb: Sandbox;
  let be: Backend;
  withSandboxAndBackend((started) => {
    ({ sb, be } = started);
  });

  it('answers /healthz and /readyz with a strict CSP', async () => {
    const health = await request(be.checkout.app).get('/healthz');
    assert.equal(health.status, 200);
    assert.deepEqual(health.body, { status: 'ok' });
    assert.match(health.headers['content-security-policy'] ?? '', /default-src 'none'/);
    const ready = await request(be.checkout.app).get('/readyz');
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body.checks, { store: 'ok', gateway: 'ok', shuttingDown: false });
    assert.ok(ready.headers['x-request-id']);
  });

  it('is not ready when the gateway is unreachable', async () => {
    const other = await startBackend(sb, {
      config: { gateway: { ...be.config.gateway, url: 'http://127.0.0.1:9/paynet' } },
    });
    try {
      const ready = await request(other.checkout.app).get('/readyz');
      assert.equal(ready.status, 503);
      assert.equal(ready.body.checks.gateway, 'unreachable');
    } finally {
      await other.close();
    }
  });

  it('unknown routes are 404 with the error shape', async () => {
    const res = await request(be.checkout.app).get('/nope');
    assert.equal(res.status, 404);
    assert.equal(res.body.error.code, 'not-found');
  });

  it('cancel leaves the attempt during a challenge: the session takes another, the order stays as the gateway has it', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    const method = await shopper.until(await shopper.pay({ pan: '4000000000000051' }));
    assert.equal(method.action, 'method');
    const challenge = await shopper.until(await shopper.methodResult('U'));
    assert.equal(challenge.action, 'challenge');
    const res = await request(be.checkout.app)
      .post('/widget/cancel')
      .set('Authorization', `Bearer ${session.token}`)
      .set('Origin', MERCHANT_ORIGIN)
      .send({ reason: 'challenge-cancelled' });
    assert.equal(res.status, 200);
    assert.equal(res.body.action, 'final');
    assert.equal(res.body.order.orderId, session.orderId);
    assert.equal(res.body.order.status, 'processing');
    assert.equal(res.body.order.abandoned, true);
    assert.equal(res.body.order.attemptsLeft, 4);
    const view = await shopper.call('GET', '/session');
    assert.equal(view.body.state, 'open');
    // The left attempt is still the gateway's: nothing sends it again, and /next is done with it.
    const next = await shopper.call('GET', '/next?wait=0');
    assert.equal(next.body.action, 'final');
    const bad = await request(be.checkout.app)
      .post('/widget/cancel')
      .set('Authorization', `Bearer ${session.token}`)
      .send({ reason: 'bored' });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.field, 'reason');
  });

  it('hosted mode sends the shopper to the gateway form, and a second call answers the same', async () => {
    const session = await createSession(be.url);
    const call = () =>
      request(be.checkout.app)
        .post('/widget/hosted')
        .set('Authorization', `Bearer ${session.token}`)
        .set('Origin', MERCHANT_ORIGIN)
        .send({});
    const first = await call();
    assert.equal(first.status, 200, JSON.stringify(first.body));
    assert.equal(first.body.action, 'redirect');
    assert.ok(String(first.body.url).startsWith(sb.origin));
    const second = await call();
    assert.equal(second.body.order.orderId, session.orderId);
    const pay = await new Shopper(be.url, session.token).call('POST', '/pay', {
      card: {
        number: '4000000000000002',
        expMonth: '12',
        expYear: '2030',
        cvc: '123',
        holder: 'A',
      },
      browser: (await import('../../../support/widget-api-client.js')).BROWSER,
    });
    assert.equal(pay.body.order.orderId, session.orderId);
  });

  it('next before any payment is a 409; wait beyond 25 is a 400', async () => {
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    assert.equal((await shopper.call('GET', '/next?wait=1')).status, 409);
    const res = await shopper.call('GET', '/next?wait=60');
    assert.equal(res.status, 400);
    assert.equal(res.body.error.field, 'wait');
  });
});
