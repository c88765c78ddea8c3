import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CheckoutStore } from '../../../server/src/store/index.js';
import { engines } from './engines.js';

for (const engine of engines()) {
  describe(`merchant webhooks on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    test('enqueue, due (leased), delivered; failures retry later or give up', async () => {
      const a = await store.webhooks.enqueue({
        event: 'order.approved',
        payload: { orderId: 'A', amountMinor: 100 },
        orderId: 'A',
      });
      const b = await store.webhooks.enqueue({
        event: 'order.declined',
        payload: { orderId: 'B' },
      });
      const later = await store.webhooks.enqueue({
        event: 'order.approved',
        payload: {},
        notBefore: new Date(Date.now() + 3600_000),
      });
      assert.equal(a.attempts, 0);
      assert.deepEqual(a.payload, { orderId: 'A', amountMinor: 100 });

      const due = await store.webhooks.due({ limit: 10, leaseSeconds: 60 });
      assert.deepEqual(
        due.map((w) => w.id),
        [a.id, b.id],
      );
      // Leased: a second poller gets nothing until the lease ends.
      assert.deepEqual(await store.webhooks.due(), []);

      assert.equal(await store.webhooks.markDelivered(a.id), true);
      assert.equal(await store.webhooks.markDelivered(a.id), false);
      const delivered = await store.webhooks.get(a.id);
      assert.equal(delivered?.attempts, 1);
      assert.ok(delivered?.deliveredAt instanceof Date);

      const retryAt = new Date(Date.now() - 1000);
      const failed = await store.webhooks.markFailed(b.id, { error: 'HTTP 503', retryAt });
      assert.equal(failed?.attempts, 1);
      assert.equal(failed?.lastError, 'HTTP 503');
      assert.equal(failed?.nextAttemptAt.getTime(), retryAt.getTime());
      assert.equal(failed?.failedAt, null);
      assert.deepEqual(
        (await store.webhooks.due()).map((w) => w.id),
        [b.id],
      );
      const gaveUp = await store.webhooks.markFailed(b.id, { error: 'HTTP 500', retryAt: null });
      assert.equal(gaveUp?.attempts, 2);
      assert.ok(gaveUp?.failedAt instanceof Date);
      await store.db.query(
        `update merchant_webhooks set next_attempt_at = now() - interval '1 hour'`,
      );
      // Delivered and given-up webhooks never come due again; `later` now does.
      assert.deepEqual(
        (await store.webhooks.due()).map((w) => w.id),
        [later.id],
      );
      assert.deepEqual(
        (await store.webhooks.forOrder('A')).map((w) => w.id),
        [a.id],
      );
    });

    test('concurrent pollers never take the same webhook', async () => {
      const ids = [];
      for (let i = 0; i < 10; i++) {
        ids.push((await store.webhooks.enqueue({ event: 'e', payload: { i } })).id);
      }
      const batches = await Promise.all([
        store.webhooks.due({ limit: 6 }),
        store.webhooks.due({ limit: 6 }),
        store.webhooks.due({ limit: 6 }),
      ]);
      const taken = batches.flat().map((w) => w.id);
      assert.equal(new Set(taken).size, taken.length);
      assert.deepEqual([...taken].sort(), [...ids].sort());
    });

    /** Makes an event `days` days old, as the retention purge sees it. */
    const backdate = (id: string, days: number) =>
      store.db.query(
        `update merchant_webhooks
         set created_at = now() - make_interval(days => $2), next_attempt_at = now() - interval '1 hour'
         where id = $1`,
        [id, days],
      );

    test('kept with no endpoint: listed, never due, not in the backlog; a redelivery sends it', async () => {
      const backlog = (await store.webhooks.undeliveredBacklog()).count;
      const kept = await store.webhooks.enqueue({
        event: 'order.approved',
        payload: { id: 'event-kept-1', data: { order: { orderId: 'KEPT-1' } } },
        orderId: null,
        notConfigured: true,
      });
      assert.equal(kept.notConfigured, true);
      await backdate(kept.id, 0);
      assert.equal((await store.webhooks.undeliveredBacklog()).count, backlog);
      assert.ok(!(await store.webhooks.due({ limit: 100 })).some((w) => w.id === kept.id));
      const page = await store.webhooks.list({ orderId: 'KEPT-1', limit: 10 });
      assert.deepEqual(
        page.events.map((e) => [e.id, e.notConfigured, e.attempts, e.deliveredAt, e.failedAt]),
        [[kept.id, true, 0, null, null]],
      );
      const again = await store.webhooks.redeliver(kept.id);
      assert.equal(again?.notConfigured, false);
      assert.ok((await store.webhooks.due({ limit: 100 })).some((w) => w.id === kept.id));
    });

    test('the purge deletes done-with events past the retention, never a younger one or one still retried', async () => {
      const make = (notConfigured = false) =>
        store.webhooks.enqueue({ event: 'order.approved', payload: {}, notConfigured });
      const oldKept = await make(true);
      const oldDelivered = await make();
      await store.webhooks.markDelivered(oldDelivered.id);
      const oldFailed = await make();
      await store.webhooks.markFailed(oldFailed.id, { error: 'HTTP 500', retryAt: null });
      const oldRetried = await make();
      const youngKept = await make(true);
      const youngDelivered = await make();
      await store.webhooks.markDelivered(youngDelivered.id);
      for (const old of [oldKept, oldDelivered, oldFailed, oldRetried]) await backdate(old.id, 31);
      for (const young of [youngKept, youngDelivered]) await backdate(young.id, 29);
      // Made 31 days ago, asked for again today: within its retry window.
      await store.webhooks.redeliver(oldRetried.id);

      // Batches of 2: the purge goes on until a batch comes back short.
      assert.equal(await store.webhooks.purgeOlderThan(30, 2), 3);
      const left = async (id: string) => (await store.webhooks.get(id)) !== null;
      assert.deepEqual(
        await Promise.all([oldKept, oldDelivered, oldFailed].map((w) => left(w.id))),
        [false, false, false],
      );
      assert.deepEqual(
        await Promise.all([oldRetried, youngKept, youngDelivered].map((w) => left(w.id))),
        [true, true, true],
      );
      assert.equal(await store.webhooks.purgeOlderThan(30), 0);
    });
  });
}
