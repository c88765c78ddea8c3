/**
 * One shopper, one charge, across sessions (round-4 review, R4-M1 and R4-L3), on PGlite and on
 * PostgreSQL, read against the sandbox's own ledger:
 * - a session that ended (the merchant expired it, it reached its expiry, the shopper left the
 *   bank page of its last attempt) while a left attempt was still pending at the bank keeps no
 *   late approval: it is reversed in full, `payment.reversed`, no `order.approved`, the session
 *   stays as it ended; the merchant's expire of a session whose attempt is under way is a 409
 *   naming the attempt;
 * - `/widget/cancel` leaves no charge in flight: Pay and cancel alternated while each sale is still
 *   on its way end with one sale at the gateway.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { luhnValid } from '../../contract/card/luhn.js';
import type { CheckoutStore, Order } from '../../server/src/store/index.js';
import { pgliteStore, postgresStore, type TestStore } from '../support/stores.js';
import { heldClock } from './support/held-clock.js';
import {
  attemptLedger,
  type Backend,
  card,
  createSession,
  faultPlan,
  merchant,
  type Sandbox,
  Shopper,
  scaled,
  startBackend,
  startSandbox,
  waitFor,
} from './support/proof.js';

const WEBHOOK = { url: 'http://127.0.0.1:9/hooks', secret: 'ended-sessions-secret-0123456789' };
/** The bank approves a left challenge when the test releases this timer (heldClock). */
const LATE_MS = 10 * 60_000;
const THREE_DS_TIMEOUT_MS = 60 * 60_000;
/** Slower than the cancels that follow each Pay: every sale is still on its way when cancelled. */
const SALE_LATENCY_MS = 1_200;

