/**
 * Events are kept with no WEBHOOK_URL: `GET /v1/events` is a feed the shop polls, each event
 * `not-configured` and never sent (nor once a URL is configured later); EVENT_RETENTION_DAYS
 * purges the old ones. On PGlite, and on PostgreSQL when TEST_DATABASE_URL is set.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CheckoutStore } from '../../../../server/src/store/index.js';
import {
  type Backend,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../../support/loopback-stack.js';
import { pgliteStore, postgresStore, type TestStore } from '../../../support/stores.js';
import { createSession, merchant, Shopper } from '../../../support/widget-api-client.js';

const APPROVED = '4000000000000002';

const stores: TestStore[] = [pgliteStore()];
if (process.env.TEST_DATABASE_URL) stores.push(postgresStore('events_kept'));

for (const testStore of stores) {
  describe(`events kept without WEBHOOK_URL (${testStore.kind})`, () => {
    let sb: Sandbox;
    let store: CheckoutStore;
    let be: Backend;
    const posted: string[] = [];
    const webhookFetch: typeof fetch = async (input) => {
      posted.push(String(input));
      return new Response(null, { status: 204 });
    };

    before(async () => {
      sb = await startSandbox();
      store = await testStore.open();
      be = await startBackend(sb, { store, webhookFetch, config: { eventRetentionDays: 10 } });
    });
    after(async () => {
      await be.close();
      await store.close();
      await sb.close();
      await testStore.cleanup();
    });

    const pay = async () => {
      const session = await createSession(be.url);
      const final = await new Shopper(be.url, session.token).complete({ pan: APPROVED });
      assert.equal(final.action, 'final');
      return session.orderId;
    };
    const eventsOf = async (orderId: string) => {
      const res = await merchant(be.url, 'GET', `/v1/events?orderId=${orderId}`);
      assert.equal(res.status, 200);
      return res.body.events as {
        id: string;
        type: string;
        data: { order: { orderId: string; status: string } };
        delivery: Record<string, unknown>;
      }[];
    };

    it("lists an approved payment's order.approved, not configured, and sends nothing", async () => {
      const orderId = await pay();
      const [event, ...more] = await eventsOf(orderId);
      assert.deepEqual(more, []);
      assert.equal(event?.type, 'order.approved');
      assert.equal(event?.data.order.orderId, orderId);
      assert.equal(event?.data.order.status, 'approved');
      assert.deepEqual(event?.delivery, {
        state: 'not-configured',
        delivered: false,
        deliveredAt: null,
        attempts: 0,
        nextAttemptAt: null,
        failedAt: null,
        lastError: null,
      });

      // The feed, unfiltered, has it too (newest first).
      const feed = await merchant(be.url, 'GET', '/v1/events?limit=1');
      assert.equal(feed.body.events[0].id, event?.id);

      assert.equal(await be.checkout.deliverWebhooks(), 0);
      assert.deepEqual(posted, []);
      assert.equal((await store.webhooks.undeliveredBacklog()).count, 0);
      const redeliver = await merchant(be.url, 'POST', `/v1/events/${event?.id}/redeliver`, {});
      assert.equal(redeliver.status, 409);
      assert.deepEqual(posted, []);
    });

    it('the purge removes an event older than the retention and keeps a younger one', async () => {
      const old = await pay();
      const young = await pay();
      const [oldEvent] = await eventsOf(old);
      const [youngEvent] = await eventsOf(young);
      const age = (eventId: string | undefined, days: number) =>
        store.db.query(
          `update merchant_webhooks set created_at = now() - make_interval(days => $2)
           where payload->>'id' = $1`,
          [eventId, days],
        );
      // eventRetentionDays is 10 here.
      await age(oldEvent?.id, 11);
      await age(youngEvent?.id, 9);
      assert.equal(await be.checkout.purgeEvents(), 1);
      assert.deepEqual(await eventsOf(old), []);
      assert.deepEqual(
        (await eventsOf(young)).map((e) => e.id),
        [youngEvent?.id],
      );
    });

    it('a WEBHOOK_URL configured later sends what comes next, not what was kept before', async () => {
      const kept = await pay();
      const [keptEvent] = await eventsOf(kept);
      await be.close();
      be = await startBackend(sb, {
        store,
        webhookFetch,
        config: {
          eventRetentionDays: 10,
          webhook: { url: 'http://127.0.0.1:9/hooks', secret: 'events-kept-secret-0123456789' },
        },
      });
      assert.equal(await be.checkout.deliverWebhooks(), 0);
      assert.deepEqual(posted, []);

      const sent = await pay();
      assert.equal(await be.checkout.deliverWebhooks(), 1);
      assert.equal(posted.length, 1);
      const [sentEvent] = await eventsOf(sent);
      assert.equal(sentEvent?.delivery.state, 'delivered');
      assert.equal((await eventsOf(kept))[0]?.delivery.state, 'not-configured');

      // The shop may still ask for a kept one.
      const redeliver = await merchant(be.url, 'POST', `/v1/events/${keptEvent?.id}/redeliver`, {});
      assert.equal(redeliver.status, 202);
      assert.equal(redeliver.body.delivery.state, 'pending');
      assert.equal(await be.checkout.deliverWebhooks(), 1);
      assert.equal(posted.length, 2);
      assert.equal((await eventsOf(kept))[0]?.delivery.state, 'delivered');
    });
  });
}
