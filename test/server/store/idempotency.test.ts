import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type CheckoutStore, hashRequestBody } from '../../../server/src/store/index.js';
import { engines } from './engines.js';

const scope = 'POST /v1/orders/:id/capture';

test('hashRequestBody ignores key order and undefined, not values', () => {
  assert.equal(
    hashRequestBody({ a: 1, b: [1, { c: 2, d: 3 }] }),
    hashRequestBody({ b: [1, { d: 3, c: 2 }], a: 1 }),
  );
  assert.equal(hashRequestBody({ a: 1, x: undefined }), hashRequestBody({ a: 1 }));
  assert.notEqual(hashRequestBody({ a: 1 }), hashRequestBody({ a: 2 }));
  assert.match(hashRequestBody(null), /^[0-9a-f]{64}$/);
});

for (const engine of engines()) {
  describe(`idempotency keys on ${engine.name}`, () => {
    let store: CheckoutStore;
    before(async () => {
      store = await engine.open();
    });
    after(async () => {
      await engine.close(store);
    });

    test('begin, complete, then every repeat replays the stored answer', async () => {
      const requestHash = hashRequestBody({ amount: 500 });
      const begin = { scope, key: 'k-1', requestHash };
      assert.deepEqual(await store.idempotency.begin(begin), { outcome: 'started' });
      assert.deepEqual(await store.idempotency.begin(begin), { outcome: 'in-progress' });
      assert.equal(
        await store.idempotency.complete(scope, 'k-1', {
          status: 201,
          body: { id: 'o1', items: [1] },
        }),
        true,
      );
      assert.equal(
        await store.idempotency.complete(scope, 'k-1', { status: 500, body: {} }),
        false,
      );
      assert.deepEqual(await store.idempotency.begin(begin), {
        outcome: 'replay',
        status: 201,
        body: { id: 'o1', items: [1] },
      });
      assert.deepEqual(
        await store.idempotency.begin({ ...begin, requestHash: hashRequestBody({ amount: 501 }) }),
        { outcome: 'mismatch' },
      );
      // The same key on another route is another key.
      assert.deepEqual(await store.idempotency.begin({ ...begin, scope: 'POST /v1/payouts' }), {
        outcome: 'started',
      });
    });

    test('concurrent begins: exactly one starts', async () => {
      const begin = { scope, key: 'k-race', requestHash: 'h' };
      const results = await Promise.all(
        Array.from({ length: 5 }, () => store.idempotency.begin(begin)),
      );
      assert.equal(results.filter((r) => r.outcome === 'started').length, 1);
      assert.equal(results.filter((r) => r.outcome === 'in-progress').length, 4);
    });

    test('a waiting repeat gets the answer once the first completes', async () => {
      const begin = { scope, key: 'k-wait', requestHash: 'h' };
      assert.equal((await store.idempotency.begin(begin)).outcome, 'started');
      const waiting = store.idempotency.begin({ ...begin, waitMs: 5000 });
      await new Promise((r) => setTimeout(r, 120));
      await store.idempotency.complete(scope, 'k-wait', { status: 200, body: { ok: true } });
      assert.deepEqual(await waiting, { outcome: 'replay', status: 200, body: { ok: true } });
    });

    test('abandon frees the key; an expired claim is taken over by one caller', async () => {
      const begin = { scope, key: 'k-abandon', requestHash: 'h' };
      await store.idempotency.begin(begin);
      await store.idempotency.abandon(scope, 'k-abandon');
      assert.deepEqual(await store.idempotency.begin(begin), { outcome: 'started' });

      const dead = { scope, key: 'k-dead', requestHash: 'h', lockSeconds: 60 };
      await store.idempotency.begin(dead);
      await store.db.query(
        `update idempotency_keys set locked_until = now() - interval '1 second' where key = 'k-dead'`,
      );
      const takers = await Promise.all([
        store.idempotency.begin(dead),
        store.idempotency.begin(dead),
      ]);
      assert.deepEqual(takers.map((t) => t.outcome).sort(), ['in-progress', 'started']);
    });

    test('purge forgets old completed keys only', async () => {
      await store.idempotency.begin({ scope: 'purge', key: 'old', requestHash: 'h' });
      await store.idempotency.complete('purge', 'old', { status: 200, body: null });
      await store.idempotency.begin({ scope: 'purge', key: 'running', requestHash: 'h' });
      await store.db.query(
        `update idempotency_keys set completed_at = now() - interval '2 days' where scope = 'purge' and key = 'old'`,
      );
      assert.equal(await store.idempotency.purge(86400), 1);
      const left = await store.db.query<{ key: string }>(
        `select key from idempotency_keys where scope = 'purge' order by key`,
      );
      assert.deepEqual(left.rows, [{ key: 'running' }]);
    });
  });
}
