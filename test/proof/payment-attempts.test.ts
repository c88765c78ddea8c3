/**
 * Payment attempts in one checkout, never two charges kept. Two backends share one store (as two
 * instances share one database), on PGlite and on PostgreSQL; what the gateway holds is read from
 * the sandbox's own tables. A shopper declined pays again with another card; the cap stops card
 * testing; an attempt whose bank page was left and that the bank approves late is kept when it is
 * first, and reversed (once, in full) when another attempt was approved before it, whichever way
 * the late news arrives: a callback, a status poll after the bank's answer, or the reconciler.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { NextAction } from '../../contract/api-types.js';
import type { SandboxOptions } from '../../server/src/sandbox/index.js';
import type { CheckoutStore } from '../../server/src/store/index.js';
import { pgliteStore, postgresStore, type TestStore } from '../support/stores.js';
import { heldClock } from './support/held-clock.js';
import {
  attemptLedger,
  type Backend,
  card,
  createSession,
  merchant,
  runChallenge,
  type Sandbox,
  Shopper,
  sandboxTransactions,
  startBackend,
  startSandbox,
  waitFor,
} from './support/proof.js';

const WEBHOOK = { url: 'http://127.0.0.1:9/hooks', secret: 'attempts-webhook-secret-0123456789' };
/**
 * The bank approves a left late-approval challenge "this long" after it was shown: when the test
 * releases it (heldClock), after the step the proof puts before it. A 3-D Secure step's own
 * expiry is later still, and never released.
 */
const LATE_MS = 10 * 60_000;
const THREE_DS_TIMEOUT_MS = 60 * 60_000;
/** How long `unknown-then-approved` stays unknown. */
const UNKNOWN_MS = 1_200;

type Json = Record<string, unknown>;

