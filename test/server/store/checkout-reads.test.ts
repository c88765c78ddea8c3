/**
 * What checkout once asked the database itself, now repository methods: the order lock of a money
 * operation, the metrics backlogs and the readiness ping.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CheckoutStore } from '../../../server/src/store/index.js';
import { engines } from './engines.js';

for (const engine of engines()) {
  describe(`checkout's reads on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    test('lockForMoneyOperation answers the order and holds it until the transaction ends', async () => {
      const order = await store.orders.create({
        clientOrderId: `lock-${process.pid}`,
        intent: 'preauth',
        amountMinor: 1000,
        currency: 'EUR',
      });
      await store.orders.transition(order.id, { from: ['new'], to: 'approved' });
      const events: string[] = [];
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked = () => {};
      const firstLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const first = store.transaction(async (tx) => {
        const row = await tx.orders.lockForMoneyOperation(order.id);
        assert.equal(row?.status, 'approved');
        events.push('first locked');
        locked();
        await held;
        await tx.orders.recordCapture(order.id, 600);
        events.push('first captured');
      });
      await firstLocked;
      const second = store.transaction(async (tx) => {
        const row = await tx.orders.lockForMoneyOperation(order.id);
        events.push('second locked');
        return row;
      });
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      await first;
      const seen = await second;
      assert.deepEqual(events, ['first locked', 'first captured', 'second locked']);
      // The second sees what the first committed under the lock.
      assert.equal(seen?.capturedMinor, 600);
      assert.equal(seen?.version, 3);
      assert.equal(await store.transaction((tx) => tx.orders.lockForMoneyOperation('none')), null);
    });

    test('the backlogs count what waits and age the oldest', async () => {
      assert.deepEqual(await store.operations.unknownBacklog(), { count: 0, oldestSeconds: 0 });
      const ids: string[] = [];
      for (const clientId of ['bl-1', 'bl-2', 'bl-3']) {
        ids.push((await store.operations.create({ kind: 'card-ref', clientId })).id);
      }
      await store.operations.transition(ids[0] as string, { from: ['new'], to: 'unknown' });
      await store.operations.transition(ids[1] as string, { from: ['new'], to: 'unknown' });
      await store.db.query(
        `update merchant_operations set updated_at = now() - interval '90 seconds' where id = $1`,
        [ids[0]],
      );
      const operations = await store.operations.unknownBacklog();
      assert.equal(operations.count, 2);
      assert.ok(
        operations.oldestSeconds >= 90 && operations.oldestSeconds < 120,
        `${operations.oldestSeconds}`,
      );

      const before = await store.webhooks.undeliveredBacklog();
      const a = await store.webhooks.enqueue({ event: 'order.approved', payload: {} });
      const b = await store.webhooks.enqueue({ event: 'order.declined', payload: {} });
      const c = await store.webhooks.enqueue({ event: 'order.declined', payload: {} });
      await store.webhooks.markDelivered(a.id);
      await store.webhooks.markFailed(b.id, { error: 'gone', retryAt: null });
      await store.db.query(
        `update merchant_webhooks set created_at = now() - interval '1 hour' where id = $1`,
        [c.id],
      );
      const webhooks = await store.webhooks.undeliveredBacklog();
      assert.equal(webhooks.count, before.count + 1);
      assert.ok(
        webhooks.oldestSeconds >= 3600 && webhooks.oldestSeconds < 3630,
        `${webhooks.oldestSeconds}`,
      );
    });

    test('ping resolves while the database answers', async () => {
      assert.equal(await store.ping(), undefined);
    });
  });
}
