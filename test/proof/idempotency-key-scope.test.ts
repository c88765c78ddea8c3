/**
 * An Idempotency-Key's scope is one route of one order, however the path is spelled: other
 * spellings under the same key are no replay and no second refund, another order is another scope;
 * attacked by hand against the in-process stack (sandbox and backend on loopback HTTP), each case
 * asserting that nothing changed: the order, its operations, the stored rows and the sandbox's
 * transactions.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { uniqueOrderId } from './support/proof.js';
import { usePair } from './support/use-pair.js';

const { api, paidOrder, everything, sandboxReturns } = usePair();

describe('Idempotency-Key scope', () => {
  it('/return, /return/, /RETURN and an encoded order id under one key refund once', async () => {
    const orderId = await paidOrder('sale', '7.00');
    const key = `idem-${uniqueOrderId()}`;
    const once = { 'Idempotency-Key': key };
    const first = await api('POST', `/v1/orders/${orderId}/return`, { amount: '1.00' }, once);
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const before = await everything();

    // The attack: other spellings of the same route under the same key.
    const spellings = [
      `/v1/orders/${orderId}/return/`,
      `/v1/orders/${orderId}/RETURN`,
      `/v1/ORDERS/${orderId}/RETURN`,
      `/v1/Orders/${orderId}/Return/`,
    ];
    for (const path of spellings) {
      const res = await api('POST', path, { amount: '1.00' }, once);
      assert.equal(res.status, 404, `${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.code, 'not-found');
    }
    // The same route with the order id percent-encoded: the same scope, so a replay.
    const encoded = `/v1/orders/${orderId.replace('-', '%2D')}/return`;
    assert.notEqual(encoded, `/v1/orders/${orderId}/return`);
    const replay = await api('POST', encoded, { amount: '1.00' }, once);
    assert.equal(replay.status, 200);
    assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    assert.deepEqual(replay.body, first.body);

    assert.deepEqual(await everything(), before);
    const order = await api('GET', `/v1/orders/${orderId}`);
    assert.equal(order.body.returnedAmount, '1.00');
    const returns = await sandboxReturns(orderId);
    assert.equal(returns.length, 1, JSON.stringify(returns));
    assert.equal(returns[0]?.amountMinor, 100);
  });

  it('the same key on another order is another scope (it runs)', async () => {
    const a = await paidOrder('sale', '3.00');
    const b = await paidOrder('sale', '3.00');
    const once = { 'Idempotency-Key': `idem-${uniqueOrderId()}` };
    const ra = await api('POST', `/v1/orders/${a}/return`, { amount: '1.00' }, once);
    const rb = await api('POST', `/v1/orders/${b}/return`, { amount: '1.00' }, once);
    assert.equal(ra.status, 200);
    assert.equal(rb.status, 200);
    assert.equal(rb.headers.get('idempotent-replayed'), null);
    assert.equal((await api('GET', `/v1/orders/${b}`)).body.returnedAmount, '1.00');
  });
});