for (const testStore of [pgliteStore(), postgresStore('checkout_attempts')] as TestStore[]) {
  describe(`payment attempts (${testStore.kind}, two instances on one store)`, () => {
    let store: CheckoutStore;
    /** Callbacks delivered (the default), or dropped: then only polls and the reconciler tell. */
    let callbacks: 'deliver' | 'drop' = 'deliver';
    let sb: Sandbox;
    let a: Backend;
    let b: Backend;
    // Held: every timer of a minute or more (the late approval, a 3-D Secure step's expiry).
    const clock = heldClock(60_000);
    /** The bank approves the left challenge now. */
    const bankApprovesLeftChallenge = () => clock.release(LATE_MS);

    before(async () => {
      store = await testStore.open();
      const dropping: NonNullable<SandboxOptions['fetch']> = async (url, init) => {
        if (callbacks === 'drop') throw new Error('callback dropped by the test');
        return fetch(url, init);
      };
      sb = await startSandbox({
        clock,
        lateApprovalMs: LATE_MS,
        threeDsTimeoutMs: THREE_DS_TIMEOUT_MS,
        unknownDurationMs: UNKNOWN_MS,
        fetch: dropping,
      });
      a = await startBackend(sb, { store, config: { webhook: WEBHOOK } });
      b = await startBackend(sb, { store, config: { webhook: WEBHOOK } });
    });
    after(async () => {
      await a.close();
      await b.close();
      await sb.sandbox.idle();
      await sb.close();
      await store.close();
      await testStore.cleanup();
    });

    const order = (orderId: string) => merchant(a.url, 'GET', `/v1/orders/${orderId}`);
    const { attemptRows, events, atGateway } = attemptLedger(
      () => store,
      () => sb,
    );

    /** Attempt 1 stops at its challenge and the shopper leaves it (closes it, or presses Back). */
    async function leftChallenge(shopper: Shopper, scenario: string) {
      const method = await shopper.until(await shopper.pay(card(scenario)));
      assert.equal(method.action, 'method');
      const challenge = await shopper.until(await shopper.methodResult('U'));
      assert.equal(challenge.action, 'challenge');
      const left = await shopper.call('POST', '/cancel', { reason: 'challenge-cancelled' });
      assert.equal(left.status, 200);
      assert.equal(left.body.action, 'final');
      assert.equal(left.body.order.abandoned, true);
      return challenge as Extract<NextAction, { action: 'challenge' }>;
    }

    it('declined on one instance, then another card approved on the other: one order, two attempts', async () => {
      const session = await createSession(a.url);
      const declined = await new Shopper(a.url, session.token).complete(card('insufficient-funds'));
      assert.equal(declined.order.status, 'declined');
      assert.deepEqual(
        [declined.order.attemptId, declined.order.attempt, declined.order.attemptsLeft],
        [session.orderId, 1, 4],
      );
      const approved = await new Shopper(b.url, session.token).complete(card('approved'));
      assert.equal(approved.order.status, 'approved');
      assert.equal(approved.order.orderId, session.orderId);
      assert.equal(approved.order.attemptId, `${session.orderId}-2`);

      const view = await order(session.orderId);
      assert.equal(view.body.status, 'approved');
      assert.equal(view.body.gatewayOrderId, approved.order.gatewayOrderId);
      assert.deepEqual(
        view.body.attempts.map((x: Json) => [x.id, x.attempt, x.status, x.errorCode]),
        [
          [session.orderId, 1, 'declined', '51'],
          [`${session.orderId}-2`, 2, 'approved', null],
        ],
      );
      // The gateway's back office: one sale per attempt, named after the order.
      assert.deepEqual(await atGateway(session.orderId), [
        [session.orderId, 'sale', 'declined', []],
        [`${session.orderId}-2`, 'sale', 'approved', []],
      ]);
      assert.deepEqual(await events(session.orderId), ['order.approved 2', 'payment.declined 1']);
      // Read by the attempt's own id, the merchant gets the order it belongs to.
      assert.equal((await order(`${session.orderId}-2`)).body.orderId, session.orderId);
      // Listed once, by the status it has now (its kept attempt's), not its first attempt's.
      const listed = async (status: string) =>
        (await merchant(a.url, 'GET', `/v1/orders?status=${status}&limit=500`)).body.orders.map(
          (o: { orderId: string }) => o.orderId,
        );
      assert.deepEqual(
        (await listed('approved')).filter((id: string) => id.startsWith(session.orderId)),
        [session.orderId],
      );
      assert.ok(!(await listed('declined')).includes(session.orderId));
    });

    it('the cap: the attempt after the last allowed is a 409 attempts-exhausted, nothing sent', async () => {
      const session = await createSession(a.url, { maxAttempts: 2 });
      const shopper = new Shopper(a.url, session.token);
      assert.equal((await shopper.complete(card('declined'))).order.attemptsLeft, 1);
      const last = await shopper.complete(card('error'));
      assert.equal(last.order.status, 'error');
      assert.equal(last.order.attemptsLeft, 0);
      const refused = await new Shopper(b.url, session.token).call(
        'POST',
        '/pay',
        shopper.payBody(card('approved')),
      );
      assert.equal(refused.status, 409);
      assert.equal(refused.body.error.code, 'attempts-exhausted');
      assert.equal((await shopper.call('GET', '/session')).body.state, 'completed');
      assert.equal((await sandboxTransactions(sb, `${session.orderId}-3`)).length, 0);
      assert.equal((await order(session.orderId)).body.status, 'error');
      assert.deepEqual(await events(session.orderId), [
        'order.attempts-exhausted 2',
        'order.error 2',
        'payment.declined 1',
        'payment.declined 2',
      ]);
    });

    it('a retry pressed twice at once, on both instances: one new attempt', async () => {
      const session = await createSession(a.url);
      const shopper = new Shopper(a.url, session.token);
      await shopper.complete(card('declined'));
      const body = shopper.payBody(card('approved'));
      const [one, two] = await Promise.all([
        shopper.call('POST', '/pay', body),
        new Shopper(b.url, session.token).call('POST', '/pay', body),
      ]);
      assert.deepEqual([one.status, two.status], [200, 200]);
      assert.equal(one.body.order.attemptId, `${session.orderId}-2`);
      assert.equal(two.body.order.attemptId, `${session.orderId}-2`);
      await shopper.until(await shopper.next(2));
      assert.equal((await attemptRows(session.orderId)).length, 2);
      assert.equal((await sandboxTransactions(sb, `${session.orderId}-2`)).length, 1);
      assert.equal((await sandboxTransactions(sb, `${session.orderId}-3`)).length, 0);
    });

    it('a retry racing the session expiry: either the attempt starts or the session ends, never both', async () => {
      for (let round = 0; round < 3; round++) {
        const session = await createSession(a.url);
        const shopper = new Shopper(a.url, session.token);
        await shopper.complete(card('declined'));
        await store.db.query(
          "update checkout_sessions set expires_at = now() + interval '150 milliseconds' where id = $1",
          [session.id],
        );
        await new Promise((r) => setTimeout(r, 150 - round * 60));
        const [paid] = await Promise.all([
          shopper.call('POST', '/pay', shopper.payBody(card('approved'))),
          b.checkout.expireSessions(),
        ]);
        // Refused, the pay saw the session past its end; the expiry job raced beside it may have
        // run just before that moment (a busy machine moves it): its next run ends the session.
        if (paid.status !== 200) await b.checkout.expireSessions();
        const state = (await store.sessions.get(session.id))?.state;
        const second = await sandboxTransactions(sb, `${session.orderId}-2`);
        if (paid.status === 200) {
          assert.notEqual(state, 'expired');
          assert.equal(second.length, 1);
        } else {
          assert.equal(paid.status, 410, JSON.stringify(paid.body));
          assert.equal(state, 'expired');
          assert.equal(second.length, 0);
          // The order's last word, once: its only attempt was declined.
          assert.deepEqual(await events(session.orderId), [
            'order.declined 1',
            'payment.declined 1',
          ]);
        }
      }
    });

    it('left, then another card approved, then the bank approves the left one (callback): reversed once', async () => {
      callbacks = 'deliver';
      const session = await createSession(a.url);
      await leftChallenge(new Shopper(a.url, session.token), '3ds2-challenge-late-approval');
      const second = await new Shopper(b.url, session.token).complete(card('approved'));
      assert.equal(second.order.status, 'approved');
      await bankApprovesLeftChallenge();
      // The callback of the late approval reaches instance A, which reverses it.
      await waitFor(
        'the reversal',
        async () => (await attemptRows(session.orderId))[0]?.reversedAt,
      );
      const [first, kept] = await attemptRows(session.orderId);
      assert.equal(first?.status, 'approved');
      assert.match(first?.reversalReason ?? '', /attempt 2 .* was approved first/);
      assert.equal(first?.returnedMinor, 1042);
      assert.equal(kept?.reversalReason, null);
      assert.deepEqual(await atGateway(session.orderId), [
        [session.orderId, 'sale', 'approved', ['return 1042 approved']],
        [`${session.orderId}-2`, 'sale', 'approved', []],
      ]);
      assert.deepEqual(await events(session.orderId), ['order.approved 2', 'payment.reversed 1']);
      const view = await order(session.orderId);
      assert.equal(view.body.status, 'approved');
      assert.equal(view.body.returnedAmount, '0.00', 'the kept attempt is untouched');
      assert.equal(view.body.attempts[0].reversal.reason, first?.reversalReason);
      // The merchant's own money operations act on the kept attempt only.
      const refund = await merchant(a.url, 'POST', `/v1/orders/${session.orderId}/return`, {});
      assert.equal(refund.status, 200, JSON.stringify(refund.body));
      assert.deepEqual((await atGateway(session.orderId))[1], [
        `${session.orderId}-2`,
        'sale',
        'approved',
        ['return 1042 approved'],
      ]);
    });

    it('left preauth approved late (reconciler, callbacks lost) after another approved: voided once', async () => {
      callbacks = 'drop';
      try {
        const session = await createSession(a.url, { intent: 'preauth' });
        await leftChallenge(new Shopper(a.url, session.token), '3ds2-challenge-late-approval');
        const second = await new Shopper(b.url, session.token).complete(card('approved'));
        assert.equal(second.order.status, 'approved');
        await bankApprovesLeftChallenge();
        await waitFor('the bank approving the left attempt', async () => {
          const [tx] = await sandboxTransactions(sb, session.orderId);
          return tx?.status === 'approved';
        });
        // Nobody polls a left attempt but the reconciler: both instances at once.
        await Promise.all([a.checkout.reconcile(0), b.checkout.reconcile(0)]);
        await waitFor('the void', async () => (await attemptRows(session.orderId))[0]?.reversedAt);
        const [first] = await attemptRows(session.orderId);
        assert.ok(first?.voidedAt);
        assert.deepEqual(await atGateway(session.orderId), [
          [session.orderId, 'preauth', 'approved', ['void 1042 approved']],
          [`${session.orderId}-2`, 'preauth', 'approved', []],
        ]);
        const reversed = (await events(session.orderId)).filter((e) => e.startsWith('payment.'));
        assert.deepEqual(reversed, ['payment.reversed 1']);
        const capture = await merchant(a.url, 'POST', `/v1/orders/${session.orderId}/capture`, {});
        assert.equal(capture.status, 200, JSON.stringify(capture.body));
        assert.equal(capture.body.order.capturedAmount, '10.42');
      } finally {
        callbacks = 'deliver';
      }
    });

    it('the left attempt approved first, then the new one answered at its bank (status poll): the new one is reversed', async () => {
      const session = await createSession(a.url);
      await leftChallenge(new Shopper(a.url, session.token), '3ds2-challenge-late-approval');
      // Attempt 2 waits at its own challenge while the bank approves attempt 1.
      const shopper = new Shopper(b.url, session.token);
      const method = await shopper.until(await shopper.pay(card('3ds2-challenge-no-method')));
      const challenge = await shopper.until(await shopper.methodResult('U'));
      assert.equal(method.action, 'method');
      assert.equal(challenge.action, 'challenge');
      if (challenge.action !== 'challenge') return;
      await bankApprovesLeftChallenge();
      await waitFor('attempt 1 kept', async () => {
        const [first] = await attemptRows(session.orderId);
        return first?.status === 'approved';
      });
      assert.equal((await order(session.orderId)).body.status, 'approved');
      // The shopper answers attempt 2's bank page anyway: its return page uploads, polls, reverses.
      await runChallenge(challenge.acsUrl, { creq: challenge.creq }, '1234');
      const final = await shopper.until(await shopper.next(2));
      // The widget is shown the order's truth: paid, by the attempt kept.
      assert.equal(final.action, 'final');
      assert.equal(final.order.status, 'approved');
      assert.equal(final.order.attemptId, session.orderId);
      await waitFor(
        'the reversal',
        async () => (await attemptRows(session.orderId))[1]?.reversedAt,
      );
      assert.deepEqual(await atGateway(session.orderId), [
        [session.orderId, 'sale', 'approved', []],
        [`${session.orderId}-2`, 'sale', 'approved', ['return 1042 approved']],
      ]);
      const approvals = (await events(session.orderId)).filter(
        (e) => e.startsWith('order.') || e.startsWith('payment.'),
      );
      assert.deepEqual(approvals, ['order.approved 1', 'payment.reversed 2']);
    });

    it('the new attempt declined, then the left one approved late: kept, and the next Pay shows it paid', async () => {
      const session = await createSession(a.url);
      const shopper = new Shopper(a.url, session.token);
      await leftChallenge(shopper, '3ds2-challenge-late-approval');
      const declined = await new Shopper(b.url, session.token).complete(card('declined'));
      assert.equal(declined.order.attemptsLeft, 3);
      await bankApprovesLeftChallenge();
      await waitFor('attempt 1 kept', async () => {
        const [first] = await attemptRows(session.orderId);
        return first?.status === 'approved';
      });
      assert.equal((await shopper.call('GET', '/session')).body.state, 'completed');
      // The shopper, shown the form after the decline, pays again: nothing is sent, it is paid.
      const again = await shopper.call('POST', '/pay', shopper.payBody(card('approved')));
      assert.equal(again.status, 200);
      assert.equal(again.body.action, 'final');
      assert.equal(again.body.order.status, 'approved');
      assert.equal(again.body.order.attemptId, session.orderId);
      assert.equal((await attemptRows(session.orderId)).length, 2);
      assert.deepEqual(await atGateway(session.orderId), [
        [session.orderId, 'sale', 'approved', []],
        [`${session.orderId}-2`, 'sale', 'declined', []],
      ]);
      assert.deepEqual(await events(session.orderId), ['order.approved 1', 'payment.declined 2']);
    });

    it('declined on the card form, then the hosted form: the next attempt is a hosted one', async () => {
      const session = await createSession(a.url);
      const shopper = new Shopper(a.url, session.token);
      await shopper.complete(card('declined'));
      const hosted = await shopper.call('POST', '/hosted');
      assert.equal(hosted.status, 200, JSON.stringify(hosted.body));
      assert.equal(hosted.body.action, 'redirect');
      assert.equal(hosted.body.order.attemptId, `${session.orderId}-2`);
      // Its own transaction at the gateway, whose form the shopper is sent to.
      assert.equal((await sandboxTransactions(sb, `${session.orderId}-2`)).length, 1);
      assert.match(hosted.body.url, /^http:\/\/127\.0\.0\.1:\d+\//);
    });

    it('two attempts approved at the gateway, settled by both instances at once: exactly one kept', async () => {
      callbacks = 'drop';
      try {
        for (let round = 0; round < 3; round++) {
          const session = await createSession(a.url);
          await leftChallenge(new Shopper(a.url, session.token), '3ds2-challenge-late-approval');
          const second = await new Shopper(b.url, session.token).pay(card('unknown-then-approved'));
          assert.equal(second.order.attemptId, `${session.orderId}-2`);
          await bankApprovesLeftChallenge();
          await waitFor('both approved at the gateway', async () => {
            const txs = [
              ...(await sandboxTransactions(sb, session.orderId)),
              ...(await sandboxTransactions(sb, `${session.orderId}-2`)),
            ];
            return txs.length === 2 && txs.every((t) => t.status === 'approved');
          });
          await Promise.all([a.checkout.reconcile(0), b.checkout.reconcile(0)]);
          await waitFor('one reversal', async () =>
            (await attemptRows(session.orderId)).some((r) => r.reversedAt),
          );
          const rows = await attemptRows(session.orderId);
          assert.deepEqual(
            rows.map((r) => r.status),
            ['approved', 'approved'],
          );
          const kept = rows.filter((r) => r.reversalReason === null);
          assert.equal(kept.length, 1, JSON.stringify(rows));
          assert.equal((await store.sessions.get(session.id))?.orderId, kept[0]?.id);
          const returns = (await atGateway(session.orderId)).flatMap(([, , , ops]) => ops);
          assert.deepEqual(returns, ['return 1042 approved']);
          const told = (await events(session.orderId)).filter(
            (e) => e.startsWith('order.') || e.startsWith('payment.'),
          );
          assert.deepEqual(told, [
            `order.approved ${kept[0]?.attempt}`,
            `payment.reversed ${3 - (kept[0]?.attempt ?? 0)}`,
          ]);
        }
      } finally {
        callbacks = 'deliver';
      }
    });
  });
}
