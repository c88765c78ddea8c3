/**
 * Webhooks outlive an outage: retried with a backoff capped at an hour, for three days; every
 * event can be listed (by type, order, delivery) and sent again.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { DEFAULT_TIMING } from '../../../../server/src/checkout/context.js';
import { nextTry } from '../../../../server/src/checkout/webhooks/webhooks.js';
import {
  type Backend,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../../support/loopback-stack.js';
import { createSession, merchant, Shopper } from '../../../support/widget-api-client.js';

const HOUR = 3_600_000;

describe('nextTry: the retry schedule', () => {
  const created = new Date(0);
  const delay = (attempts: number, now = 0) =>
    (nextTry(DEFAULT_TIMING, { createdAt: created }, attempts, now)?.getTime() ?? NaN) - now;

  it('doubles from 2 s, never waits more than an hour', () => {
    assert.deepEqual(
      [1, 2, 3, 8, 11, 12, 40].map((n) => delay(n)),
      [2_000, 4_000, 8_000, 256_000, 2_048_000, HOUR, HOUR],
    );
  });

  it('keeps trying for three days after the event, then gives up', () => {
    assert.equal(delay(60, 70 * HOUR), HOUR);
    assert.equal(delay(60, 71 * HOUR), HOUR, 'the last try falls on the 72nd hour');
    assert.equal(nextTry(DEFAULT_TIMING, { createdAt: created }, 61, 71 * HOUR + 1), null);
  });

  it('an event redelivered days after it was made gets the usual retries, counted from then', () => {
    const redeliveredAt = new Date(96 * HOUR);
    const at = (attempts: number, now: number) =>
      nextTry(DEFAULT_TIMING, { createdAt: created, redeliveredAt }, attempts, now)?.getTime();
    assert.equal(at(1, 96 * HOUR), 96 * HOUR + 2_000);
    assert.equal(at(60, 167 * HOUR), 168 * HOUR, 'the last try on the 72nd hour after it');
    assert.equal(at(61, 167 * HOUR + 1), undefined);
  });
});

describe('an endpoint down, then back', () => {
  let sb: Sandbox;
  let be: Backend;
  let hook: Server;
  let down = true;
  const received: { id: string; type: string; orderId: string }[] = [];
  let refused = 0;

  before(async () => {
    hook = createServer((req, res) => {
      let body = '';
      req.on('data', (c) => {
        body += c;
      });
      req.on('end', () => {
        if (down) {
          refused += 1;
          res.writeHead(503).end();
          return;
        }
        const event = JSON.parse(body) as {
          id: string;
          type: string;
          data: { order: { orderId: string } };
        };
        received.push({ id: event.id, type: event.type, orderId: event.data.order.orderId });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hook.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hooks`;
    sb = await startSandbox();
    be = await startBackend(sb, {
      config: { webhook: { url, secret: 'outage-webhook-secret-0123456789' } },
      // Each retry comes at once here; the schedule itself is nextTry's, above.
      timing: { webhookBackoffMs: 1, webhookBackoffCapMs: 1 },
    });
  });
  after(async () => {
    await be.close();
    await sb.close();
    hook.close();
  });

  const deliverAll = async (times: number) => {
    for (let i = 0; i < times; i++) {
      await be.checkout.deliverWebhooks();
      await new Promise((r) => setTimeout(r, 5));
    }
  };

  it('every event arrives once the endpoint is back, after more tries than the old limit of 8', async () => {
    const orders: string[] = [];
    for (const pan of ['4000000000000010', '4000000000000028', '4000000000000002']) {
      const session = await createSession(be.url);
      await new Shopper(be.url, session.token).complete({ pan });
      orders.push(session.orderId);
    }
    await deliverAll(12);
    assert.ok(refused >= 36, `every event was tried at least 12 times (${refused})`);
    const waiting = await merchant(be.url, 'GET', '/v1/events?delivered=false');
    assert.equal(waiting.body.events.length, 3);
    for (const event of waiting.body.events) {
      assert.equal(event.delivery.delivered, false);
      assert.equal(event.delivery.failedAt, null);
      assert.ok(event.delivery.attempts >= 12);
      assert.equal(event.delivery.lastError, 'HTTP 503');
    }
    down = false;
    await deliverAll(3);
    assert.deepEqual(
      received.map((e) => [e.orderId, e.type]).sort(),
      [
        [orders[0], 'payment.declined'],
        [orders[1], 'payment.declined'],
        [orders[2], 'order.approved'],
      ].sort(),
    );
    assert.equal(new Set(received.map((e) => e.id)).size, 3, 'each once');
    const none = await merchant(be.url, 'GET', '/v1/events?delivered=false');
    assert.deepEqual(none.body.events, []);
  });

  it('lists by order and type with a cursor, and sends one again on request', async () => {
    const all = await merchant(be.url, 'GET', '/v1/events?limit=2');
    assert.equal(all.status, 200);
    assert.equal(all.body.events.length, 2);
    assert.ok(all.body.nextCursor);
    const rest = await merchant(be.url, 'GET', `/v1/events?limit=2&cursor=${all.body.nextCursor}`);
    assert.equal(rest.body.events.length, 1);
    assert.equal(rest.body.nextCursor, null);
    const approved = await merchant(be.url, 'GET', '/v1/events?type=order.approved');
    assert.equal(approved.body.events.length, 1);
    const [event] = approved.body.events;
    assert.equal(event.delivery.delivered, true);
    const byOrder = await merchant(be.url, 'GET', `/v1/events?orderId=${event.data.order.orderId}`);
    assert.deepEqual(
      byOrder.body.events.map((e: { id: string }) => e.id),
      [event.id],
    );

    const again = await merchant(be.url, 'POST', `/v1/events/${event.id}/redeliver`, {});
    assert.equal(again.status, 202);
    assert.equal(again.body.delivery.delivered, false);
    await deliverAll(2);
    assert.equal(received.filter((e) => e.id === event.id).length, 2);

    // Four days old and given up: redelivered to an endpoint down again, it is not given up
    // after one try (its retries count from the redelivery, attempts from 0).
    await be.store.db.query(
      `update merchant_webhooks set created_at = now() - interval '4 days',
         failed_at = now(), attempts = 61 where payload->>'id' = $1`,
      [event.id],
    );
    down = true;
    try {
      const redelivered = await merchant(be.url, 'POST', `/v1/events/${event.id}/redeliver`, {});
      assert.equal(redelivered.body.delivery.attempts, 0);
      await deliverAll(2);
      const [after] = (await merchant(be.url, 'GET', `/v1/events?type=order.approved`)).body.events;
      assert.equal(after.delivery.failedAt, null, JSON.stringify(after.delivery));
      assert.equal(after.delivery.attempts, 2);
      assert.ok(after.delivery.nextAttemptAt);
    } finally {
      down = false;
    }
    await deliverAll(1);
    assert.equal(received.filter((e) => e.id === event.id).length, 3);

    const missing = await merchant(be.url, 'POST', '/v1/events/no-such-event/redeliver', {});
    assert.equal(missing.status, 404);
    const bad = await merchant(be.url, 'GET', '/v1/events?delivered=maybe');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.field, 'delivered');
  });
});
