/**
 * Money operations whose request never finished: an instance died between its steps, or a write
 * after the gateway acted failed and the answer was a 500 (which releases the Idempotency-Key).
 * Two backends share one store here, as two instances share one database: A dies at a chosen
 * point (its gateway call never comes back and its connections drop), B carries on with the
 * reconciler and the merchant's retries. What the gateway holds is read from the sandbox's own
 * tables: a retry under the same key must never refund twice, and an operation A left behind
 * must never be taken for an equal earlier one, nor hold its order for good.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CheckoutStore } from '../../server/src/store/index.js';
import {
  type Backend,
  type BackendOptions,
  closeServer,
  createSession,
  merchant,
  type Pair,
  Shopper,
  sandboxTransactions,
  startBackend,
  startPair,
  waitFor,
} from './support/proof.js';

type GatewayFetch = NonNullable<BackendOptions['gatewayFetch']>;

describe('interrupted money operations', () => {
  let pair: Pair;
  const dead: Backend[] = [];
  before(async () => {
    pair = await startPair();
  });
  after(async () => {
    // A dead instance's request never settles: its server is closed, not its checkout app.
    for (const a of dead) await closeServer(a.server).catch(() => {});
    await pair.close();
  });

  /**
   * Instance A on B's store. Its first money call dies: `after-send` once the gateway acted,
   * `before-send` before anything left. A's own connections drop, so its caller sees a failure.
   */
  async function dyingInstance(point: 'after-send' | 'before-send'): Promise<Backend> {
    let armed = true;
    let instance: Backend | undefined;
    const gatewayFetch: GatewayFetch = async (url, init) => {
      if (armed && /\/api\/v2\/(return|capture|void)\//.test(url)) {
        armed = false;
        if (point === 'after-send') await (await fetch(url, init)).text();
        instance?.server.closeAllConnections();
        return new Promise(() => {});
      }
      return fetch(url, init);
    };
    instance = await startBackend(pair.sb, { store: pair.store, gatewayFetch });
    dead.push(instance);
    return instance;
  }

  async function paid(intent: 'sale' | 'preauth'): Promise<string> {
    const session = await createSession(pair.be.url, { intent, amount: '10.00' });
    const final = await new Shopper(pair.be.url, session.token).complete({
      pan: '4000000000000002',
    });
    assert.equal(final.order.status, 'approved');
    return session.orderId;
  }

  /** The sandbox's own record of the order's money movements, once it has settled them. */
  async function atGateway(orderId: string, type: string) {
    await pair.sb.sandbox.idle();
    const txs = await sandboxTransactions(pair.sb, orderId);
    return txs.flatMap((t) =>
      t.operations.filter((o) => o.type === type).map((o) => [o.amountMinor, o.status]),
    );
  }

  const operationsOf = async (orderId: string) =>
    (
      await pair.db.query<{ id: string; kind: string; status: string }>(
        `select id, kind, status from merchant_operations where data->>'orderId' = $1 order by seq`,
        [orderId],
      )
    ).rows;

  const refund = (be: Backend, orderId: string, amount: string, key: string) =>
    merchant(
      be.url,
      'POST',
      `/v1/orders/${orderId}/return`,
      { amount },
      { 'Idempotency-Key': key },
    );

  it('the instance dies after the gateway refunded; the retry under the same key, once its claim expired, refunds nothing more', async () => {
    const a = await dyingInstance('after-send');
    const orderId = await paid('sale');
    const key = `refund-${orderId}`;
    await assert.rejects(refund(a, orderId, '2.00', key));
    // The gateway settles a return a moment after it answers.
    await waitFor('the return approved at the gateway', async () => {
      return (await atGateway(orderId, 'return')).length === 1;
    });
    // B's reconciler learns the outcome; the dead request's claim on the key runs out (120 s).
    await waitFor('the return settled by B', async () => {
      await pair.be.checkout.reconcile(0);
      return (await operationsOf(orderId))[0]?.status === 'approved';
    });
    await pair.db.query(
      `update idempotency_keys set locked_until = now() - interval '1 second' where key = $1`,
      [key],
    );

    const retry = await refund(pair.be, orderId, '2.00', key);
    assert.equal(retry.status, 200, JSON.stringify(retry.body));
    assert.equal(retry.body.operation.status, 'approved');
    assert.equal(retry.body.order.returnedAmount, '2.00');
    assert.deepEqual(await atGateway(orderId, 'return'), [[200, 'approved']]);
    assert.equal((await operationsOf(orderId)).length, 1);
  });

  it('a 500 after the refund released the key; the retry under it answers the same refund, and another amount under it is refused', async () => {
    // The store fails the one read after the refund, as a dropped database connection would.
    let failNextOrderRead = false;
    const flaky: CheckoutStore = {
      ...pair.store,
      orders: {
        ...pair.store.orders,
        get: async (id) => {
          if (!failNextOrderRead) return pair.store.orders.get(id);
          failNextOrderRead = false;
          throw new Error('Connection terminated unexpectedly');
        },
      },
    };
    const gatewayFetch: GatewayFetch = async (url, init) => {
      const res = await fetch(url, init);
      if (url.includes('/api/v2/return/')) failNextOrderRead = true;
      return res;
    };
    const blinking = await startBackend(pair.sb, { store: flaky, gatewayFetch });
    try {
      const orderId = await paid('sale');
      const key = `refund-${orderId}`;
      const first = await refund(blinking, orderId, '2.00', key);
      assert.equal(first.status, 500, JSON.stringify(first.body));
      const retry = await refund(blinking, orderId, '2.00', key);
      assert.notEqual(retry.headers.get('idempotent-replayed'), 'true');
      assert.equal(retry.status, 200, JSON.stringify(retry.body));
      assert.equal(retry.body.operation.id, (await operationsOf(orderId))[0]?.id);
      const other = await refund(blinking, orderId, '3.00', key);
      assert.equal(other.status, 422, JSON.stringify(other.body));
      assert.equal(other.body.error.code, 'idempotency-conflict');
      assert.deepEqual(await atGateway(orderId, 'return'), [[200, 'approved']]);
      assert.equal((await operationsOf(orderId)).length, 1);
    } finally {
      await blinking.close();
    }
  });

  it('a return the instance reserved and never sent is not taken for an equal earlier one: unknown, then resolved', async () => {
    const a = await dyingInstance('before-send');
    const orderId = await paid('sale');
    assert.equal((await refund(pair.be, orderId, '2.00', `r1-${orderId}`)).status, 200);
    await assert.rejects(refund(a, orderId, '2.00', `r2-${orderId}`));
    const [, left] = await operationsOf(orderId);
    assert.equal(left?.status, 'new');

    await pair.be.checkout.reconcile(0);
    await pair.be.checkout.reconcile(0);
    assert.equal((await operationsOf(orderId))[1]?.status, 'unknown');
    const order = await merchant(pair.be.url, 'GET', `/v1/orders/${orderId}`);
    assert.equal(order.body.returnedAmount, '2.00');
    assert.deepEqual(await atGateway(orderId, 'return'), [[200, 'approved']]);

    const resolved = await merchant(pair.be.url, 'POST', `/v1/operations/${left?.id}/resolve`, {
      status: 'declined',
      note: 'Back office: one return only',
    });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    assert.equal((await refund(pair.be, orderId, '1.00', `r3-${orderId}`)).status, 200);
  });

  it('a capture the instance reserved and never sent holds its order only until resolved', async () => {
    const a = await dyingInstance('before-send');
    const orderId = await paid('preauth');
    await assert.rejects(merchant(a.url, 'POST', `/v1/orders/${orderId}/capture`, {}));
    await pair.be.checkout.reconcile(0);
    const [left] = await operationsOf(orderId);
    assert.equal(left?.status, 'unknown');
    const held = await merchant(pair.be.url, 'POST', `/v1/orders/${orderId}/capture`, {});
    assert.equal(held.status, 409, JSON.stringify(held.body));

    const resolved = await merchant(pair.be.url, 'POST', `/v1/operations/${left?.id}/resolve`, {
      status: 'declined',
      note: 'Back office: never captured',
    });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    const capture = await merchant(pair.be.url, 'POST', `/v1/orders/${orderId}/capture`, {});
    assert.equal(capture.status, 200, JSON.stringify(capture.body));
    assert.equal(capture.body.order.capturedAmount, '10.00');
    assert.deepEqual(await atGateway(orderId, 'capture'), [[1000, 'approved']]);
  });

  it('a refund refused while another is pending says Retry-After, and its key runs once that one is final', async () => {
    const a = await dyingInstance('before-send');
    const orderId = await paid('sale');
    await assert.rejects(refund(a, orderId, '2.00', `r1-${orderId}`));
    const key = `r2-${orderId}`;
    const refused = await refund(pair.be, orderId, '3.00', key);
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.equal(refused.headers.get('retry-after'), '5');
    assert.match(refused.body.error.message, /is still processing; try again once it is final/);

    await pair.be.checkout.reconcile(0);
    const [left] = await operationsOf(orderId);
    const resolved = await merchant(pair.be.url, 'POST', `/v1/operations/${left?.id}/resolve`, {
      status: 'declined',
      note: 'Back office: not sent',
    });
    assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
    // Not the 409 again: the key kept nothing, and the refund runs now.
    const again = await refund(pair.be, orderId, '3.00', key);
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.headers.get('idempotent-replayed'), null);
    assert.equal(again.body.order.returnedAmount, '3.00');
    assert.deepEqual(await atGateway(orderId, 'return'), [[300, 'approved']]);
  });

  it('two resolves at once: one wins, the other hears 409 and its note is not kept', async () => {
    const a = await dyingInstance('before-send');
    const orderId = await paid('sale');
    await assert.rejects(refund(a, orderId, '2.00', `r-${orderId}`));
    await pair.be.checkout.reconcile(0);
    const [left] = await operationsOf(orderId);
    assert.equal(left?.status, 'unknown');
    const answers = await Promise.all(
      ['Ann', 'Bob'].map((who) =>
        merchant(pair.be.url, 'POST', `/v1/operations/${left?.id}/resolve`, {
          status: 'declined',
          note: `checked by ${who}`,
        }),
      ),
    );
    assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409]);
    const winner = answers.find((r) => r.status === 200);
    const read = await merchant(pair.be.url, 'GET', `/v1/operations/${left?.id}`);
    assert.equal(read.body.reason, winner?.body.reason);
  });
});
