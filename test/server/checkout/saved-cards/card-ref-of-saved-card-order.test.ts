/**
 * `POST /v1/orders/{id}/card-ref` on an order paid with a saved card never answers the reference
 * that was charged as one made from the order. The status of a make-rebill names the reference it
 * charged: after a lost create-card-ref answer, that `card-ref-id` is not taken for a new one (the
 * order's own comes, once the gateway made it, as another id). And a reference the gateway names
 * that this backend keeps for another order is a conflict (502, logged at error), never the other
 * order's row answered as this order's.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FetchLike } from '../../../../server/src/gateway/index.js';
import {
  type Backend,
  type Sandbox,
  startBackend,
  withSandboxAndBackend,
} from '../../../support/loopback-stack.js';
import {
  testCard as card,
  createSession,
  merchant,
  Shopper,
  savedCard,
} from '../../../support/widget-api-client.js';

describe('the card reference of an order paid with a saved card', () => {
  let sb: Sandbox;
  let be: Backend;
  // A create-card-ref whose reference the status never names is followed this long.
  withSandboxAndBackend(
    (started) => {
      ({ sb, be } = started);
    },
    { timing: { operationFollowMs: 500 } },
  );

  /** The merchant's order id of an approved payment with the saved card `ref`. */
  async function paidWith(ref: string, instance: Backend = be): Promise<string> {
    const session = await createSession(instance.url, { savedCards: [ref] });
    const shopper = new Shopper(instance.url, session.token);
    const handle = (await shopper.call('GET', '/session')).body.savedCards[0].handle as string;
    const final = await shopper.complete(card('approved'), await shopper.paySaved(handle, '123'));
    assert.equal(final.order.status, 'approved');
    return session.orderId;
  }

  /** The order's card reference as the merchant API and the store show it. */
  async function cardRefOf(orderId: string) {
    const read = await merchant(be.url, 'GET', `/v1/orders/${orderId}`);
    assert.equal(read.status, 200, JSON.stringify(read.body));
    const row = await be.store.orders.getByClientOrderId(orderId);
    assert.ok(row);
    return { api: read.body.cardRef, stored: await be.store.cardRefs.ofOrder(row.id) };
  }

  it('a lost create-card-ref answer: the charged reference is not taken from the status; the one the gateway made is', async () => {
    const { ref, orderRowId } = await savedCard(be);

    // create-card-ref answered 500 before the gateway did anything: no reference was made.
    const orderId = await paidWith(ref);
    sb.sandbox.faults.set('*', { errorRate: 1 });
    const first = await merchant(be.url, 'POST', `/v1/orders/${orderId}/card-ref`, {});
    sb.sandbox.faults.clear();
    assert.equal(first.status, 502, JSON.stringify(first.body));
    const second = await merchant(be.url, 'POST', `/v1/orders/${orderId}/card-ref`, {});
    assert.notEqual(second.body.cardRefId, ref, JSON.stringify(second.body));
    assert.equal(second.status, 202, JSON.stringify(second.body));
    assert.equal(second.body.cardRefId, null);
    assert.deepEqual(await cardRefOf(orderId), { api: null, stored: null });
    assert.equal((await be.store.cardRefs.get(ref))?.orderId, orderRowId, 'still its own order’s');

    // create-card-ref done, its answer lost: the status then names the new reference.
    const made = await paidWith(ref);
    sb.sandbox.faults.set('*', { dropRate: 1 });
    const lost = await merchant(be.url, 'POST', `/v1/orders/${made}/card-ref`, {});
    sb.sandbox.faults.clear();
    assert.equal(lost.status, 502, JSON.stringify(lost.body));
    const found = await merchant(be.url, 'POST', `/v1/orders/${made}/card-ref`, {});
    assert.equal(found.status, 201, JSON.stringify(found.body));
    assert.notEqual(found.body.cardRefId, ref);
    const row = await be.store.orders.getByClientOrderId(made);
    const atGateway = await sb.sandbox.store.getCardRefBySource(
      sb.sandbox.store.db,
      row?.gatewayOrderId as string,
    );
    assert.equal(found.body.cardRefId, atGateway?.id);
    const { api, stored } = await cardRefOf(made);
    assert.equal(api?.id, found.body.cardRefId);
    assert.equal(stored?.id, found.body.cardRefId);
  });

  it('a gateway that names a reference kept for another order: 502 and logged, never that order’s reference', async () => {
    const { ref, orderRowId } = await savedCard(be);
    // create-card-ref answers the reference the order was charged with (as a gateway that hands
    // back one reference per card would).
    const chargedRef: FetchLike = async (url, init) => {
      const response = await fetch(url, init as RequestInit);
      const text = await response.text();
      let body = text;
      if (response.status === 200 && url.includes('/create-card-ref/')) {
        body = JSON.stringify({ ...JSON.parse(text), 'card-ref-id': ref });
      }
      return { status: response.status, headers: response.headers, text: async () => body };
    };
    const other = await startBackend(sb, { store: be.store, gatewayFetch: chargedRef });
    try {
      const orderId = await paidWith(ref, other);
      for (const attempt of [1, 2]) {
        const res = await merchant(other.url, 'POST', `/v1/orders/${orderId}/card-ref`, {});
        assert.equal(res.status, 502, `POST ${attempt}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, 'gateway');
        assert.ok(!JSON.stringify(res.body).includes(ref));
      }
      assert.deepEqual(await cardRefOf(orderId), { api: null, stored: null });
      assert.equal((await be.store.cardRefs.get(ref))?.orderId, orderRowId);
      const row = await be.store.orders.getByClientOrderId(orderId);
      const conflict = other.logs.filter((line) => line.includes('keeps for another order'));
      assert.ok(conflict.length > 0, other.logs.join('\n'));
      for (const line of conflict) {
        assert.equal(JSON.parse(line).level, 50, line);
        assert.ok(line.includes(`"orderId":"${row?.id}"`), line);
        assert.ok(line.includes(`"heldBy":"${orderRowId}"`), line);
        assert.ok(!line.includes(ref), line);
      }
    } finally {
      await other.close();
    }
  });
});
