/** `GET /metrics`: behind its own token, off without one, and a payment's counters move. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Backend,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../support/loopback-stack.js';
import { createSession, Shopper } from '../../support/widget-api-client.js';

const TOKEN = 'metrics-token-0123456789';

describe('metrics', () => {
  let sb: Sandbox;
  let be: Backend;
  let off: Backend;
  before(async () => {
    sb = await startSandbox();
    be = await startBackend(sb, { config: { metricsToken: TOKEN } });
    off = await startBackend(sb);
  });
  after(async () => {
    await be.close();
    await off.close();
    await sb.close();
  });

  const scrape = async (token = TOKEN) => {
    const res = await fetch(`${be.url}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
    return { status: res.status, type: res.headers.get('content-type'), text: await res.text() };
  };
  /** The value of one series, 0 when it is not there yet. */
  const value = (text: string, series: string) => {
    const line = text.split('\n').find((l) => l.startsWith(`${series} `));
    return line ? Number(line.slice(series.length + 1)) : 0;
  };

  it('answers only with its token, and not at all without one configured', async () => {
    assert.equal((await fetch(`${be.url}/metrics`)).status, 401);
    assert.equal((await scrape('wrong-token-0123456789')).status, 401);
    const ok = await scrape();
    assert.equal(ok.status, 200);
    assert.match(ok.type ?? '', /^text\/plain; version=0\.0\.4/);
    assert.match(ok.text, /^process_resident_memory_bytes \d+/m);
    assert.equal((await fetch(`${off.url}/metrics`)).status, 404);
  });

  it("a payment's counters move: outcome, 3-D Secure path, attempts, gateway calls", async () => {
    const before = (await scrape()).text;
    const declined = 'pay_checkout_payments_total{outcome="declined",three_ds="none"}';
    const challenged = 'pay_checkout_payments_total{outcome="approved",three_ds="challenge"}';
    const sales = 'pay_checkout_gateway_request_duration_seconds_count{operation="sale"}';
    const session = await createSession(be.url);
    const shopper = new Shopper(be.url, session.token);
    assert.equal((await shopper.complete({ pan: '4000000000000010' })).order.status, 'declined');
    const paid = await shopper.complete({ pan: '4000000000000051' }, undefined, { otp: '1234' });
    assert.equal(paid.order.status, 'approved');
    await be.checkout.reconcile(0);
    const now = (await scrape()).text;
    assert.equal(value(now, declined) - value(before, declined), 1);
    assert.equal(value(now, challenged) - value(before, challenged), 1);
    assert.equal(value(now, sales) - value(before, sales), 2);
    // Approved on its second attempt.
    const count = 'pay_checkout_attempts_per_order_count';
    const twoOrFewer = 'pay_checkout_attempts_per_order_bucket{le="2"}';
    const one = 'pay_checkout_attempts_per_order_bucket{le="1"}';
    assert.equal(value(now, count) - value(before, count), 1);
    assert.equal(value(now, twoOrFewer) - value(before, twoOrFewer), 1);
    assert.equal(value(now, one) - value(before, one), 0);
    assert.ok(value(now, 'pay_checkout_reconciler_passes_total') >= 1);
    assert.equal(value(now, 'pay_checkout_operations_unknown'), 0);
    assert.equal(value(now, 'pay_checkout_webhooks_undelivered'), 0);
  });
});
