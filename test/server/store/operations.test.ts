import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CheckoutStore } from '../../../server/src/store/index.js';
import { engines } from './engines.js';

for (const engine of engines()) {
  describe(`merchant operations on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    test('create stores exact values; data is sanitised; lookups find it', async () => {
      const payout = await store.operations.create({
        kind: 'payout',
        clientId: 'po-1',
        amountMinor: 12345,
        currency: 'EUR',
        data: { destination: 'card', credit_card_number: '4111111111111111', note: 'weekly' },
      });
      assert.equal(payout.status, 'new');
      assert.equal(payout.amountMinor, 12345);
      assert.deepEqual(payout.data, { destination: 'card', note: 'weekly' });
      assert.equal(payout.gatewayOrderId, null);
      assert.deepEqual(await store.operations.get(payout.id), payout);
      assert.deepEqual(await store.operations.getByClientId('payout', 'po-1'), payout);
      assert.equal(await store.operations.getByClientId('transfer', 'po-1'), null);
      await assert.rejects(store.operations.create({ kind: 'payout', clientId: 'po-1' }));

      const ref = await store.operations.create({
        kind: 'card-ref',
        clientId: 'cr-1',
        gatewayRef: 'ref-9',
      });
      assert.equal(ref.amountMinor, null);
      assert.equal(ref.gatewayRef, 'ref-9');
    });

    test('transition is compare-and-set, concurrently too', async () => {
      const op = await store.operations.create({
        kind: 'rebill',
        clientId: 'rb-1',
        amountMinor: 100,
        currency: 'USD',
      });
      const results = await Promise.all([
        store.operations.transition(op.id, {
          from: ['new'],
          to: 'processing',
          patch: { gatewayOrderId: 'g-1', data: { cvv2: '123', step: 1 } },
        }),
        store.operations.transition(op.id, { from: ['new'], to: 'error' }),
      ]);
      assert.equal(results.filter((r) => r.won).length, 1);
      const now = await store.operations.get(op.id);
      assert.equal(now?.version, 2);
      if (now?.status === 'processing') {
        assert.deepEqual(now.data, { step: 1 });
        assert.deepEqual(await store.operations.pendingOnGatewayOrder('g-1'), [now]);
      } else {
        assert.equal(now?.status, 'error');
      }
      const refused = await store.operations.transition(op.id, { from: ['new'], to: 'approved' });
      assert.equal(refused.won, false);
      assert.deepEqual(refused.operation, now);
    });

    test('pendingOnGatewayOrder, pendingMoneyOpOf and needingReconciliation find pending rows, mapped', async () => {
      const capture = await store.operations.create({
        kind: 'capture',
        clientId: 'cap-1',
        gatewayOrderId: 'g-77',
        data: { orderRowId: 'order-77' },
      });
      const ret = await store.operations.create({
        kind: 'return',
        clientId: 'ret-1',
        gatewayOrderId: 'g-77',
        data: { orderRowId: 'order-78' },
      });
      const rebill = await store.operations.create({
        kind: 'rebill',
        clientId: 'rb-77',
        gatewayOrderId: 'g-78',
        data: { orderRowId: 'order-77' },
      });
      assert.deepEqual(await store.operations.pendingOnGatewayOrder('g-77'), [capture, ret]);
      assert.deepEqual(await store.operations.pendingOnGatewayOrder('g-78'), [rebill]);
      assert.deepEqual(await store.operations.pendingMoneyOpOf('order-77'), capture);
      assert.deepEqual(await store.operations.pendingMoneyOpOf('order-78'), ret);
      await store.operations.transition(ret.id, { from: ['new'], to: 'approved' });
      assert.deepEqual(await store.operations.pendingOnGatewayOrder('g-77'), [capture]);
      assert.equal(await store.operations.pendingMoneyOpOf('order-78'), null);

      const due = await store.operations.needingReconciliation({
        olderThanSeconds: -1,
        kinds: ['capture', 'void', 'return'],
      });
      assert.deepEqual(
        due.filter((o) => o.clientId.endsWith('-1') && o.gatewayOrderId === 'g-77'),
        [capture],
      );
      assert.deepEqual(
        await store.operations.needingReconciliation({
          olderThanSeconds: 3600,
          kinds: ['capture'],
        }),
        [],
      );
    });

    test('hasFinalTwin: an earlier final operation of the same order, kind and amount', async () => {
      const op = (
        clientId: string,
        kind: 'return' | 'capture',
        amountMinor: number,
        orderRowId = 'order-twin',
      ) =>
        store.operations.create({
          kind,
          clientId,
          amountMinor,
          currency: 'EUR',
          data: { orderRowId },
        });
      const settle = (id: string, to: string) =>
        store.operations.transition(id, { from: ['new'], to });
      const first = await op('twin-r1', 'return', 200);
      const second = await op('twin-r2', 'return', 200);
      // The first still pending: nothing final to mistake the second for.
      assert.equal(await store.operations.hasFinalTwin(second), false);
      await settle(first.id, 'approved');
      assert.equal(await store.operations.hasFinalTwin(second), true);
      // Only an earlier one counts, and only with the same kind, amount and order.
      assert.equal(await store.operations.hasFinalTwin(first), false);
      for (const other of [
        await op('twin-r3', 'return', 300),
        await op('twin-c1', 'capture', 200),
        await op('twin-r4', 'return', 200, 'order-other'),
      ])
        assert.equal(await store.operations.hasFinalTwin(other), false, other.clientId);
    });
  });
}
