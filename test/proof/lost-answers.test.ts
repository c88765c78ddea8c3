/**
 * Lost answers of money operations: the gateway acted (or may have), and its answer never came
 * back. The sandbox's `drop` fault commits the operation and then closes the connection; its `5xx`
 * fault answers 500 before it changes anything. For each, what the gateway holds is read from the
 * sandbox's own tables: a merchant's retry under the same Idempotency-Key must not move money
 * twice, an answer lost before the gateway learnt the operation's id must still be found, and the
 * status of an earlier step of the same transaction must not be taken for the operation's own.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  createSession,
  faultPlan,
  merchant,
  type Pair,
  Shopper,
  sandboxTransactions,
  startPair,
  uniqueOrderId,
  waitFor,
} from './support/proof.js';

const faults = faultPlan();
const APPROVED = { pan: '4000000000000002' };

describe('lost answers of money operations', () => {
  let pair: Pair;
  before(async () => {
    pair = await startPair(
      {},
      {
        gatewayFetch: faults.fetch,
        // Queued events are read from the table; nothing listens on port 9.
        config: {
          webhook: { url: 'http://127.0.0.1:9/hooks', secret: 'webhook-secret-0123456789' },
        },
      },
    );
  });
  afterEach(() => faults.clear());
  after(async () => {
    await pair.close();
  });

  /** An approved 10.00 sale, paid through the widget API. */
  async function paidSale(): Promise<string> {
    const session = await createSession(pair.be.url, { intent: 'sale', amount: '10.00' });
    const final = await new Shopper(pair.be.url, session.token).complete(APPROVED);
    assert.equal(final.order.status, 'approved');
    return session.orderId;
  }

  /** The one transaction the sandbox holds for a client_orderid. */
  async function gatewayTx(clientOrderId: string) {
    const txs = await sandboxTransactions(pair.sb, clientOrderId);
    assert.equal(txs.length, 1, JSON.stringify(txs));
    return txs[0] as (typeof txs)[number];
  }

  /** A refund of `amount` under an Idempotency-Key, as the merchant's server sends it. */
  const keyedReturn = (orderId: string, amount: string, key: string) =>
    merchant(
      pair.be.url,
      'POST',
      `/v1/orders/${orderId}/return`,
      { amount },
      { 'Idempotency-Key': key },
    );

  it('a return whose answer is lost answers 202 unknown; a retry with its key replays it, one refund', async () => {
    const orderId = await paidSale();
    const refund = () => keyedReturn(orderId, '2.00', `refund-${orderId}`);
    faults.inject('/api/v2/return/', 'drop');
    const first = await refund();
    assert.equal(first.status, 202, JSON.stringify(first.body));
    assert.equal(first.body.operation.status, 'unknown');
    assert.equal(faults.remaining('/api/v2/return/'), 0);

    // The reconciler learns that the return went through...
    await waitFor(`${orderId} returned by the reconciler`, async () => {
      await pair.be.checkout.reconcile(0);
      const { body } = await merchant(pair.be.url, 'GET', `/v1/orders/${orderId}`);
      return body.returnedAmount === '2.00';
    });
    // ...and the merchant's retry, after it, is the first answer again: nothing is sent.
    const retry = await refund();
    assert.equal(retry.status, 202);
    assert.equal(retry.headers.get('idempotent-replayed'), 'true');
    assert.equal(retry.body.operation.id, first.body.operation.id);

    const tx = await gatewayTx(orderId);
    assert.deepEqual(
      tx.operations.filter((o) => o.type === 'return').map((o) => [o.amountMinor, o.status]),
      [[200, 'approved']],
    );
  });

  it('a lost return equal to an earlier one is not taken as approved from that one: it stays unknown', async () => {
    const orderId = await paidSale();
    const first = await merchant(pair.be.url, 'POST', `/v1/orders/${orderId}/return`, {
      amount: '2.00',
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    // The second, of the same amount, never reaches the gateway (500 before anything changes);
    // the order's status still describes the first: a return of 2.00, approved.
    faults.inject('/api/v2/return/', '5xx');
    const second = await merchant(pair.be.url, 'POST', `/v1/orders/${orderId}/return`, {
      amount: '2.00',
    });
    assert.equal(second.status, 202, JSON.stringify(second.body));
    await pair.be.checkout.reconcile(0);
    await pair.be.checkout.reconcile(0);
    const order = await merchant(pair.be.url, 'GET', `/v1/orders/${orderId}`);
    assert.equal(order.body.returnedAmount, '2.00');
    const op = await pair.store.operations.get(second.body.operation.id);
    assert.equal(op?.status, 'unknown');
    const tx = await gatewayTx(orderId);
    assert.deepEqual(
      tx.operations.filter((o) => o.type === 'return').map((o) => o.amountMinor),
      [200],
    );
    // Until a person resolves it, the order takes no further return; the 409 says so, promises
    // no Retry-After, and is not kept under its key.
    const further = () => keyedReturn(orderId, '1.00', `after-${orderId}`);
    const blocked = await further();
    assert.equal(blocked.status, 409, JSON.stringify(blocked.body));
    assert.equal(blocked.headers.get('retry-after'), null);
    assert.equal(
      blocked.body.error.message,
      `A return of order ${orderId} (operation ${op?.id}) is unknown and waits for a person: check it in the gateway's back office, then POST /v1/operations/${op?.id}/resolve`,
    );
    const resolved = await merchant(pair.be.url, 'POST', `/v1/operations/${op?.id}/resolve`, {
      status: 'declined',
      note: 'Back office: one return of 2.00',
    });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    const ran = await further();
    assert.equal(ran.status, 200, JSON.stringify(ran.body));
    assert.equal(ran.body.order.returnedAmount, '3.00');
  });

  it('an unknown operation is resolved once by the merchant: declined moves nothing, approved moves the order', async () => {
    const events = async (operationId: string) =>
      (
        await pair.db.query<{ event: string }>(
          `select event from merchant_webhooks where payload->'data'->>'operationId' = $1`,
          [operationId],
        )
      ).rows.map((r) => r.event);
    const resolve = (operationId: string, body: unknown) =>
      merchant(pair.be.url, 'POST', `/v1/operations/${operationId}/resolve`, body);

    // Twins of an earlier 2.00 return: the first never reached the gateway (5xx), the second
    // did and its answer was dropped. Both stay unknown; the back office shows which is which.
    const orderId = await paidSale();
    const twin = async (fault: '5xx' | 'drop') => {
      faults.inject('/api/v2/return/', fault);
      const sent = await merchant(pair.be.url, 'POST', `/v1/orders/${orderId}/return`, {
        amount: '2.00',
      });
      assert.equal(sent.status, 202, JSON.stringify(sent.body));
      await pair.be.checkout.reconcile(0);
      return sent.body.operation.id as string;
    };
    assert.equal(
      (await merchant(pair.be.url, 'POST', `/v1/orders/${orderId}/return`, { amount: '2.00' }))
        .status,
      200,
    );
    const neverSent = await twin('5xx');

    const read = await merchant(pair.be.url, 'GET', `/v1/operations/${neverSent}`);
    assert.equal(read.status, 200);
    assert.deepEqual(
      [read.body.kind, read.body.status, read.body.amount],
      ['return', 'unknown', '2.00'],
    );

    // Bad bodies name the field and change nothing.
    for (const [body, field] of [
      [{ status: 'approved' }, 'note'],
      [{ status: 'approved', note: '   ' }, 'note'],
      [{ status: 'approved', note: 'checked\u0000' }, 'note'],
      [{ status: 'error', note: 'checked' }, 'status'],
      [{ status: 'declined', note: 'checked', amount: '2.00' }, 'amount'],
    ] as const) {
      const bad = await resolve(neverSent, body);
      assert.equal(bad.status, 400, JSON.stringify(bad.body));
      assert.equal(bad.body.error.field ?? null, field, JSON.stringify(bad.body));
    }
    assert.equal((await pair.store.operations.get(neverSent))?.status, 'unknown');
    const missing = await resolve('no-such-operation', { status: 'declined', note: 'x' });
    assert.equal(missing.status, 404);

    const declined = await resolve(neverSent, {
      status: 'declined',
      note: 'Back office: no second return on this order (Ann, 25 Nov)',
    });
    assert.equal(declined.status, 200, JSON.stringify(declined.body));
    assert.equal(declined.body.status, 'declined');
    assert.equal(
      declined.body.reason,
      'Resolved by the merchant: Back office: no second return on this order (Ann, 25 Nov)',
    );
    assert.deepEqual(await events(neverSent), ['return.declined']);
    const again = await resolve(neverSent, { status: 'approved', note: 'changed my mind' });
    assert.equal(again.status, 409);
    assert.match(again.body.error.message, /is declined/);
    assert.equal(
      (await merchant(pair.be.url, 'GET', `/v1/orders/${orderId}`)).body.returnedAmount,
      '2.00',
    );

    // The order takes returns again; this one reaches the gateway and its answer is lost.
    const dropped = await twin('drop');
    assert.equal((await pair.store.operations.get(dropped))?.status, 'unknown');
    const approved = await resolve(dropped, {
      status: 'approved',
      note: 'Back office: two returns of 2.00',
    });
    assert.equal(approved.status, 200, JSON.stringify(approved.body));
    assert.deepEqual(await events(dropped), ['return.approved']);
    const order = await merchant(pair.be.url, 'GET', `/v1/orders/${orderId}`);
    assert.equal(order.body.returnedAmount, '4.00');
    // The gateway did return it twice (it settles a return a moment after it answers).
    await waitFor(`${orderId}: two returns at the gateway`, async () => {
      const tx = await gatewayTx(orderId);
      const returns = tx.operations.filter((o) => o.type === 'return');
      return returns.length === 2 && returns.every((o) => o.status === 'approved');
    });

    // Only an unknown operation is resolved, never a final one.
    const first = await merchant(pair.be.url, 'POST', `/v1/orders/${orderId}/return`, {
      amount: '1.00',
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const final = await resolve(first.body.operation.id, { status: 'declined', note: 'x' });
    assert.equal(final.status, 409);
    assert.match(final.body.error.message, /is approved; only unknown is resolved/);
  });

  /** A one-step payout of 20.00 EUR to a card whose answer is dropped after the gateway acted. */
  const lostPayout = (orderId: string) => {
    faults.inject('/api/v2/payout/', 'drop');
    return merchant(pair.be.url, 'POST', '/v1/payouts', {
      orderId,
      amount: '20.00',
      currency: 'EUR',
      card: { number: '4000000000000002', holder: 'John Smith' },
    });
  };

  it('a one-step payout whose answer is lost is found by its client_orderid: on read, and by the reconciler', async () => {
    for (const find of ['read', 'reconciler'] as const) {
      const orderId = uniqueOrderId(`po-${find}`);
      const sent = await lostPayout(orderId);
      assert.equal(sent.status, 202, JSON.stringify(sent.body));
      assert.equal(sent.body.status, 'unknown');
      assert.equal(sent.body.gatewayOrderId ?? null, null);

      // The sandbox settles a payout a moment after it answers: asked again until it has.
      const read = await waitFor(`${orderId} approved by ${find}`, async () => {
        if (find === 'reconciler') await pair.be.checkout.reconcile(0);
        const { body } = await merchant(pair.be.url, 'GET', `/v1/payouts/${orderId}`);
        return body.status === 'approved' && body;
      });
      const tx = await gatewayTx(orderId);
      assert.equal(tx.status, 'approved');
      assert.equal(read.gatewayOrderId, tx.orderid, find);
    }
  });

  /** Step one of a two-step payout of 15.00 EUR to a card. */
  const checkPayout = (orderId: string) =>
    merchant(pair.be.url, 'POST', '/v1/payouts/check', {
      orderId,
      amount: '15.00',
      currency: 'EUR',
      cardNumber: '4000000000000002',
    });

  it('a two-step payout whose pay fails before the gateway acted is not read as paid from its check', async () => {
    const orderId = uniqueOrderId('po2');
    const check = await checkPayout(orderId);
    assert.equal(check.status, 201, JSON.stringify(check.body));
    faults.inject('/api/v4/payout-pay/', '5xx');
    const pay = await merchant(pair.be.url, 'POST', `/v1/payouts/${orderId}/pay`, {});
    assert.equal(pay.status, 202, JSON.stringify(pay.body));
    assert.equal(pay.body.status, 'unknown');

    // The gateway's status is still the check's (approved): neither a read nor the reconciler
    // takes it for the payout's.
    await pair.be.checkout.reconcile(0);
    const read = await merchant(pair.be.url, 'GET', `/v1/payouts/${orderId}`);
    assert.equal(read.body.status, 'unknown');
    // Nor may a person resolve it as paid: only captures, voids and returns are resolved.
    const resolve = await merchant(pair.be.url, 'POST', `/v1/operations/${read.body.id}/resolve`, {
      status: 'approved',
      note: 'Back office: payout-check approved',
    });
    assert.equal(resolve.status, 409, JSON.stringify(resolve.body));
    assert.match(
      resolve.body.error.message,
      /is a payout; only a capture, void or return is resolved/,
    );
    const tx = await gatewayTx(orderId);
    assert.equal(tx.phase, 'registered', JSON.stringify(tx));
    assert.deepEqual(
      tx.operations.map((o) => o.type),
      ['payout-check'],
    );
  });

  it('a two-step payout whose check answer is lost is found registered, then pays once', async () => {
    const orderId = uniqueOrderId('po2-lost-check');
    faults.inject('/api/v4/payout-check/', 'drop');
    const check = await checkPayout(orderId);
    assert.equal(check.status, 502, JSON.stringify(check.body));
    const registered = await waitFor(`${orderId} registered by the reconciler`, async () => {
      await pair.be.checkout.reconcile(0);
      const { body } = await merchant(pair.be.url, 'GET', `/v1/payouts/${orderId}`);
      return body.status === 'registered' && body;
    });
    assert.equal(registered.gatewayOrderId, (await gatewayTx(orderId)).orderid);
    const pay = await merchant(pair.be.url, 'POST', `/v1/payouts/${orderId}/pay`, {});
    assert.ok([200, 202].includes(pay.status), JSON.stringify(pay.body));
    await waitFor(`${orderId} paid`, async () => {
      const { body } = await merchant(pair.be.url, 'GET', `/v1/payouts/${orderId}`);
      return body.status === 'approved';
    });
    const tx = await gatewayTx(orderId);
    assert.deepEqual(
      tx.operations.map((o) => [o.type, o.status]),
      [
        ['payout-check', 'approved'],
        ['payout', 'approved'],
      ],
    );
  });

  it('a two-step payout whose pay answer is lost after it was paid is read as approved', async () => {
    const orderId = uniqueOrderId('po2-paid');
    await checkPayout(orderId);
    faults.inject('/api/v4/payout-pay/', 'drop');
    const pay = await merchant(pair.be.url, 'POST', `/v1/payouts/${orderId}/pay`, {});
    assert.equal(pay.status, 202, JSON.stringify(pay.body));
    assert.equal(pay.body.status, 'unknown');
    await waitFor(`${orderId} read as approved`, async () => {
      const { body } = await merchant(pair.be.url, 'GET', `/v1/payouts/${orderId}`);
      return body.status === 'approved';
    });
    const again = await merchant(pair.be.url, 'POST', `/v1/payouts/${orderId}/pay`, {});
    assert.equal(again.status, 409);
  });

  it('fifty operations waiting for a person do not keep the reconciler from a newer lost payout', async () => {
    // One final capture and fifty lost ones of the same amount on one order: twins, each left
    // `unknown` for a person, each looked at and put back at every pass.
    const twin = { kind: 'capture' as const, amountMinor: 100, currency: 'EUR' };
    const data = { orderRowId: `stuck-${uniqueOrderId()}`, orderId: 'stuck' };
    await pair.store.operations.create({
      ...twin,
      clientId: uniqueOrderId('done'),
      data,
      status: 'approved',
    });
    for (let i = 0; i < 50; i++) {
      await pair.store.operations.create({
        ...twin,
        clientId: uniqueOrderId('lost'),
        data,
        status: 'unknown',
      });
    }
    const orderId = uniqueOrderId('po-late');
    const sent = await lostPayout(orderId);
    assert.equal(sent.body.status, 'unknown');
    await waitFor(`${orderId} settled by the reconciler`, async () => {
      await pair.be.checkout.reconcile(0);
      return (await pair.store.operations.get(sent.body.id))?.status === 'approved';
    });
    const stuck = await pair.db.query<{ n: number }>(
      `select count(*)::int as n from merchant_operations where data->>'orderRowId' = $1 and status = 'unknown'`,
      [data.orderRowId],
    );
    assert.equal(stuck.rows[0]?.n, 50);
  });

  it('a rebill whose answer is lost is resolved by the reconciler, and its orderId cannot charge again', async () => {
    const orderId = await paidSale();
    const ref = await merchant(pair.be.url, 'POST', `/v1/orders/${orderId}/card-ref`, {});
    assert.equal(ref.status, 201, JSON.stringify(ref.body));
    const rebillId = uniqueOrderId('rebill');
    const body = {
      orderId: rebillId,
      cardRefId: ref.body.cardRefId,
      amount: '5.00',
      currency: 'EUR',
    };
    faults.inject('/api/v2/make-rebill/', 'drop');
    const sent = await merchant(pair.be.url, 'POST', '/v1/rebills', body);
    assert.equal(sent.status, 202, JSON.stringify(sent.body));
    assert.equal(sent.body.status, 'unknown');
    await waitFor(`${rebillId} approved by the reconciler`, async () => {
      await pair.be.checkout.reconcile(0);
      const { body } = await merchant(pair.be.url, 'GET', `/v1/rebills/${rebillId}`);
      return body.status === 'approved';
    });
    assert.equal((await merchant(pair.be.url, 'POST', '/v1/rebills', body)).status, 409);
    const tx = await gatewayTx(rebillId);
    assert.equal(tx.status, 'approved');
  });
});
