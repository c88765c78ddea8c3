import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CheckoutStore } from '../../../server/src/store/index.js';
import { engines } from './engines.js';

for (const engine of engines()) {
  describe(`gateway callbacks on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    test('a NUL in an unsigned field, its name or the type is stored as U+FFFD, not refused', async () => {
      const recorded = await store.callbacks.recordOnce({
        gatewayOrderId: '5009',
        clientOrderId: 'cb-nul',
        status: 'approved',
        type: 'sa\u0000le',
        query: { status: 'approved', descriptor: 'a\u0000b', 'x\u0000': ['\u0000'] },
      });
      assert.equal(recorded.isNew, true);
      assert.equal(recorded.callback.type, 'sa\uFFFDle');
      assert.deepEqual(recorded.callback.query, {
        status: 'approved',
        descriptor: 'a\uFFFDb',
        'x\uFFFD': ['\uFFFD'],
      });
    });

    test('recordOnce stores the sanitised query once; a duplicate is reported as such', async () => {
      const query = new URLSearchParams({
        status: 'approved',
        orderid: '5001',
        client_orderid: 'cb-1',
        type: 'sale',
        amount: '10.00',
        control: '0123456789abcdef0123456789abcdef01234567',
        'card-number': '4111111111111111',
      });
      const first = await store.callbacks.recordOnce({
        gatewayOrderId: '5001',
        clientOrderId: 'cb-1',
        status: 'approved',
        type: 'sale',
        query,
      });
      assert.equal(first.isNew, true);
      assert.deepEqual(first.callback.query, {
        status: 'approved',
        orderid: '5001',
        client_orderid: 'cb-1',
        type: 'sale',
        amount: '10.00',
      });
      assert.equal(first.callback.processedAt, null);
      const second = await store.callbacks.recordOnce({
        gatewayOrderId: '5001',
        clientOrderId: 'cb-1',
        status: 'approved',
        type: 'sale',
        query,
      });
      assert.deepEqual(second, { isNew: false, callback: first.callback });
      // `type` is not signed: another type with the same signed fields is the same callback.
      const relabelled = await store.callbacks.recordOnce({
        gatewayOrderId: '5001',
        clientOrderId: 'cb-1',
        status: 'approved',
        type: 'capture',
        query: { status: 'approved', type: 'capture' },
      });
      assert.deepEqual(relabelled, { isNew: false, callback: first.callback });
      // A different signed field (the status, or the boundary between the ids) is a new event.
      const declined = await store.callbacks.recordOnce({
        gatewayOrderId: '5001',
        clientOrderId: 'cb-1',
        status: 'declined',
        query: { status: 'declined' },
      });
      assert.equal(declined.isNew, true);
      const shifted = await store.callbacks.recordOnce({
        gatewayOrderId: '500',
        clientOrderId: '1cb-1',
        status: 'approved',
        query: { status: 'approved' },
      });
      assert.equal(shifted.isNew, true);
      assert.equal((await store.callbacks.forGatewayOrder('5001')).length, 2);
    });

    test('concurrent duplicates: exactly one is new', async () => {
      const results = await Promise.all(
        Array.from({ length: 5 }, () =>
          store.callbacks.recordOnce({
            gatewayOrderId: '6001',
            clientOrderId: 'cb-6',
            status: 'declined',
            query: { status: 'declined', orderid: '6001' },
          }),
        ),
      );
      assert.equal(results.filter((r) => r.isNew).length, 1);
      assert.equal(new Set(results.map((r) => r.callback.id)).size, 1);
      assert.equal(results[0]?.callback.type, '');
    });

    test('markProcessed happens once', async () => {
      const a = await store.callbacks.recordOnce({
        gatewayOrderId: '7001',
        clientOrderId: 'cb-7',
        status: 'approved',
        query: {},
      });
      const b = await store.callbacks.recordOnce({
        gatewayOrderId: '7002',
        clientOrderId: 'cb-7',
        status: 'approved',
        query: {},
      });
      assert.equal(await store.callbacks.markProcessed(a.callback.id), true);
      assert.equal(await store.callbacks.markProcessed(a.callback.id), false);
      assert.equal(await store.callbacks.markProcessed(b.callback.id), true);
    });
  });
}
