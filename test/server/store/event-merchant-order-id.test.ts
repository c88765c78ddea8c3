/**
 * Migration 021 on a store that has events already: each event is given the merchant's order id
 * it is about (an order's from its payload, a capture's from the order its operation moved, a
 * payout's from the operation's own id), so `GET /v1/events?orderId=` finds the events made
 * before it too; and an event queued after it is filed by its payload's id.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  CHECKOUT_MIGRATION_SET,
  checkoutMigrations,
  createCheckoutStore,
  migrate,
  openDatabase,
} from '../../../server/src/store/index.js';
import { uniqueSchema } from './engines.js';

describe('migration 021: the merchant order id of every event', () => {
  test('files the events before it by order, and those after it by their payload', async () => {
    const url = process.env.TEST_DATABASE_URL;
    const schema = url ? uniqueSchema() : undefined;
    const db = await openDatabase({ ...(url ? { url } : {}), ...(schema ? { schema } : {}) });
    try {
      const before = checkoutMigrations.findIndex((m) => m.id === '021-event-merchant-order-id');
      assert.ok(before > 0);
      await migrate(db, CHECKOUT_MIGRATION_SET, checkoutMigrations.slice(0, before));
      await db.query(
        `insert into orders (id, client_orderid, session_id, intent, amount_minor, currency, status,
           return_ref, attempt, merchant_orderid)
         values ('row-2', 'shop-1-2', 's-1', 'preauth', 100, 'EUR', 'approved', 'rr-2', 2, 'shop-1')`,
      );
      await db.query(
        `insert into merchant_operations (id, kind, client_id, status, data)
         values ('op-c', 'capture', 'shop-1-2:capture:k', 'approved',
                 '{"orderRowId":"row-2","orderId":"shop-1-2"}'),
                ('op-p', 'payout', 'po-1', 'approved', '{"orderId":"po-1"}')`,
      );
      const event = (id: string, type: string, data: unknown) =>
        db.query(
          `insert into merchant_webhooks (id, event, payload, order_id)
           values ($1, $2, $3::jsonb, null)`,
          [id, type, JSON.stringify({ id, type, data })],
        );
      await event('e-1', 'order.approved', { order: { orderId: 'shop-1' } });
      await event('e-2', 'capture.approved', { operationId: 'op-c', status: 'approved' });
      await event('e-3', 'payout.approved', { operationId: 'op-p', status: 'approved' });
      await migrate(db, CHECKOUT_MIGRATION_SET, checkoutMigrations);
      const { rows } = await db.query(
        'select id, merchant_order_id from merchant_webhooks order by id',
      );
      assert.deepEqual(rows, [
        { id: 'e-1', merchant_order_id: 'shop-1' },
        { id: 'e-2', merchant_order_id: 'shop-1' },
        { id: 'e-3', merchant_order_id: 'po-1' },
      ]);
      const store = createCheckoutStore(db);
      await store.webhooks.enqueue({
        event: 'return.approved',
        payload: {
          id: 'e-4',
          type: 'return.approved',
          data: { operationId: 'op-r', orderId: 'shop-1' },
        },
      });
      const page = await store.webhooks.list({ orderId: 'shop-1', limit: 10 });
      assert.deepEqual(
        page.events.map((e) => e.event),
        ['return.approved', 'capture.approved', 'order.approved'],
      );
      const payouts = await store.webhooks.list({ orderId: 'po-1', limit: 10 });
      assert.deepEqual(
        payouts.events.map((e) => e.event),
        ['payout.approved'],
      );
    } finally {
      await db.close();
    }
  });
});