for (const testStore of [pgliteStore(), postgresStore('ended_sessions')] as TestStore[]) {
  describe(`ended sessions keep no late approval (${testStore.kind})`, () => {
    let store: CheckoutStore;
    let sb: Sandbox;
    let a: Backend;
    const clock = heldClock(60_000);
    const faults = faultPlan();

    before(async () => {
      store = await testStore.open();
      sb = await startSandbox({
        clock,
        lateApprovalMs: LATE_MS,
        threeDsTimeoutMs: THREE_DS_TIMEOUT_MS,
      });
      a = await startBackend(sb, {
        store,
        gatewayFetch: faults.fetch,
        config: { webhook: WEBHOOK },
      });
    });
    after(async () => {
      await a.close();
      await sb.sandbox.idle();
      await sb.close();
      await store.close();
      await testStore.cleanup();
    });

    const { attemptRows, events, atGateway } = attemptLedger(
      () => store,
      () => sb,
    );

    /** The shopper stops at attempt 1's challenge and leaves it. */
    async function leftChallenge(shopper: Shopper) {
      const method = await shopper.until(await shopper.pay(card('3ds2-challenge-late-approval')));
      assert.equal(method.action, 'method');
      const challenge = await shopper.until(await shopper.methodResult('U'));
      assert.equal(challenge.action, 'challenge');
      const left = await shopper.call('POST', '/cancel', { reason: 'challenge-cancelled' });
      assert.equal(left.status, 200, JSON.stringify(left.body));
      assert.equal(left.body.order.abandoned, true);
      return left.body;
    }

    /** The bank approves the left attempt now; answers once its reversal is done. */
    async function lateApprovalReversed(orderId: string): Promise<Order> {
      await clock.release(LATE_MS);
      await waitFor('the reversal', async () => (await attemptRows(orderId))[0]?.reversedAt);
      const [first] = await attemptRows(orderId);
      assert.ok(first);
      return first;
    }

    it('the merchant expires a session whose left attempt is at the bank, the shopper pays a new one, then confirms the first: reversed', async () => {
      const first = await createSession(a.url);
      await leftChallenge(new Shopper(a.url, first.token));
      const expired = await merchant(a.url, 'POST', `/v1/checkout-sessions/${first.id}/expire`, {});
      assert.equal(expired.status, 200, JSON.stringify(expired.body));
      assert.equal(expired.body.state, 'expired');
      // The merchant's new session for the same cart, paid.
      const second = await createSession(a.url);
      const paid = await new Shopper(a.url, second.token).complete(card('approved'));
      assert.equal(paid.order.status, 'approved');

      const reversed = await lateApprovalReversed(first.orderId);
      assert.equal(reversed.status, 'approved');
      assert.match(reversed.reversalReason ?? '', /session was expired before the bank approved/);
      assert.equal(reversed.returnedMinor, 1042);
      assert.equal((await store.sessions.get(first.id))?.state, 'expired');
      // The gateway's ledger: the ended session's sale returned in full, the new one untouched.
      assert.deepEqual(await atGateway(first.orderId), [
        [first.orderId, 'sale', 'approved', ['return 1042 approved']],
      ]);
      assert.deepEqual(await atGateway(second.orderId), [[second.orderId, 'sale', 'approved', []]]);
      assert.deepEqual(await events(first.orderId), ['payment.reversed 1']);
      assert.deepEqual(await events(second.orderId), ['order.approved 1']);
      const view = await merchant(a.url, 'GET', `/v1/checkout-sessions/${first.id}`);
      assert.equal(view.body.state, 'expired');
      assert.equal(view.body.order.returnedAmount, '10.42');
    });

    it('a preauth left, the session past its expiry (the sweeper), then approved: voided', async () => {
      const session = await createSession(a.url, { intent: 'preauth' });
      await leftChallenge(new Shopper(a.url, session.token));
      await store.db.query(
        "update checkout_sessions set expires_at = now() - interval '1 second' where id = $1",
        [session.id],
      );
      await a.checkout.expireSessions();
      assert.equal((await store.sessions.get(session.id))?.state, 'expired');
      const reversed = await lateApprovalReversed(session.orderId);
      assert.ok(reversed.voidedAt);
      assert.deepEqual(await atGateway(session.orderId), [
        [session.orderId, 'preauth', 'approved', ['void 1042 approved']],
      ]);
      assert.deepEqual(await events(session.orderId), ['payment.reversed 1']);
      assert.equal((await store.sessions.get(session.id))?.state, 'expired');
    });

    it('the bank page of the last attempt left (cancelled), then approved: reversed', async () => {
      const session = await createSession(a.url, { maxAttempts: 1 });
      const shopper = new Shopper(a.url, session.token);
      await leftChallenge(shopper);
      assert.equal((await shopper.call('GET', '/session')).body.state, 'cancelled');
      const reversed = await lateApprovalReversed(session.orderId);
      assert.match(reversed.reversalReason ?? '', /session was cancelled/);
      assert.deepEqual(await atGateway(session.orderId), [
        [session.orderId, 'sale', 'approved', ['return 1042 approved']],
      ]);
      assert.deepEqual(await events(session.orderId), ['payment.reversed 1']);
      assert.equal((await store.sessions.get(session.id))?.state, 'cancelled');
    });

    it('an order id holding a Luhn-valid run (a timestamp) is reversed by that id, unmasked', async () => {
      // `ord-<12 digits + check digit>`: the API takes it (no card brand's number), and the store
      // once masked the run in the return's record, which the gateway then refused.
      const digits = String(Date.now()).slice(-12).padStart(12, '0');
      const orderId = `ord-${digits}${luhnCheckDigit(digits)}`;
      const session = await createSession(a.url, { maxAttempts: 1, orderId });
      await leftChallenge(new Shopper(a.url, session.token));
      const reversed = await lateApprovalReversed(orderId);
      assert.equal(reversed.returnedMinor, 1042);
      assert.deepEqual(await atGateway(orderId), [
        [orderId, 'sale', 'approved', ['return 1042 approved']],
      ]);
      assert.deepEqual(await events(orderId), ['payment.reversed 1']);
    });

    it("the merchant's expire while an attempt is under way: a 409 naming the attempt", async () => {
      const session = await createSession(a.url);
      const shopper = new Shopper(a.url, session.token);
      const method = await shopper.until(await shopper.pay(card('3ds2-challenge-no-method')));
      assert.equal(method.action, 'method');
      const refused = await merchant(
        a.url,
        'POST',
        `/v1/checkout-sessions/${session.id}/expire`,
        {},
      );
      assert.equal(refused.status, 409, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, 'conflict');
      assert.match(refused.body.error.message, new RegExp(`attempt 1 \\(${session.orderId}\\)`));
      assert.equal((await store.sessions.get(session.id))?.state, 'paying');
    });

    it('Pay and cancel alternated while each sale is on its way: one sale at the gateway', async () => {
      const session = await createSession(a.url);
      const shopper = new Shopper(a.url, session.token);
      faults.inject('/api/v2/sale/', `latency=${scaled(SALE_LATENCY_MS)}`, 5);
      try {
        const pays: Promise<{ status: number }>[] = [];
        const cancels: { status: number; body: { error?: { code: string } } }[] = [];
        for (let round = 0; round < 5; round++) {
          pays.push(shopper.call('POST', '/pay', shopper.payBody(card('approved'))));
          await new Promise((r) => setTimeout(r, 150));
          if (round === 0) {
            await waitFor('the sale on its way', async () => {
              const rows = await store.orders.attemptsOf(session.id);
              return rows[0]?.status === 'new' ? true : undefined;
            });
          }
          cancels.push(await shopper.call('POST', '/cancel', { reason: 'shopper-left' }));
        }
        const payStatuses = (await Promise.all(pays)).map((p) => p.status);
        // While the sale is on its way a cancel is refused; one that comes after its answer (a
        // busy machine) answers the order, approved: either way nothing is left.
        for (const c of cancels) {
          const seen = [c.status, c.body.error?.code];
          if (c.status !== 200) assert.deepEqual(seen, [409, 'payment-in-flight']);
        }
        assert.deepEqual(
          [cancels[0]?.status, cancels[0]?.body.error?.code],
          [409, 'payment-in-flight'],
        );
        // The first Pay sent the sale; the others found it under way (a double submit) or paid.
        assert.ok(
          payStatuses.every((s) => s === 200),
          JSON.stringify(payStatuses),
        );
        await shopper.until(await shopper.next(2));
      } finally {
        faults.clear();
      }
      const rows = await attemptRows(session.orderId);
      assert.equal(rows.length, 1);
      assert.equal(rows[0]?.abandonedAt, null);
      assert.deepEqual(await atGateway(session.orderId), [
        [session.orderId, 'sale', 'approved', []],
      ]);
      assert.deepEqual(await events(session.orderId), ['order.approved 1']);
    });
  });
}

/** The Luhn check digit that makes `digits` + it pass. */
function luhnCheckDigit(digits: string): number {
  for (let d = 0; d <= 9; d++) if (luhnValid(`${digits}${d}`)) return d;
  throw new Error('unreachable: one digit of ten always fits');
}
