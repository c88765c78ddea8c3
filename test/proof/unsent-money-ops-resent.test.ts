/**
 * Money operations reserved in the store that never reached the gateway (the crash review's D3
 * and D4): the instance died between reserving and sending, so the operation is `unknown` and,
 * before, stayed so for good (the next capture or return a 409, a late approval's reversal never
 * sent, the shopper charged twice). Now the reconciler of any instance, once the operation's lease
 * is over, asks the gateway the order's status; when it proves the gateway never took the
 * operation (it describes another, earlier one), the same request is sent again, once. Two
 * backends share one store, as instances share a database; the sandbox's own ledger says what
 * the gateway did.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NextAction } from '../../contract/api-types.js';
import type { CheckoutStore } from '../../server/src/store/index.js';
import { memoryCheckoutStore } from '../support/memory-schemas.js';
import { heldClock } from './support/held-clock.js';
import {
  type Backend,
  type BackendOptions,
  card,
  closeServer,
  createSession,
  merchant,
  type Sandbox,
  Shopper,
  sandboxTransactions,
  startBackend,
  startSandbox,
  waitFor,
} from './support/proof.js';

type GatewayFetch = NonNullable<BackendOptions['gatewayFetch']>;
/** The lease of a reserved send: short here, so that B may pick A's reservation up soon. */
const TIMING = { sendLeaseMs: 300 };
const LATE_MS = 10 * 60_000;

describe('money operations reserved and never sent are sent again, once', () => {
  let store: CheckoutStore;
  let sb: Sandbox;
  let b: Backend;
  const dead: Backend[] = [];
  const clock = heldClock(60_000);
  before(async () => {
    store = await memoryCheckoutStore();
    sb = await startSandbox({ clock, lateApprovalMs: LATE_MS, threeDsTimeoutMs: 6 * LATE_MS });
    b = await startBackend(sb, { store, timing: TIMING });
  });
  after(async () => {
    for (const a of dead) await closeServer(a.server).catch(() => {});
    await b.close();
    await sb.sandbox.idle();
    await sb.close();
    await store.close();
  });

  /** Instance A on B's store: its first capture, void or return dies before anything left. */
  async function dyingInstance(): Promise<Backend> {
    let armed = true;
    let instance: Backend | undefined;
    const gatewayFetch: GatewayFetch = async (url, init) => {
      if (armed && /\/api\/v2\/(return|capture|void)\//.test(url)) {
        armed = false;
        instance?.server.closeAllConnections();
        return new Promise(() => {});
      }
      return fetch(url, init);
    };
    instance = await startBackend(sb, { store, gatewayFetch, timing: TIMING });
    dead.push(instance);
    return instance;
  }

  const operationsOf = async (clientOrderId: string) =>
    (
      await store.db.query<{ id: string; kind: string; status: string }>(
        `select id, kind, status from merchant_operations where data->>'orderId' = $1 order by seq`,
        [clientOrderId],
      )
    ).rows;
  /** The sandbox's own record of one transaction's money movements. */
  async function atGateway(clientOrderId: string) {
    await sb.sandbox.idle();
    const txs = await sandboxTransactions(sb, clientOrderId);
    return txs.flatMap((t) =>
      t.operations
        .filter((o) => ['capture', 'void', 'return'].includes(o.type))
        .map((o) => `${o.type} ${o.amountMinor} ${o.status}`),
    );
  }
  /** B's reconciler, pass after pass, until `done`. */
  const reconcileUntil = (what: string, done: () => Promise<unknown>) =>
    waitFor(what, async () => {
      await b.checkout.reconcile(0);
      return done();
    });

  const cases = [
    { kind: 'capture', intent: 'preauth', body: {}, expect: ['capture 1042 approved'] },
    { kind: 'void', intent: 'preauth', body: {}, expect: ['void 1042 approved'] },
    { kind: 'return', intent: 'sale', body: { amount: '2.00' }, expect: ['return 200 approved'] },
  ] as const;
  for (const c of cases) {
    it(`a ${c.kind} reserved by an instance that died before sending it is sent again by another's reconciler`, async () => {
      const a = await dyingInstance();
      const session = await createSession(b.url, { intent: c.intent });
      const paid = await new Shopper(b.url, session.token).complete(card('approved'));
      assert.equal(paid.order.status, 'approved');
      await assert.rejects(
        merchant(a.url, 'POST', `/v1/orders/${session.orderId}/${c.kind}`, c.body),
      );
      assert.deepEqual(await atGateway(session.orderId), [], 'nothing reached the gateway');
      await reconcileUntil(
        `the ${c.kind} approved`,
        async () => (await operationsOf(session.orderId))[0]?.status === 'approved',
      );
      assert.deepEqual(await atGateway(session.orderId), c.expect);
      // The order is free again: the next operation is judged on what the gateway did.
      const view = await merchant(b.url, 'GET', `/v1/orders/${session.orderId}`);
      if (c.kind === 'capture') assert.equal(view.body.capturedAmount, '10.42');
      if (c.kind === 'return') assert.equal(view.body.returnedAmount, '2.00');
      if (c.kind === 'void') assert.equal(view.body.voided, true);
      // More passes send nothing more.
      await b.checkout.reconcile(0);
      assert.deepEqual(await atGateway(session.orderId), c.expect);
    });
  }

  it("a late approval's reversal reserved by an instance that died before sending it is sent again, once", async () => {
    const a = await dyingInstance();
    const session = await createSession(a.url);
    const shopper = new Shopper(a.url, session.token);
    const method = await shopper.until(await shopper.pay(card('3ds2-challenge-late-approval')));
    assert.equal(method.action, 'method');
    const challenge: NextAction = await shopper.until(await shopper.methodResult('U'));
    assert.equal(challenge.action, 'challenge');
    const left = await shopper.call('POST', '/cancel', { reason: 'challenge-cancelled' });
    assert.equal(left.status, 200, JSON.stringify(left.body));
    const second = await new Shopper(b.url, session.token).complete(card('approved'));
    assert.equal(second.order.status, 'approved');
    // The bank approves the left challenge; its callback reaches A, whose reversal never leaves.
    await clock.release(LATE_MS);
    await waitFor('the reversal reserved by A', async () =>
      (await operationsOf(session.orderId)).some((o) => o.kind === 'return'),
    );
    assert.deepEqual(await atGateway(session.orderId), []);
    await closeServer(a.server);

    await reconcileUntil('the left attempt reversed', async () => {
      const first = await store.orders.getByClientOrderId(session.orderId);
      return first?.reversedAt;
    });
    assert.deepEqual(await atGateway(session.orderId), ['return 1042 approved']);
    assert.deepEqual(await atGateway(`${session.orderId}-2`), []);
    const first = await store.orders.getByClientOrderId(session.orderId);
    assert.ok(first);
    const events = (await store.webhooks.forOrder(first.id)).map((e) => e.event);
    assert.deepEqual(
      events.filter((e) => e === 'payment.reversed'),
      ['payment.reversed'],
      'events are kept with no webhook configured: the reversal is told once',
    );
    await b.checkout.reconcile(0);
    assert.deepEqual(await atGateway(session.orderId), ['return 1042 approved']);
  });
});
