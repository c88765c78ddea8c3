import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { CheckoutStore, NewOrder } from '../../../server/src/store/index.js';
import { engines } from './engines.js';

let counter = 0;
function newOrder(overrides: Partial<NewOrder> = {}): NewOrder {
  counter += 1;
  return {
    clientOrderId: `order-${process.pid}-${counter}`,
    intent: 'sale',
    amountMinor: 1042,
    currency: 'EUR',
    ...overrides,
  };
}

for (const engine of engines()) {
  describe(`orders on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    test('create stores exact values and defaults; lookups by every key find it', async () => {
      const order = await store.orders.create(
        newOrder({ merchantOrigin: 'https://shop.example', cardBrand: 'visa', cardLast4: '1111' }),
      );
      assert.equal(order.status, 'new');
      assert.equal(order.amountMinor, 1042);
      assert.equal(order.capturedMinor, 0);
      assert.equal(order.returnedMinor, 0);
      assert.equal(order.version, 1);
      assert.equal(order.gatewayOrderId, null);
      assert.equal(order.nextAction, null);
      assert.equal(order.cardBrand, 'visa');
      assert.equal(order.cardLast4, '1111');
      assert.equal(order.merchantOrigin, 'https://shop.example');
      assert.match(order.returnRef, /^[A-Za-z0-9_-]{43}$/);
      assert.ok(order.createdAt instanceof Date);
      assert.ok(Number.isSafeInteger(order.seq));
      assert.deepEqual(await store.orders.get(order.id), order);
      assert.deepEqual(await store.orders.getByClientOrderId(order.clientOrderId), order);
      assert.deepEqual(await store.orders.getByReturnRef(order.returnRef), order);
      assert.equal(await store.orders.get('no-such-id'), null);
    });

    test('client_orderid and return_ref are unique', async () => {
      const order = await store.orders.create(newOrder());
      await assert.rejects(store.orders.create(newOrder({ clientOrderId: order.clientOrderId })));
      await assert.rejects(store.orders.create(newOrder({ returnRef: order.returnRef })));
    });

    test('transition applies status and patch together and bumps the version', async () => {
      const order = await store.orders.create(newOrder());
      const nextAction = {
        action: 'method',
        methodUrl: 'https://acs.example/method',
        timeoutMs: 10000,
      };
      const result = await store.orders.transition(order.id, {
        from: ['new'],
        to: 'processing',
        patch: {
          gatewayOrderId: `gw-${order.id}`,
          nextAction,
          threeDsServerTransId: 'tds-1',
          threeDsMethodUrl: 'https://acs.example/method',
        },
      });
      assert.equal(result.won, true);
      assert.equal(result.order?.status, 'processing');
      assert.equal(result.order?.version, 2);
      assert.deepEqual(result.order?.nextAction, nextAction);
      assert.equal(result.order?.threeDsServerTransId, 'tds-1');
      assert.deepEqual(await store.orders.getByGatewayOrderId(`gw-${order.id}`), result.order);

      // Clearing a field with null, guarded by version.
      const cleared = await store.orders.transition(order.id, {
        from: ['processing'],
        to: 'processing',
        version: 2,
        patch: { nextAction: null, threeDsCompInd: 'Y' },
      });
      assert.equal(cleared.won, true);
      assert.equal(cleared.order?.nextAction, null);
      assert.equal(cleared.order?.threeDsCompInd, 'Y');
      assert.equal(cleared.order?.version, 3);
    });

    test('a refused transition changes nothing and returns the order as it stands', async () => {
      const order = await store.orders.create(newOrder());
      await store.orders.transition(order.id, { from: ['new'], to: 'approved' });
      const before = await store.orders.get(order.id);
      const refused = await store.orders.transition(order.id, {
        from: ['new', 'processing'],
        to: 'declined',
        patch: { reason: 'should not be written' },
      });
      assert.equal(refused.won, false);
      assert.deepEqual(refused.order, before);
      assert.equal(refused.order?.status, 'approved');
      assert.equal(refused.order?.reason, null);
      assert.equal(refused.order?.version, 2);

      const staleVersion = await store.orders.transition(order.id, {
        from: ['approved'],
        to: 'approved',
        version: 1,
        patch: { reason: 'stale' },
      });
      assert.equal(staleVersion.won, false);
      assert.equal(staleVersion.order?.reason, null);

      const missing = await store.orders.transition('no-such-id', {
        from: ['new'],
        to: 'approved',
      });
      assert.deepEqual(missing, { won: false, order: null });
    });

    test('update changes fields under a version check only', async () => {
      const order = await store.orders.create(newOrder());
      const ok = await store.orders.update(order.id, { version: 1, patch: { reason: 'r1' } });
      assert.equal(ok.won, true);
      assert.equal(ok.order?.reason, 'r1');
      assert.equal(ok.order?.status, 'new');
      const stale = await store.orders.update(order.id, { version: 1, patch: { reason: 'r2' } });
      assert.equal(stale.won, false);
      assert.equal(stale.order?.reason, 'r1');
      assert.equal(stale.order?.version, 2);
    });

    test('two concurrent transitions on one order: exactly one wins', async () => {
      for (let round = 0; round < 5; round++) {
        const order = await store.orders.create(newOrder());
        await store.orders.transition(order.id, { from: ['new'], to: 'processing' });
        const results = await Promise.all([
          store.orders.transition(order.id, {
            from: ['processing'],
            to: 'approved',
            patch: { reason: 'a' },
          }),
          store.orders.transition(order.id, {
            from: ['processing'],
            to: 'declined',
            patch: { reason: 'b' },
          }),
        ]);
        const winners = results.filter((r) => r.won);
        assert.equal(winners.length, 1);
        const final = await store.orders.get(order.id);
        assert.equal(final?.version, 3);
        assert.equal(final?.status, winners[0]?.order?.status);
        assert.equal(final?.reason, winners[0]?.order?.reason);
        // The loser saw the winner's write.
        const loser = results.find((r) => !r.won);
        assert.deepEqual(loser?.order, final);
      }
    });

    test('concurrent transitions inside store transactions: exactly one wins', async () => {
      const order = await store.orders.create(newOrder());
      const attempt = (to: 'approved' | 'error') =>
        store.transaction(async (tx) => {
          const result = await tx.orders.transition(order.id, { from: ['new'], to });
          if (result.won) {
            await tx.history.record({ orderId: order.id, operation: 'STATUS', request: { to } });
          }
          return result.won;
        });
      const won = await Promise.all([attempt('approved'), attempt('error'), attempt('approved')]);
      assert.equal(won.filter(Boolean).length, 1);
      assert.equal((await store.history.forOrder(order.id)).length, 1);
    });

    test('recordCapture refuses to exceed the hold and anything but an approved preauth', async () => {
      const sale = await store.orders.create(newOrder());
      await store.orders.transition(sale.id, { from: ['new'], to: 'approved' });
      const onSale = await store.orders.recordCapture(sale.id, 100);
      assert.equal(onSale.won, false);
      assert.equal(onSale.won === false && onSale.reason, 'not-allowed');

      const hold = await store.orders.create(newOrder({ intent: 'preauth', amountMinor: 1000 }));
      const early = await store.orders.recordCapture(hold.id, 100);
      assert.equal(early.won === false && early.reason, 'not-allowed');
      await store.orders.transition(hold.id, { from: ['new'], to: 'approved' });

      const first = await store.orders.recordCapture(hold.id, 600);
      assert.equal(first.won, true);
      assert.equal(first.order?.capturedMinor, 600);
      const tooMuch = await store.orders.recordCapture(hold.id, 401);
      assert.equal(tooMuch.won, false);
      assert.equal(tooMuch.won === false && tooMuch.reason, 'exceeds-limit');
      assert.equal(tooMuch.order?.capturedMinor, 600);
      const rest = await store.orders.recordCapture(hold.id, 400);
      assert.equal(rest.order?.capturedMinor, 1000);

      assert.deepEqual(await store.orders.recordCapture('no-such-id', 1), {
        won: false,
        order: null,
        reason: 'not-found',
      });
      assert.throws(() => store.orders.recordCapture(hold.id, 1.5), { code: 'store-amount' });
      assert.throws(() => store.orders.recordCapture(hold.id, -1), { code: 'store-amount' });
    });

    test('concurrent captures never exceed the hold', async () => {
      const hold = await store.orders.create(newOrder({ intent: 'preauth', amountMinor: 1000 }));
      await store.orders.transition(hold.id, { from: ['new'], to: 'approved' });
      const results = await Promise.all(
        Array.from({ length: 6 }, () => store.orders.recordCapture(hold.id, 300)),
      );
      assert.equal(results.filter((r) => r.won).length, 3);
      assert.equal((await store.orders.get(hold.id))?.capturedMinor, 900);
    });

    test('recordReturn refuses to exceed what was settled', async () => {
      const sale = await store.orders.create(newOrder({ amountMinor: 500 }));
      await store.orders.transition(sale.id, { from: ['new'], to: 'approved' });
      assert.equal((await store.orders.recordReturn(sale.id, 200)).order?.returnedMinor, 200);
      const over = await store.orders.recordReturn(sale.id, 301);
      assert.equal(over.won === false && over.reason, 'exceeds-limit');
      assert.equal((await store.orders.recordReturn(sale.id, 300)).order?.returnedMinor, 500);

      const hold = await store.orders.create(newOrder({ intent: 'preauth', amountMinor: 1000 }));
      await store.orders.transition(hold.id, { from: ['new'], to: 'approved' });
      await store.orders.recordCapture(hold.id, 400);
      const beyondCapture = await store.orders.recordReturn(hold.id, 401);
      assert.equal(beyondCapture.won === false && beyondCapture.reason, 'exceeds-limit');
      assert.equal((await store.orders.recordReturn(hold.id, 400)).order?.returnedMinor, 400);

      const declined = await store.orders.create(newOrder());
      await store.orders.transition(declined.id, { from: ['new'], to: 'declined' });
      const onDeclined = await store.orders.recordReturn(declined.id, 1);
      assert.equal(onDeclined.won === false && onDeclined.reason, 'not-allowed');
    });

    test('recordVoid releases an uncaptured approved preauth once', async () => {
      const hold = await store.orders.create(newOrder({ intent: 'preauth' }));
      await store.orders.transition(hold.id, { from: ['new'], to: 'approved' });
      const voided = await store.orders.recordVoid(hold.id);
      assert.equal(voided.won, true);
      assert.ok(voided.order?.voidedAt instanceof Date);
      const again = await store.orders.recordVoid(hold.id);
      assert.equal(again.won === false && again.reason, 'not-allowed');
      const capture = await store.orders.recordCapture(hold.id, 1);
      assert.equal(capture.won === false && capture.reason, 'not-allowed');
    });

    test('list filters by status and creation time, newest first, with a cursor', async () => {
      const made = [];
      for (let i = 0; i < 5; i++) {
        const o = await store.orders.create(newOrder({ currency: 'USD' }));
        if (i % 2 === 0) await store.orders.transition(o.id, { from: ['new'], to: 'declined' });
        made.push(o.id);
      }
      // Other tests in this file made orders before: start the window at our first one.
      const from = (await store.orders.get(made[0] as string))?.createdAt as Date;
      const declined = [made[4], made[2], made[0]];
      const page1 = await store.orders.list({ status: 'declined', createdFrom: from, limit: 2 });
      assert.deepEqual(
        page1.orders.map((o) => o.id),
        declined.slice(0, 2),
      );
      assert.ok(page1.nextCursor);
      const page2 = await store.orders.list({
        status: ['declined'],
        createdFrom: from,
        limit: 2,
        cursor: page1.nextCursor,
      });
      assert.deepEqual(
        page2.orders.map((o) => o.id),
        [declined[2]],
      );
      assert.equal(page2.nextCursor, null);

      const future = await store.orders.list({ createdFrom: new Date(Date.now() + 60_000) });
      assert.deepEqual(future, { orders: [], nextCursor: null });
      const past = await store.orders.list({ createdTo: new Date(0) });
      assert.deepEqual(past, { orders: [], nextCursor: null });
      await assert.rejects(store.orders.list({ cursor: 'not a cursor!' }), {
        code: 'store-cursor',
      });
    });

    test('needingReconciliation lists pending orders untouched for N seconds', async () => {
      const stale = await store.orders.create(newOrder());
      const fresh = await store.orders.create(newOrder());
      const done = await store.orders.create(newOrder());
      await store.orders.transition(done.id, { from: ['new'], to: 'approved' });
      await store.db.query(
        `update orders set updated_at = now() - interval '10 minutes' where id = any($1::text[])`,
        [[stale.id, done.id]],
      );
      const list = await store.orders.needingReconciliation({ olderThanSeconds: 60 });
      const ids = list.map((o) => o.id);
      assert.ok(ids.includes(stale.id));
      assert.ok(!ids.includes(fresh.id));
      assert.ok(!ids.includes(done.id));
    });
  });
}
