/**
 * create-card-ref answers `CardRefAsyncResponse` (spec): the answer may come without
 * `card-ref-id`, which the status of the transaction carries later. The backend follows it to
 * the reference instead of failing with a 502. The sandbox's answer is made asynchronous here by
 * the gateway fetch: `card-ref-id` removed and the status `processing`; status answers hide the
 * reference until the gate opens.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FetchLike } from '../../../../server/src/gateway/index.js';
import {
  type Backend,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../../support/loopback-stack.js';
import { createSession, merchant, Shopper } from '../../../support/widget-api-client.js';

interface Gate {
  /** The status answers still to hide `card-ref-id` from (Infinity: all of them). */
  hiddenStatuses: number;
  statusCalls: number;
  cardRefCalls: number;
}

function asyncCardRefs(gate: Gate): FetchLike {
  return async (url, init) => {
    const response = await fetch(url, init as RequestInit);
    const text = await response.text();
    const isCardRef = url.includes('/api/v2/create-card-ref/');
    const isStatus = url.includes('/api/v2/status/');
    if (isCardRef) gate.cardRefCalls += 1;
    if (isStatus) gate.statusCalls += 1;
    let body = text;
    if (response.status === 200 && (isCardRef || isStatus)) {
      const json = JSON.parse(text) as Record<string, unknown>;
      if (isCardRef) {
        delete json['card-ref-id'];
        json.status = 'processing';
      } else if (gate.hiddenStatuses > 0) {
        gate.hiddenStatuses -= 1;
        delete json['card-ref-id'];
      }
      body = JSON.stringify(json);
    }
    return {
      status: response.status,
      headers: response.headers,
      text: async () => body,
    };
  };
}

describe('create-card-ref answered asynchronously', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox();
  });
  after(async () => {
    await sb.close();
  });

  async function paidOrder(be: Backend): Promise<string> {
    const session = await createSession(be.url);
    const final = await new Shopper(be.url, session.token).complete({ pan: '4000000000000002' });
    assert.equal(final.order.status, 'approved');
    return session.orderId;
  }

  async function sandboxRefOf(be: Backend, orderId: string): Promise<string> {
    const order = await be.store.orders.getByClientOrderId(orderId);
    const ref = await sb.sandbox.store.getCardRefBySource(
      sb.sandbox.store.db,
      order!.gatewayOrderId!,
    );
    assert.ok(ref, 'the sandbox made the card reference');
    return ref.id;
  }

  it('follows the status until it carries card-ref-id: 201 with the reference', async () => {
    const gate: Gate = { hiddenStatuses: 0, statusCalls: 0, cardRefCalls: 0 };
    const be = await startBackend(sb, { gatewayFetch: asyncCardRefs(gate) });
    try {
      const orderId = await paidOrder(be);
      gate.hiddenStatuses = 2;
      const statusBefore = gate.statusCalls;
      const created = await merchant(be.url, 'POST', `/v1/orders/${orderId}/card-ref`, {});
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.deepEqual(created.body, { cardRefId: await sandboxRefOf(be, orderId), orderId });
      assert.equal(gate.cardRefCalls, 1);
      assert.equal(gate.statusCalls - statusBefore, 3, 'two answers without the id, then one');
      const op = await be.store.operations.getByClientId('card-ref', orderId);
      assert.equal(op?.status, 'approved');
      assert.equal(op?.gatewayRef, created.body.cardRefId);
    } finally {
      await be.close();
    }
  });

  it('202 while the reference is not there; a second POST follows it without a second request', async () => {
    const gate: Gate = {
      hiddenStatuses: Number.POSITIVE_INFINITY,
      statusCalls: 0,
      cardRefCalls: 0,
    };
    const be = await startBackend(sb, {
      gatewayFetch: asyncCardRefs(gate),
      timing: { operationFollowMs: 200 },
    });
    try {
      const orderId = await paidOrder(be);
      const pending = await merchant(be.url, 'POST', `/v1/orders/${orderId}/card-ref`, {});
      assert.equal(pending.status, 202, JSON.stringify(pending.body));
      assert.deepEqual(pending.body, { cardRefId: null, orderId, status: 'processing' });
      gate.hiddenStatuses = 0;
      const created = await merchant(be.url, 'POST', `/v1/orders/${orderId}/card-ref`, {});
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.cardRefId, await sandboxRefOf(be, orderId));
      assert.equal(gate.cardRefCalls, 1, 'create-card-ref is sent once');
      const again = await merchant(be.url, 'POST', `/v1/orders/${orderId}/card-ref`, {});
      assert.equal(again.status, 200);
      assert.equal(again.body.cardRefId, created.body.cardRefId);
    } finally {
      await be.close();
    }
  });
});
