/**
 * One card reference per order, however often it is asked for: the shopper's consent on one
 * instance (its create-card-ref slowed down), the merchant's POST, the reconciler and a direct
 * call on another instance, all at once, on one store. And when create-card-ref's answer is lost,
 * the reference is found through the order's status by the reconciler, never asked for again.
 * Each time: one create-card-ref sent, one reference at the gateway, one row, one
 * `card_ref.created`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { keepCardRef } from '../../server/src/checkout/saved-cards/keep-card-ref.js';
import {
  type Backend,
  createSession,
  faultPlan,
  merchant,
  type Pair,
  Shopper,
  startBackend,
  startPair,
  waitFor,
} from './support/proof.js';

const WEBHOOK = { url: 'http://127.0.0.1:9/hook', secret: 'whsec-test-0123456789' };

describe('one card reference per order', () => {
  const faults = faultPlan();
  let pair: Pair;
  let other: Backend;
  before(async () => {
    pair = await startPair({}, { gatewayFetch: faults.fetch, config: { webhook: WEBHOOK } });
    other = await startBackend(pair.sb, { store: pair.store, config: { webhook: WEBHOOK } });
  });
  after(async () => {
    await other.close();
    await pair.close();
  });

  /** An approved order of a session that saves always, paid on the first instance. */
  async function paidOrder() {
    const session = await createSession(pair.be.url, { saveCard: 'always' });
    const final = await new Shopper(pair.be.url, session.token).complete({
      pan: '4000000000000002',
    });
    assert.equal(final.order.status, 'approved');
    const row = await pair.store.orders.getByClientOrderId(session.orderId);
    assert.ok(row?.gatewayOrderId);
    return row;
  }

  /** Everything there is of the order's card reference, on both sides. */
  async function everything(orderRowId: string, gatewayOrderId: string) {
    const operation = await pair.store.operations.getByClientId(
      'card-ref',
      (await pair.store.orders.get(orderRowId))?.clientOrderId ?? '',
    );
    const sent = operation
      ? (
          await pair.db.query(
            'select 1 from gateway_history where operation_id = $1 and operation = $2',
            [operation.id, 'create-card-ref'],
          )
        ).rows.length
      : 0;
    const gateway = await pair.db.query(
      'select id from sandbox_card_refs where source_orderid = $1',
      [gatewayOrderId],
    );
    const kept = await pair.db.query('select id from card_refs where order_id = $1', [orderRowId]);
    const events = await pair.db.query(
      `select 1 from merchant_webhooks where order_id = $1 and event = 'card_ref.created'`,
      [orderRowId],
    );
    return {
      sent,
      atGateway: gateway.rows.length,
      kept: kept.rows.map((r) => String(r.id)),
      events: events.rows.length,
    };
  }

  it('asked for at once on two instances, by the consent, the merchant and the reconciler: made once', async () => {
    faults.inject('/create-card-ref/', 'latency=400');
    const order = await paidOrder();
    const answers = await Promise.all([
      merchant(other.url, 'POST', `/v1/orders/${order.clientOrderId}/card-ref`, {}),
      keepCardRef(other.checkout.context, order),
      other.checkout.reconcile(0),
      keepCardRef(pair.be.checkout.context, order),
    ]);
    const refs = new Set([
      answers[0].body.cardRefId,
      answers[1].cardRef?.id,
      answers[3].cardRef?.id,
    ]);
    assert.equal(refs.size, 1, JSON.stringify([...refs]));
    const [ref] = refs;
    const all = await everything(order.id, order.gatewayOrderId as string);
    assert.deepEqual(all, { sent: 1, atGateway: 1, kept: [ref], events: 1 });
  });

  it('its answer lost: found through the status by the reconciler, never sent again', async () => {
    faults.inject('/create-card-ref/', 'drop');
    const order = await paidOrder();
    const ref = await waitFor('the reference kept', async () => {
      await pair.be.checkout.reconcile(0);
      return pair.store.cardRefs.ofOrder(order.id);
    });
    const all = await everything(order.id, order.gatewayOrderId as string);
    assert.deepEqual(all, { sent: 1, atGateway: 1, kept: [ref.id], events: 1 });
    const operation = await pair.store.operations.getByClientId('card-ref', order.clientOrderId);
    assert.equal(operation?.status, 'approved');
  });
});
