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
  });
}
