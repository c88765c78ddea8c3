/**
 * GET /gateway-page/{ref}: the gateway's 3DS `html`, served from the backend's origin under its
 * own strict CSP, only to whoever holds the order's return ref, only while that page is the
 * order's next step.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import { writeFlow } from '../../../../server/src/checkout/following/flow-state.js';
import type { StoredAction } from '../../../../server/src/checkout/following/next-action.js';
import { gatewayPageUrl } from '../../../../server/src/checkout/payments/urls.js';
import { MERCHANT_ORIGIN } from '../../../support/loopback-stack.js';
import { uniqueOrderId } from '../../../support/widget-api-client.js';
import { storedOrderBackend } from '../stored-order.js';

const GATEWAY_HTML =
  '<form method="POST" action="https://acs.bank.example/challenge"><input type="hidden" name="creq" value="abc"></form><script>document.forms[0].submit()</script>';

const EXPECTED_CSP =
  "default-src 'none'; script-src 'unsafe-inline' https:; style-src 'unsafe-inline' https:; " +
  "img-src https: data:; form-action https: http://127.0.0.1:* http://localhost:*; base-uri 'none'; " +
  `sandbox allow-forms allow-scripts; frame-ancestors 'self' ${MERCHANT_ORIGIN}`;

describe('gateway page', () => {
  const stack = storedOrderBackend();
  const { orderWith } = stack;

  const htmlAction = (ref: string): StoredAction => ({
    action: 'html',
    url: gatewayPageUrl(stack.be.url, ref),
    html: GATEWAY_HTML,
  });

  it("serves the order's gateway html with a strict CSP, frameable by the merchant only, never cached", async () => {
    const ref = randomBytes(32).toString('base64url');
    const order = await stack.be.store.orders.create({
      clientOrderId: uniqueOrderId('gwpage'),
      intent: 'sale',
      amountMinor: 1042,
      currency: 'EUR',
      returnRef: ref,
      nextAction: writeFlow({ next: htmlAction(ref), answered: [] }),
    });
    await stack.be.store.orders.transition(order.id, { from: ['new'], to: 'processing' });
    const res = await fetch(`${stack.be.url}/gateway-page/${ref}`);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), GATEWAY_HTML);
    assert.equal(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(res.headers.get('content-security-policy'), EXPECTED_CSP);
    assert.equal(res.headers.get('cache-control'), 'no-store');
    // Framing is decided by frame-ancestors alone (an X-Frame-Options would forbid the merchant).
    assert.equal(res.headers.get('x-frame-options'), null);
    // The ref is the page's only key: it must not leak to the ACS as a Referer.
    assert.equal(res.headers.get('referrer-policy'), 'no-referrer');
    assert.equal(res.headers.get('x-content-type-options'), 'nosniff');
    // The widget's URL for it is this very page.
    assert.equal(gatewayPageUrl(stack.be.url, ref), `${stack.be.url}/gateway-page/${ref}`);
  });

  it('answers 404 for an unknown or malformed ref, a finished order, or an order past that page', async () => {
    const refs: string[] = [
      randomBytes(32).toString('base64url'),
      'short',
      '..%2F..%2Fetc',
      'a'.repeat(101),
    ];
    const finished = await orderWith({ action: 'html', url: 'x', html: GATEWAY_HTML }, 'approved');
    const moved = await orderWith({ action: 'wait', retryAfterMs: 1000 });
    refs.push(finished.returnRef, moved.returnRef);
    for (const ref of refs) {
      const res = await fetch(`${stack.be.url}/gateway-page/${ref}`);
      assert.equal(res.status, 404, ref);
      assert.equal(res.headers.get('cache-control'), 'no-store', ref);
      assert.equal(await res.text(), 'No page here.', ref);
    }
  });

  it('is GET only', async () => {
    const order = await orderWith({ action: 'wait', retryAfterMs: 1000 });
    await stack.be.store.orders.transition(order.id, {
      from: ['processing'],
      to: 'processing',
      patch: { nextAction: writeFlow({ next: htmlAction(order.returnRef), answered: [] }) },
    });
    assert.equal((await fetch(`${stack.be.url}/gateway-page/${order.returnRef}`)).status, 200);
    const post = await fetch(`${stack.be.url}/gateway-page/${order.returnRef}`, { method: 'POST' });
    assert.equal(post.status, 404);
    assert.doesNotMatch(await post.text(), /acs\.bank\.example/);
  });
});
