/**
 * The store speaks of a repeated unique value in its own error: a caller never reads PostgreSQL's
 * 23505. Every store error is a StoreError, the client_orderid one included.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type CheckoutStore,
  ClientOrderIdTakenError,
  StoreError,
  UniqueViolationError,
} from '../../../server/src/store/index.js';
import { engines } from './engines.js';

for (const engine of engines()) {
  describe(`unique violations on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    test('a repeated (kind, client id) is a UniqueViolationError naming the key', async () => {
      await store.operations.create({ kind: 'card-ref', clientId: 'uv-1' });
      await assert.rejects(
        store.operations.create({ kind: 'card-ref', clientId: 'uv-1' }),
        (error: unknown) => {
          assert.ok(error instanceof UniqueViolationError, String(error));
          assert.ok(error instanceof StoreError);
          assert.equal(error.code, 'store-unique');
          assert.equal(error.constraint, 'merchant_operations_kind_client_id_key');
          assert.equal((error.cause as { code?: string }).code, '23505');
          return true;
        },
      );
      assert.equal((await store.operations.getByClientId('card-ref', 'uv-1'))?.clientId, 'uv-1');
    });

    test('inside a store transaction too, and the transaction is rolled back', async () => {
      await assert.rejects(
        store.transaction(async (tx) => {
          await tx.webhooks.enqueue({ event: 'order.approved', payload: { n: 1 } });
          await tx.operations.create({ kind: 'card-ref', clientId: 'uv-1' });
        }),
        { name: 'UniqueViolationError', constraint: 'merchant_operations_kind_client_id_key' },
      );
      assert.equal((await store.webhooks.undeliveredBacklog()).count, 0);
    });

    test('a taken client_orderid is a ClientOrderIdTakenError, a StoreError', async () => {
      const input = {
        clientOrderId: `uv-${process.pid}`,
        amountMinor: 100,
        currency: 'EUR',
        intent: 'sale' as const,
        expiresAt: new Date(Date.now() + 600_000),
      };
      const first = await store.sessions.create(input);
      await assert.rejects(store.sessions.create(input), (error: unknown) => {
        assert.ok(error instanceof ClientOrderIdTakenError);
        assert.ok(error instanceof StoreError);
        assert.equal(error.code, 'store-client-orderid-taken');
        assert.deepEqual(error.holder, { kind: 'session', id: first.id });
        return true;
      });
    });
  });
}
