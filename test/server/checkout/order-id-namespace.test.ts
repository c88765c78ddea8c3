/**
 * One namespace for every gateway client_orderid the backend creates, on PGlite and PostgreSQL: a
 * checkout session's orderId (its first attempt's id), its further attempts' `<orderId>-N`, and
 * the orderId of every merchant operation that sends one (rebills, payouts, transfers, account
 * verifications, hosted forms). A taken id is a 409 `conflict` naming `orderId`, with nothing
 * recorded or sent; two creations racing for one id give exactly one success. Before it, a rebill
 * and a checkout paid with a saved card under one orderId were both approved on one gateway
 * transaction (the gateway answers a repeated client_orderid, type, amount and currency with the
 * transaction it has). Follow-on requests on an order's own transaction (capture, void, return,
 * its card reference) and Idempotency-Key replays go on as before.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CheckoutStore } from '../../../server/src/store/index.js';
import { CHECKOUT_TABLES, sandboxTransactions, snapshotTables } from '../../proof/support/proof.js';
import {
  type Backend,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../support/loopback-stack.js';
import { pgliteStore, postgresStore, type TestStore } from '../../support/stores.js';
import {
  CUSTOMER,
  testCard as card,
  createSession,
  merchant,
  Shopper,
  uniqueOrderId,
} from '../../support/widget-api-client.js';

const TABLES = [...CHECKOUT_TABLES, 'client_order_ids'];
const VERIFIED_CARD = {
  number: '4000000000000002',
  expMonth: '12',
  expYear: '2030',
  cvc: '123',
  holder: 'John Smith',
};

for (const testStore of [pgliteStore(), postgresStore('order_id_namespace')] as TestStore[]) {
  describe(`one namespace of orderIds (${testStore.kind})`, () => {
    let sb: Sandbox;
    let be: Backend;
    let store: CheckoutStore;
    let cardRefId = '';

    before(async () => {
      sb = await startSandbox();
      store = await testStore.open();
      be = await startBackend(sb, { store });
      const paid = await createSession(be.url);
      const final = await new Shopper(be.url, paid.token).complete(card('approved'));
      assert.equal(final.order.status, 'approved');
      const ref = await merchant(be.url, 'POST', `/v1/orders/${paid.orderId}/card-ref`, {});
      assert.equal(ref.status, 201, JSON.stringify(ref.body));
      cardRefId = ref.body.cardRefId;
    });
    after(async () => {
      await be.close();
      await sb.sandbox.idle();
      await sb.close();
      await store.close();
      await testStore.cleanup();
    });

    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      merchant(be.url, 'POST', path, body, headers);
    const sessionBody = (orderId: string, extra: Record<string, unknown> = {}) => ({
      amount: '10.42',
      currency: 'EUR',
      orderId,
      description: 'Test order',
      customer: CUSTOMER,
      ...extra,
    });
    const creators = {
      session: (orderId: string) => post('/v1/checkout-sessions', sessionBody(orderId)),
      rebill: (orderId: string, amount = '5.00') =>
        post('/v1/rebills', { cardRefId, orderId, amount, currency: 'EUR' }),
      payout: (orderId: string) =>
        post('/v1/payouts', {
          orderId,
          amount: '20.00',
          currency: 'EUR',
          card: { number: '4000000000000002', holder: 'John Smith' },
        }),
      transfer: (orderId: string) =>
        post('/v1/transfers', {
          orderId,
          amount: '3.00',
          currency: 'EUR',
          description: 'Gift',
          sourceCardRefId: cardRefId,
          destinationCardNumber: '4000000000000002',
        }),
      'account-verification': (orderId: string) =>
        post('/v1/account-verifications', { orderId, card: VERIFIED_CARD, customer: CUSTOMER }),
      'hosted-form': (orderId: string) =>
        post('/v1/hosted-forms', {
          kind: 'sale',
          orderId,
          amount: '10.42',
          currency: 'EUR',
          customer: { email: CUSTOMER.email },
          returnUrl: 'https://shop.example/back',
        }),
    };
    type Creator = keyof typeof creators;
    const succeeded = (status: number) => status >= 200 && status < 300;

    /**
     * `second` refused with a 409 naming orderId and `usedFor`: no row of any table changed and
     * nothing more reached the gateway under that id.
     */
    async function refused(orderId: string, second: Creator, usedFor: RegExp) {
      await sb.sandbox.idle();
      const tables = await snapshotTables(store.db, TABLES);
      const atGateway = await sandboxTransactions(sb, orderId);
      const res = await creators[second](orderId);
      assert.equal(res.status, 409, JSON.stringify(res.body));
      assert.equal(res.body.error.code, 'conflict');
      assert.equal(res.body.error.field, 'orderId');
      assert.match(res.body.error.message, new RegExp(`^orderId ${orderId} is already used`));
      assert.match(res.body.error.message, usedFor);
      await sb.sandbox.idle();
      assert.deepEqual(await snapshotTables(store.db, TABLES), tables);
      assert.deepEqual(await sandboxTransactions(sb, orderId), atGateway);
    }

    it('a rebill first: a checkout session with its orderId is a 409, nothing created', async () => {
      const orderId = uniqueOrderId('ns');
      const rebill = await creators.rebill(orderId, '10.42');
      assert.equal(rebill.status, 200, JSON.stringify(rebill.body));
      await refused(orderId, 'session', /for a rebill$/);
      assert.equal((await merchant(be.url, 'GET', `/v1/orders/${orderId}`)).status, 404);
      assert.equal((await sandboxTransactions(sb, orderId)).length, 1);
    });

    it('a checkout paid with a saved card first: a rebill of its orderId, amount and currency is a 409, one charge at the gateway', async () => {
      const session = await createSession(be.url, { savedCards: [cardRefId] });
      const shopper = new Shopper(be.url, session.token);
      const handle = (await shopper.call('GET', '/session')).body.savedCards[0].handle;
      const final = await shopper.complete(card('approved'), await shopper.paySaved(handle, '123'));
      assert.equal(final.order.status, 'approved');
      await refused(session.orderId, 'rebill', /for a checkout session$/);
      // Same amount and currency as the checkout: the worst case of the old collision.
      const same = await creators.rebill(session.orderId, '10.42');
      assert.equal(same.status, 409);
      assert.equal((await merchant(be.url, 'GET', `/v1/rebills/${session.orderId}`)).status, 404);
      const txs = await sandboxTransactions(sb, session.orderId);
      assert.deepEqual(
        txs.map((t) => [t.kind, t.status]),
        [['rebill', 'approved']],
      );
    });

    it('a session first: a rebill, payout, transfer, account verification or hosted form with its orderId is a 409, nothing sent', async () => {
      const session = await createSession(be.url);
      for (const kind of [
        'rebill',
        'payout',
        'transfer',
        'account-verification',
        'hosted-form',
      ] as const) {
        await refused(session.orderId, kind, /for a checkout session$/);
      }
      assert.equal((await sandboxTransactions(sb, session.orderId)).length, 0);
      // The session is untouched: the shopper pays it.
      const final = await new Shopper(be.url, session.token).complete(card('approved'));
      assert.equal(final.order.status, 'approved');
    });

    it('a payout, an account verification or a hosted form first: a session with its orderId is a 409', async () => {
      for (const [kind, usedFor] of [
        ['payout', /for a payout$/],
        ['account-verification', /for an account-verification$/],
        ['hosted-form', /for a hosted-form$/],
      ] as const) {
        const orderId = uniqueOrderId('ns');
        const first = await creators[kind](orderId);
        assert.ok(succeeded(first.status), JSON.stringify(first.body));
        await refused(orderId, 'session', usedFor);
        // Nor may another kind take it.
        await refused(orderId, kind === 'payout' ? 'rebill' : 'payout', usedFor);
      }
    });

    it("an attempt id a merchant took first: the attempt is sent under another id of the order's, the shopper pays on", async () => {
      const orderId = uniqueOrderId('ns');
      // The merchant's rebill under the id the session's second attempt would take, with the
      // session's amount and currency: a saved-card attempt under it would be that rebill.
      const rebill = await creators.rebill(`${orderId}-2`, '10.42');
      assert.equal(rebill.status, 200, JSON.stringify(rebill.body));
      const session = await createSession(be.url, { orderId, savedCards: [cardRefId] });
      const shopper = new Shopper(be.url, session.token);
      const declined = await shopper.complete(card('declined'));
      assert.equal(declined.order.status, 'declined');
      const handle = (await shopper.call('GET', '/session')).body.savedCards[0].handle;
      const approved = await shopper.complete(
        card('approved'),
        await shopper.paySaved(handle, '123'),
      );
      assert.equal(approved.order.status, 'approved');
      assert.equal(approved.order.attempt, 2);
      const attemptId = approved.order.attemptId as string;
      assert.match(attemptId, new RegExp(`^${orderId}-[0-9a-f]{6}-2$`));
      assert.notEqual(approved.order.gatewayOrderId, rebill.body.gatewayOrderId);
      // At the gateway: the rebill alone under `<orderId>-2`, the attempt under its own id.
      await sb.sandbox.idle();
      assert.deepEqual(
        (await sandboxTransactions(sb, `${orderId}-2`)).map((t) => [t.orderid, t.kind]),
        [[rebill.body.gatewayOrderId, 'rebill']],
      );
      assert.equal((await sandboxTransactions(sb, attemptId)).length, 1);
      const view = await merchant(be.url, 'GET', `/v1/orders/${orderId}`);
      assert.equal(view.body.status, 'approved');
      assert.deepEqual(
        view.body.attempts.map((a: { id: string; status: string }) => [a.id, a.status]),
        [
          [orderId, 'declined'],
          [attemptId, 'approved'],
        ],
      );
      assert.equal(
        (await merchant(be.url, 'GET', `/v1/rebills/${orderId}-2`)).body.status,
        'approved',
      );
    });

    it("a session's further attempt holds its id: a rebill or a session with it is a 409 naming the attempt", async () => {
      const session = await createSession(be.url);
      const shopper = new Shopper(be.url, session.token);
      await shopper.complete(card('declined'));
      const second = await shopper.complete(card('approved'));
      assert.equal(second.order.attemptId, `${session.orderId}-2`);
      const usedFor = new RegExp(`for payment attempt 2 of order ${session.orderId}$`);
      await refused(`${session.orderId}-2`, 'rebill', usedFor);
      await refused(`${session.orderId}-2`, 'session', usedFor);
    });

    it('two creations racing for one orderId: exactly one succeeds', async () => {
      const pairs: [Creator, Creator][] = [
        ['session', 'rebill'],
        ['session', 'payout'],
        ['rebill', 'transfer'],
        ['session', 'session'],
      ];
      for (const [one, two] of pairs) {
        for (let round = 0; round < 3; round++) {
          const orderId = uniqueOrderId('race');
          const answers = await Promise.all([creators[one](orderId), creators[two](orderId)]);
          const statuses = answers.map((a) => a.status);
          assert.equal(
            statuses.filter(succeeded).length,
            1,
            `${one} and ${two}: ${JSON.stringify(answers.map((a) => a.body))}`,
          );
          const loser = answers.find((a) => !succeeded(a.status));
          assert.equal(loser?.status, 409);
          assert.equal(loser?.body.error.field, 'orderId');
          const { rows } = await store.db.query(
            'select owner_kind from client_order_ids where client_orderid = $1',
            [orderId],
          );
          assert.equal(rows.length, 1);
          await sb.sandbox.idle();
          assert.ok((await sandboxTransactions(sb, orderId)).length <= 1);
        }
      }
    });

    it("follow-on requests use the order's own client_orderid and go on: capture, return, void, card reference", async () => {
      const held = await createSession(be.url, { intent: 'preauth' });
      const paid = await new Shopper(be.url, held.token).complete(card('approved'));
      assert.equal(paid.order.status, 'approved');
      const capture = await post(`/v1/orders/${held.orderId}/capture`, { amount: '8.00' });
      assert.equal(capture.status, 200, JSON.stringify(capture.body));
      const back = await post(`/v1/orders/${held.orderId}/return`, { amount: '2.00' });
      assert.equal(back.status, 200, JSON.stringify(back.body));
      const ref = await post(`/v1/orders/${held.orderId}/card-ref`, {});
      assert.equal(ref.status, 201, JSON.stringify(ref.body));
      const order = await merchant(be.url, 'GET', `/v1/orders/${held.orderId}`);
      assert.deepEqual(
        [order.body.status, order.body.capturedAmount, order.body.returnedAmount],
        ['approved', '8.00', '2.00'],
      );
      const voided = await createSession(be.url, { intent: 'preauth' });
      await new Shopper(be.url, voided.token).complete(card('approved'));
      const voidAnswer = await post(`/v1/orders/${voided.orderId}/void`, {});
      assert.equal(voidAnswer.status, 200, JSON.stringify(voidAnswer.body));
      // Each order is still one transaction at the gateway, its money movements on it.
      await sb.sandbox.idle();
      assert.deepEqual(
        (await sandboxTransactions(sb, held.orderId)).map((t) => [
          t.kind,
          t.operations.map((o) => o.type).filter((type) => type !== 'preauth'),
        ]),
        [['preauth', ['capture', 'return']]],
      );
      assert.equal((await sandboxTransactions(sb, voided.orderId)).length, 1);
    });

    it('an Idempotency-Key replay gets the first answer and claims nothing again', async () => {
      const orderId = uniqueOrderId('ns');
      const key = { 'Idempotency-Key': `ns-${orderId}` };
      const first = await post('/v1/checkout-sessions', sessionBody(orderId), key);
      assert.equal(first.status, 201, JSON.stringify(first.body));
      const again = await post('/v1/checkout-sessions', sessionBody(orderId), key);
      assert.equal(again.status, 201, JSON.stringify(again.body));
      assert.equal(again.body.id, first.body.id);

      const rebillId = uniqueOrderId('ns');
      const rebillKey = { 'Idempotency-Key': `ns-${rebillId}` };
      const body = { cardRefId, orderId: rebillId, amount: '5.00', currency: 'EUR' };
      const charged = await post('/v1/rebills', body, rebillKey);
      assert.equal(charged.status, 200, JSON.stringify(charged.body));
      const replayed = await post('/v1/rebills', body, rebillKey);
      assert.equal(replayed.status, 200);
      assert.equal(replayed.body.id, charged.body.id);
      const { rows } = await store.db.query(
        'select owner_kind from client_order_ids where client_orderid = any($1::text[]) order by 1',
        [[orderId, rebillId]],
      );
      assert.deepEqual(
        rows.map((r) => r.owner_kind),
        ['rebill', 'session'],
      );
      await sb.sandbox.idle();
      assert.equal((await sandboxTransactions(sb, rebillId)).length, 1);
    });
  });
}
