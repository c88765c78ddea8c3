/**
 * Forged gateway notifications, built by hand as an attacker would. The control of a callback or
 * final redirect is sha1(status + orderid + client_orderid + control key) with no separator and
 * without `type` or `amount` (docs/gateway.md#callbacks-are-hints), so a shopper who saw one
 * genuine control (the hosted final redirect shows it) can:
 *   - shift the boundary between orderid and client_orderid onto another, unpaid order;
 *   - relabel the transaction type (`type=capture` on a preauth's control).
 * Each attack is sent end to end against the sandbox and must change nothing: not the order, its
 * operations, its session or its webhooks, and nothing at the gateway.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import {
  createSession,
  merchant,
  type Pair,
  Shopper,
  sandboxTransactions,
  startPair,
  uniqueOrderId,
} from './support/proof.js';

/** The notification control from the spec's words alone: hex SHA-1 of the glued fields + key. */
function notificationControl(status: string, orderid: string, clientOrderId: string, key: string) {
  return createHash('sha1').update(`${status}${orderid}${clientOrderId}${key}`).digest('hex');
}

/** Everything the backend holds about one order, to prove a forged notice changed none of it. */
async function orderState(pair: Pair, clientOrderId: string) {
  const order = await pair.store.orders.getByClientOrderId(clientOrderId);
  assert.ok(order, clientOrderId);
  const { rows: webhooks } = await pair.db.query<{ event: string; payload: unknown }>(
    'select event, payload from merchant_webhooks where order_id = $1 order by created_at',
    [order.id],
  );
  const { rows: operations } = await pair.db.query<{ kind: string; status: string }>(
    `select kind, status, amount_minor, data from merchant_operations
     where data->>'orderRowId' = $1 order by seq`,
    [order.id],
  );
  return {
    order,
    session: order.sessionId ? await pair.store.sessions.get(order.sessionId) : null,
    webhooks,
    operations,
    gateway: await sandboxTransactions(pair.sb, clientOrderId),
  };
}

