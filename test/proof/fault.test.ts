/**
 * Fault proofs: with the sandbox's fault switches on (latency, 5xx, answers dropped after the
 * state changed, duplicate and out-of-order callbacks) every order still ends in its right final
 * status, the sandbox holds exactly one sale for each client_orderid, and no callback is applied
 * twice. Per-operation faults travel as the `X-Sandbox-Fault` header, added by the backend's
 * gateway fetch for the operations a test names; endpoint-wide faults use the sandbox's switches.
 */
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  card,
  createSession,
  exactlyOneCharge,
  faultPlan,
  historyCount,
  merchant,
  type Pair,
  payBody,
  Shopper,
  sandboxTransactions,
  scaled,
  startPair,
  waitFor,
} from './support/proof.js';

const faults = faultPlan();
/**
 * The backend's client timeout, and a sale slower than it. Both scale with the machine's load: on
 * a busy machine an ordinary answer can take a second, which is a timeout the test did not mean.
 */
const GATEWAY_TIMEOUT_MS = scaled(1_000);
const SLOWER_THAN_THE_TIMEOUT_MS = GATEWAY_TIMEOUT_MS + 600;

describe('fault proofs', () => {
  let pair: Pair;
  before(async () => {
    pair = await startPair(
      {
        // Deterministic share-of-calls faults.
        random: (() => {
          let x = 0;
          return () => {
            x = (x + 0.37) % 1;
            return x;
          };
        })(),
        callbacks: { baseDelayMs: 30, maxAttempts: 4, timeoutMs: scaled(2_000) },
      },
      {
        gatewayTimeoutMs: GATEWAY_TIMEOUT_MS,
        gatewayFetch: faults.fetch,
      },
    );
  });
  afterEach(() => {
    faults.clear();
    pair.sb.sandbox.faults.clear();
  });
  after(async () => {
    await pair.close();
  });

  /** The order reached through the merchant API agrees, and the sandbox made one charge. */
  async function settled(orderId: string, status: string, kind: 'sale' | 'preauth' = 'sale') {
    const order = await merchant(pair.be.url, 'GET', `/v1/orders/${orderId}`);
    assert.equal(order.status, 200);
    assert.equal(order.body.status, status);
    const charge = await exactlyOneCharge(pair.sb, orderId);
    assert.equal(charge.kind, kind);
    assert.equal(charge.status, status);
    return order.body;
  }

  /** Drives the shopper through the widget API; answers the final action. */
  async function pay(scenario: string) {
    const session = await createSession(pair.be.url);
    const shopper = new Shopper(pair.be.url, session.token);
    const final = await shopper.complete(card(scenario));
    return { session, shopper, final };
  }

  it('latency on every call: every scenario still ends right, one charge each', async () => {
    pair.sb.sandbox.faults.set('*', { latencyMs: 80 });
    for (const [scenario, status] of [
      ['approved', 'approved'],
      ['declined', 'declined'],
      ['3ds2-challenge', 'approved'],
      ['3ds1', 'approved'],
    ] as const) {
      const { session, final } = await pay(scenario);
      assert.equal(final.order.status, status, scenario);
      await settled(session.orderId, status);
    }
  });

  it('a sale slower than the client timeout ends right through status, never sent twice', async () => {
    faults.inject('/api/v2/sale/', `latency=${SLOWER_THAN_THE_TIMEOUT_MS}`);
    const session = await createSession(pair.be.url);
    const shopper = new Shopper(pair.be.url, session.token);
    const first = await shopper.pay(card('approved'));
    assert.equal(first.action, 'wait');
    assert.equal(first.order.status, 'unknown');
    const final = await shopper.until(first, 10_000);
    assert.equal(final.action, 'final');
    assert.equal(final.order.status, 'approved');
    await settled(session.orderId, 'approved');
    const order = await pair.store.orders.getByClientOrderId(session.orderId);
    assert.ok(order);
    assert.equal(await historyCount(pair.be, order.id, 'sale'), 1);
  });

  it('5xx on the sale: nothing charged, the attempt closes as error through reconciliation; the next is a new transaction', async () => {
    faults.inject('/api/v2/sale/', '5xx');
    const session = await createSession(pair.be.url);
    const shopper = new Shopper(pair.be.url, session.token);
    const first = await shopper.pay(card('approved'));
    assert.equal(first.order.status, 'unknown');
    assert.deepEqual(await sandboxTransactions(pair.sb, session.orderId), []);
    await pair.be.checkout.reconcile(0);
    const order = await merchant(pair.be.url, 'GET', `/v1/orders/${session.orderId}`);
    assert.equal(order.body.status, 'error');
    assert.deepEqual(await sandboxTransactions(pair.sb, session.orderId), []);
    const again = await shopper.call(
      'POST',
      '/pay',
      payBody(card('approved').pan, { holder: 'J S' }),
    );
    // The failed attempt is never sent again: the second pay is attempt 2, its own transaction.
    assert.equal(again.status, 200);
    assert.equal(again.body.order.orderId, session.orderId);
    assert.equal(again.body.order.attemptId, `${session.orderId}-2`);
    assert.equal(again.body.order.attempt, 2);
    assert.deepEqual(await sandboxTransactions(pair.sb, session.orderId), []);
  });

  it('5xx on status polls: the order waits, then ends right when the gateway recovers', async () => {
    faults.inject('/api/v2/status/', '5xx', 6);
    const { session, final } = await pay('unknown-then-approved');
    assert.equal(final.order.status, 'approved');
    await settled(session.orderId, 'approved');
    assert.ok((faults.remaining('/api/v2/status/') ?? 6) < 6, 'no status call met the fault');
  });

  it('the sale answer dropped after it was committed: found by status, charged once', async () => {
    for (const [scenario, status] of [
      ['approved', 'approved'],
      ['declined', 'declined'],
      ['3ds2-challenge', 'approved'],
    ] as const) {
      faults.inject('/api/v2/sale/', 'drop');
      const { session, final } = await pay(scenario);
      assert.equal(final.order.status, status, scenario);
      await settled(session.orderId, status);
    }
  });

  it('duplicate and out-of-order callbacks: each event applied once, the final status stays', async () => {
    pair.sb.sandbox.faults.set('*', { duplicateCallbacks: true, outOfOrderCallbacks: true });
    const sessions: { orderId: string; status: string }[] = [];
    for (const [scenario, status] of [
      ['approved', 'approved'],
      ['declined', 'declined'],
      ['3ds2-challenge', 'approved'],
    ] as const) {
      const { session, final } = await pay(scenario);
      assert.equal(final.order.status, status);
      sessions.push({ orderId: session.orderId, status });
    }
    // A preauth, then a capture: the stale preauth callback arrives again after the capture's.
    const held = await createSession(pair.be.url, { intent: 'preauth' });
    const heldFinal = await new Shopper(pair.be.url, held.token).complete(card('approved'));
    assert.equal(heldFinal.order.status, 'approved');
    const capture = await merchant(pair.be.url, 'POST', `/v1/orders/${held.orderId}/capture`, {
      amount: '4.00',
    });
    assert.equal(capture.status, 200, JSON.stringify(capture.body));
    assert.equal(capture.body.operation.status, 'approved');

    for (const s of [...sessions, { orderId: held.orderId, status: 'approved' }]) {
      const [tx] = await sandboxTransactions(pair.sb, s.orderId);
      assert.ok(tx);
      // Every callback the sandbox queued (duplicates and stale repeats) was delivered with 200.
      const sent = await waitFor(`callbacks of ${s.orderId}`, async () => {
        const list = await pair.sb.sandbox.sandbox.callbacks.list(tx.orderid);
        return list.length > 0 && list.every((c) => c.delivered) ? list : undefined;
      });
      // One event per set of signed fields (status, orderid, client_orderid): the preauth's and
      // the capture's `approved` are one callback to us, since `type` is not signed.
      const events = new Set(
        sent.map((c) => `${c.query.status}/${c.query.orderid}/${c.query.client_orderid}`),
      );
      assert.ok(sent.length > events.size, `no duplicate was sent for ${s.orderId}`);
      const recorded = await pair.store.callbacks.forGatewayOrder(tx.orderid);
      assert.equal(recorded.length, events.size, JSON.stringify(recorded.map((c) => c.status)));
      assert.ok(recorded.every((c) => c.processedAt));
      const order = await merchant(pair.be.url, 'GET', `/v1/orders/${s.orderId}`);
      assert.equal(order.body.status, s.status);
    }
    const captured = await merchant(pair.be.url, 'GET', `/v1/orders/${held.orderId}`);
    assert.equal(captured.body.capturedAmount, '4.00');
    const charge = await exactlyOneCharge(pair.sb, held.orderId);
    assert.equal(charge.kind, 'preauth');
    assert.equal(
      charge.operations.filter((o) => o.type === 'capture').length,
      1,
      JSON.stringify(charge.operations),
    );
  });

  it('a burst of orders under mixed faults: every order right, one charge each', async () => {
    pair.sb.sandbox.faults.set('*', {
      latencyMs: 40,
      dropRate: 0.2,
      duplicateCallbacks: true,
      outOfOrderCallbacks: true,
    });
    const scenarios = [
      ['approved', 'approved'],
      ['declined', 'declined'],
      ['insufficient-funds', 'declined'],
      ['error', 'error'],
      ['filtered', 'filtered'],
      ['unknown-then-approved', 'approved'],
    ] as const;
    const results = await Promise.all(
      scenarios.map(async ([scenario, status]) => {
        const { session, final } = await pay(scenario);
        return { scenario, status, orderId: session.orderId, got: final.order.status };
      }),
    );
    for (const r of results) {
      assert.equal(r.got, r.status, r.scenario);
      await settled(r.orderId, r.status);
    }
  });
});
