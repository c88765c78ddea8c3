/**
 * A backend whose gateway is a sandbox says so everywhere a person or a program looks: readiness,
 * the merchant's orders and sessions, every webhook, the widget's session (the element's badge).
 * One with a real gateway says `live`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  type Backend,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../support/loopback-stack.js';
import { createSession, merchant, Shopper } from '../../support/widget-api-client.js';

describe('test mode', () => {
  let sb: Sandbox;
  let sandboxed: Backend;
  let live: Backend;
  before(async () => {
    sb = await startSandbox();
    const webhook = { url: 'http://127.0.0.1:9/hooks', secret: 'test-mode-webhook-secret-0123' };
    sandboxed = await startBackend(sb, { config: { testMode: true, webhook } });
    live = await startBackend(sb);
  });
  after(async () => {
    await sandboxed.close();
    await live.close();
    await sb.close();
  });

  it('a sandbox backend marks readiness, orders, sessions, webhooks and the widget session', async () => {
    const ready = await fetch(`${sandboxed.url}/readyz`);
    assert.equal(((await ready.json()) as { gateway: string }).gateway, 'sandbox');
    const session = await createSession(sandboxed.url);
    const shopper = new Shopper(sandboxed.url, session.token);
    assert.equal((await shopper.call('GET', '/session')).body.testMode, true);
    await shopper.complete({ pan: '4000000000000010' });
    const order = await merchant(sandboxed.url, 'GET', `/v1/orders/${session.orderId}`);
    assert.equal(order.body.livemode, false);
    const read = await merchant(sandboxed.url, 'GET', `/v1/checkout-sessions/${session.id}`);
    assert.deepEqual([read.body.livemode, read.body.order.livemode], [false, false]);
    const row = await sandboxed.store.orders.getByClientOrderId(session.orderId);
    const [event] = await sandboxed.store.webhooks.forOrder(row?.id ?? '');
    assert.ok(event);
    assert.equal(event.event, 'payment.declined');
    assert.equal(event.payload.livemode, false);
    assert.equal((event.payload.data as { order: { livemode: boolean } }).order.livemode, false);
  });

  it('a backend with its gateway says live, and the widget session has no test mark', async () => {
    const ready = await fetch(`${live.url}/readyz`);
    assert.equal(((await ready.json()) as { gateway: string }).gateway, 'live');
    const session = await createSession(live.url);
    const view = await new Shopper(live.url, session.token).call('GET', '/session');
    assert.equal(view.body.testMode, undefined);
    const order = await merchant(live.url, 'GET', `/v1/orders/${session.orderId}`);
    assert.equal(order.body.livemode, true);
  });
});