describe('forged callbacks and final redirects change nothing', () => {
  let pair: Pair;
  let key: string;
  const callback = (query: Record<string, string>) =>
    fetch(`${pair.be.url}/callbacks/gateway?${new URLSearchParams(query)}`);

  before(async () => {
    pair = await startPair();
    key = pair.be.config.gateway.controlKey;
  });
  after(async () => {
    await pair.close();
  });

  it('boundary shift: the control of a paid 1.00 order does not approve an unpaid 999.00 one', async () => {
    // A: the attacker pays 1.00 and learns A's genuine `approved` control.
    const a = await createSession(pair.be.url, { amount: '1.00', orderId: uniqueOrderId('a') });
    const paid = await new Shopper(pair.be.url, a.token).complete({ pan: '4000000000000002' });
    assert.equal(paid.order.status, 'approved');
    const gatewayA = paid.order.gatewayOrderId;
    assert.ok(gatewayA && gatewayA.length > 1);
    const controlA = notificationControl('approved', gatewayA, a.orderId, key);

    // B: 999.00, left unpaid in a 3-D Secure step; its id is A's last orderid digit + A's id,
    // so "approved" + orderid(A) + A equals "approved" + orderid(A) minus a digit + B.
    const bId = `${gatewayA.slice(-1)}${a.orderId}`;
    const b = await createSession(pair.be.url, { amount: '999.00', orderId: bId });
    const shopperB = new Shopper(pair.be.url, b.token);
    // Until the gateway has settled into its 3DS step (no processing left to change its state).
    const pending = await shopperB.until(await shopperB.pay({ pan: '4000000000000044' }));
    assert.equal(pending.action, 'method');
    await pair.sb.sandbox.idle();
    const before = await orderState(pair, bId);
    assert.equal(before.order.amountMinor, 99900);
    assert.notEqual(before.order.gatewayOrderId, gatewayA.slice(0, -1));

    const shifted = { status: 'approved', orderid: gatewayA.slice(0, -1), client_orderid: bId };
    assert.equal(
      notificationControl(shifted.status, shifted.orderid, shifted.client_orderid, key),
      controlA,
    );
    const forged = await callback({
      ...shifted,
      merchant_order: bId,
      type: 'sale',
      amount: '999.00',
      control: controlA,
    });
    assert.equal(forged.status, 200); // a valid control: the gateway would stop retrying
    // The same fields as a final redirect to B's return page are refused outright.
    const redirect = await fetch(`${pair.be.url}/return/${before.order.returnRef}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...shifted, merchant_order: bId, control: controlA }),
    });
    assert.equal(redirect.status, 403);

    await pair.sb.sandbox.idle();
    assert.deepEqual(await orderState(pair, bId), before);
    assert.equal(before.order.status, 'processing');
    assert.equal(before.session?.state, 'paying');
  });

  it('a genuine callback replayed with a NUL in an unsigned field or its name: 200, nothing changes', async () => {
    const paid = await createSession(pair.be.url, { orderId: uniqueOrderId('nul') });
    const final = await new Shopper(pair.be.url, paid.token).complete({ pan: '4000000000000002' });
    const orderid = final.order.gatewayOrderId ?? '';
    const signed = { status: 'approved', orderid, client_orderid: paid.orderId };
    const control = notificationControl('approved', orderid, paid.orderId, key);
    await pair.sb.sandbox.idle();
    const before = await orderState(pair, paid.orderId);
    // PostgreSQL stores no NUL: recording these once failed with a 500 (the gateway retries).
    const extras: Record<string, string>[] = [
      { descriptor: 'a\u0000b' },
      { 'x\u0000': 'y' },
      { type: 'sa\u0000le' },
    ];
    for (const extra of extras) {
      const res = await callback({ ...signed, ...extra, control });
      assert.equal(res.status, 200, JSON.stringify(extra));
      assert.equal(await res.text(), 'OK');
    }
    assert.deepEqual(await orderState(pair, paid.orderId), before);
  });

  it('type relabel: a preauth control sent as type=capture never settles a lost capture', async () => {
    const p = await createSession(pair.be.url, {
      amount: '250.00',
      intent: 'preauth',
      orderId: uniqueOrderId('p'),
    });
    const held = await new Shopper(pair.be.url, p.token).complete({ pan: '4000000000000002' });
    assert.equal(held.order.status, 'approved');
    const gatewayP = held.order.gatewayOrderId;
    assert.ok(gatewayP);
    await pair.sb.sandbox.idle();

    // The merchant's capture never reaches the gateway (it answers 500 before processing).
    pair.sb.sandbox.faults.set('*', { errorRate: 1 });
    const capture = await merchant(pair.be.url, 'POST', `/v1/orders/${p.orderId}/capture`, {});
    pair.sb.sandbox.faults.clear();
    // Its answer is lost: 202 with the capture `unknown` (it may have happened, as far as we know).
    assert.equal(capture.status, 202);
    assert.equal(capture.body.operation.status, 'unknown');
    const before = await orderState(pair, p.orderId);
    assert.deepEqual(
      before.operations.map((o) => [o.kind, o.status]),
      [['capture', 'unknown']],
    );
    assert.deepEqual(
      before.gateway.map((t) => [t.kind, t.status, t.operations.length]),
      [['preauth', 'approved', 1]],
    );

    const controlP = notificationControl('approved', gatewayP, p.orderId, key);
    const callbacksBefore = (await pair.store.callbacks.forGatewayOrder(gatewayP)).length;
    for (const type of ['capture', 'capture2', 'Capture', 'return', 'void', '']) {
      const forged = await callback({
        status: 'approved',
        orderid: gatewayP,
        client_orderid: p.orderId,
        merchant_order: p.orderId,
        type,
        amount: '250.00',
        control: controlP,
      });
      assert.equal(forged.status, 200);
    }
    await pair.sb.sandbox.idle();
    const after = await orderState(pair, p.orderId);
    assert.deepEqual(after, before);
    assert.equal(after.order.capturedMinor, 0);
    assert.ok(!after.webhooks.some((w) => w.event.startsWith('capture.')));
    // Relabelled repeats are one callback: what the gateway signed is the same.
    const callbacksAfter = await pair.store.callbacks.forGatewayOrder(gatewayP);
    assert.ok(callbacksAfter.length <= callbacksBefore + 1);
    assert.equal(
      callbacksAfter.filter((c) => c.status === 'approved' && c.clientOrderId === p.orderId).length,
      1,
    );
  });

  it('a status answer that describes another amount is logged at error and never applied', async () => {
    const s = await createSession(pair.be.url, { amount: '12.34', orderId: uniqueOrderId('m') });
    const shopper = new Shopper(pair.be.url, s.token);
    const pending = await shopper.until(await shopper.pay({ pan: '4000000000000044' }));
    assert.equal(pending.action, 'method');
    const order = await pair.store.orders.getByClientOrderId(s.orderId);
    assert.ok(order?.gatewayOrderId);
    await pair.sb.sandbox.idle();
    const before = await orderState(pair, s.orderId);
    // A gateway (or a tampering proxy) answers `approved`, but for 1.00, not 12.34.
    const { applyStatus } = await import('../../server/src/checkout/following/apply-status.js');
    const logged = pair.be.logs.length;
    const result = await applyStatus(pair.be.checkout.context, order, {
      type: 'status-response',
      status: 'approved',
      orderId: order.gatewayOrderId,
      clientOrderId: s.orderId,
      transactionType: 'sale',
      amount: '1.00',
      currency: 'EUR',
      requestId: 'test-mismatch',
      raw: {},
    });
    assert.equal(result.status, 'processing');
    assert.deepEqual(await orderState(pair, s.orderId), before);
    const line = pair.be.logs
      .slice(logged)
      .map((l) => JSON.parse(l))
      .find((l) => l.msg === 'status answer disagrees with the order; not applied');
    assert.equal(line?.level, 50);
    assert.equal(line?.mismatch, 'amount 1.00 is not the EUR amount we sent');
  });
});
