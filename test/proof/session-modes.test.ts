/**
 * The modes a checkout session allows: hosted mode only from the merchant's origin, a direct-only
 * session refuses the hosted form and a hosted-only one the card; bad modes are 400s naming them;
 * attacked by hand against the in-process stack (sandbox and backend on loopback HTTP), each case
 * asserting that nothing changed: the order, its operations, the stored rows and the sandbox's
 * transactions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  CUSTOMER,
  card,
  createSession,
  MERCHANT_ORIGIN,
  payBody,
  Shopper,
  sandboxTransactions,
  uniqueOrderId,
} from './support/proof.js';
import { usePair } from './support/use-pair.js';

const { pair, api, everything } = usePair();

describe('hosted mode and the modes a session allows', () => {
  /** A widget call as a script on any page (or curl) would make it, with the Origin it chooses. */
  const widgetCall = async (token: string, path: string, origin?: string, body?: unknown) => {
    const res = await fetch(`${pair.be.url}/widget${path}`, {
      method: body === undefined && path === '/session' ? 'GET' : 'POST',
      headers: {
        Authorization: `Bearer ${token}`,
        ...(origin === undefined ? {} : { Origin: origin }),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON answers
    return { status: res.status, body: (await res.json()) as any };
  };
  it('/widget/hosted from evil.example or with no Origin: 403, the session stays open', async () => {
    const session = await createSession(pair.be.url);
    const before = await everything();
    for (const origin of ['https://evil.example', undefined, 'null']) {
      const res = await widgetCall(session.token, '/hosted', origin);
      assert.equal(res.status, 403, `${origin}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'forbidden');
    }
    assert.deepEqual(await everything(), before);
    assert.deepEqual(await sandboxTransactions(pair.sb, session.orderId), []);
    const view = await widgetCall(session.token, '/session', MERCHANT_ORIGIN);
    assert.equal(view.body.state, 'open');
    assert.equal(view.body.order, undefined);
    // The merchant's own page still gets the hosted form.
    const ok = await widgetCall(session.token, '/hosted', MERCHANT_ORIGIN);
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.action, 'redirect');
  });

  it('a direct-only session refuses /widget/hosted (409) and still takes the card', async () => {
    const session = await createSession(pair.be.url, { modes: ['direct'] });
    const view = await widgetCall(session.token, '/session', MERCHANT_ORIGIN);
    assert.deepEqual(view.body.modes, ['direct']);
    const before = await everything();
    const res = await widgetCall(session.token, '/hosted', MERCHANT_ORIGIN);
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.deepEqual(res.body.error, {
      code: 'conflict',
      message: 'This checkout session does not allow hosted mode (allowed: direct)',
      requestId: res.body.error.requestId,
    });
    assert.deepEqual(await everything(), before);
    assert.deepEqual(await sandboxTransactions(pair.sb, session.orderId), []);
    const final = await new Shopper(pair.be.url, session.token).complete(card('approved'));
    assert.equal(final.order.status, 'approved');
  });

  it('a hosted-only session refuses /widget/pay (409): no card reaches the gateway', async () => {
    const session = await createSession(pair.be.url, { modes: ['hosted'] });
    const view = await widgetCall(session.token, '/session', MERCHANT_ORIGIN);
    assert.deepEqual(view.body.modes, ['hosted']);
    const before = await everything();
    const res = await widgetCall(session.token, '/pay', MERCHANT_ORIGIN, payBody());
    assert.equal(res.status, 409, JSON.stringify(res.body));
    assert.equal(
      res.body.error.message,
      'This checkout session does not allow direct mode (allowed: hosted)',
    );
    assert.deepEqual(await everything(), before);
    assert.deepEqual(await sandboxTransactions(pair.sb, session.orderId), []);
    const hosted = await widgetCall(session.token, '/hosted', MERCHANT_ORIGIN);
    assert.equal(hosted.status, 200, JSON.stringify(hosted.body));
    assert.equal(hosted.body.action, 'redirect');
  });

  it('a session allows both modes unless told; bad modes are 400s naming modes', async () => {
    const session = await createSession(pair.be.url);
    const view = await widgetCall(session.token, '/session', MERCHANT_ORIGIN);
    assert.deepEqual(view.body.modes, ['direct', 'hosted']);
    const before = await everything();
    for (const [modes, field, message] of [
      [[], 'modes', 'modes: must name at least one mode'],
      [['card'], 'modes.0', undefined],
      [['direct', 'direct'], 'modes', 'modes: must not repeat a mode'],
      ['direct', 'modes', undefined],
    ] as const) {
      const res = await api('POST', '/v1/checkout-sessions', {
        amount: '1.00',
        currency: 'EUR',
        orderId: uniqueOrderId(),
        description: 'x',
        customer: CUSTOMER,
        modes,
      });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.field, field);
      if (message) assert.equal(res.body.error.message, message);
    }
    assert.deepEqual(await everything(), before);
  });
});
