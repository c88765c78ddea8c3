/**
 * A one-off payment link paid in two tabs, against a gateway written here from the spec's words
 * alone (test/support/tiny-gateway.ts), not our sandbox. Two visits of the link are two sessions;
 * both send their charge while neither is approved yet; the tiny gateway approves the first, then
 * the second. The backend must keep one and reverse the other in full, so that the shopper is
 * charged once.
 *
 * What the spec says (/work/shared/spec/payment-api.md):
 *  - "Payments and transaction management": sale and preauth control = endpointId,
 *    client_orderid, amount, email; return control = login, client_orderid, orderid, amount,
 *    currency; void control = login, client_orderid, orderid; status control = login,
 *    client_orderid, orderid ("empty string when absent").
 *  - "Authentication", scheme A: SHA-1 of the inputs in that order, then the merchant control key;
 *    "other inputs are the request fields of the same name"; `amount` in cents (10.00 is 1000).
 *  - "States and transitions" 2-5: return on a sale is a reversal; return "is allowed only when
 *    the original transaction is in a final successful status"; "Capture and return accept
 *    `amount` and `currency` for partial processing. Return omits them for a full reversal";
 *    void "never takes a partial amount". So the full reversal of a sale is a return that sends
 *    neither amount nor currency (its control's amount and currency inputs are then empty), and
 *    the gateway returns all the sale took; a preauth's is a void of the whole hold.
 * The tiny gateway refuses anything else (a wrong control, an unknown orderid, a return of a
 * transaction not approved yet, a partial amount); the suite ends by asserting it refused nothing.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { devMerchantAt } from '../support/loopback-stack.js';
import {
  sha1,
  startTinyGateway,
  type TinyGateway,
  type TinyHandler,
} from '../support/tiny-gateway.js';
import {
  type Backend,
  CUSTOMER,
  merchant,
  payBody,
  type Sandbox,
  Shopper,
  startBackend,
  startSandbox,
  uniqueOrderId,
  waitFor,
} from './support/proof.js';

/** The spec's cents of a decimal amount, by its digits (no floating point): "10.42" is 1042. */
const cents = (amount: string) => {
  const match = /^(\d+)\.(\d{2})$/.exec(amount);
  assert.ok(match, `an amount of two decimals: ${amount}`);
  return String(Number(`${match[1]}${match[2]}`));
};

const PAN = '4000000000000002';

interface Tx {
  orderid: string;
  clientOrderId: string;
  kind: 'sale' | 'preauth';
  amount: string;
  currency: string;
  /** The transaction's steps, latest last: what `status` describes. */
  steps: { type: string; amount: string; status: 'processing' | 'approved' }[];
}

/** Every request the tiny gateway received, as received, in order. */
interface Received {
  op: string;
  data: Record<string, string>;
}

function tinyRules(m: { endpointId: string; login: string; key: string }) {
  const ledger = new Map<string, Tx>();
  const received: Received[] = [];
  /** Charges the bank has not decided yet: their status says `processing` until released. */
  const held = new Set<string>();
  let next = 5100;

  const handle: TinyHandler = (op, data, reply) => {
    received.push({ op, data });
    const id = data.client_orderid ?? '';
    const tx = ledger.get(id);
    const ack = (t: Tx) =>
      reply.answer({
        type: 'async-response',
        status: 'processing',
        'paynet-order-id': t.orderid,
        'merchant-order-id': id,
        'serial-number': `sn-${next++}`,
      });
    switch (op) {
      case 'sale':
      case 'preauth': {
        const amount = data.amount ?? '';
        if (data.control !== sha1(`${m.endpointId}${id}${cents(amount)}${data.email}${m.key}`))
          return reply.refuse(`${op} control`);
        if (tx) return reply.refuse(`${op}: client_orderid ${id} charged already`);
        const created: Tx = {
          orderid: String(next++),
          clientOrderId: id,
          kind: op,
          amount,
          currency: data.currency ?? '',
          steps: [{ type: op, amount, status: 'processing' }],
        };
        ledger.set(id, created);
        return ack(created);
      }
      case 'return': {
        const amount = data.amount === undefined ? '' : cents(data.amount);
        const control = sha1(
          `${m.login}${id}${data.orderid}${amount}${data.currency ?? ''}${m.key}`,
        );
        if (data.control !== control || !tx || tx.orderid !== data.orderid)
          return reply.refuse('return control');
        if (tx.steps[0]?.status !== 'approved') return reply.refuse('return of a charge not final');
        if (tx.kind !== 'sale') return reply.refuse('a preauth hold is released by void here');
        // Partial only with amount and currency; without both, the whole sale.
        if (data.amount !== undefined || data.currency !== undefined)
          return reply.refuse('a reversal in full omits amount and currency');
        tx.steps.push({ type: 'return', amount: tx.amount, status: 'approved' });
        return ack(tx);
      }
      case 'void': {
        if (data.control !== sha1(`${m.login}${id}${data.orderid}${m.key}`) || !tx)
          return reply.refuse('void control');
        if (tx.orderid !== data.orderid || tx.kind !== 'preauth')
          return reply.refuse('void of no preauth');
        if (tx.steps[0]?.status !== 'approved') return reply.refuse('void of a hold not final');
        if (data.amount !== undefined) return reply.refuse('void takes no amount');
        tx.steps.push({ type: 'void', amount: tx.amount, status: 'approved' });
        return ack(tx);
      }
      case 'status': {
        if (data.control !== sha1(`${m.login}${id}${data.orderid ?? ''}${m.key}`))
          return reply.refuse('status control');
        if (!tx || (data.orderid && data.orderid !== tx.orderid))
          return reply.refuse('status of no transaction');
        const charge = tx.steps[0];
        if (charge && charge.status === 'processing' && !held.has(id)) charge.status = 'approved';
        const last = tx.steps.at(-1);
        assert.ok(last);
        return reply.answer({
          type: 'status-response',
          status: last.status,
          'transaction-type': last.type,
          amount: last.amount,
          currency: tx.currency,
          'paynet-order-id': tx.orderid,
          'merchant-order-id': id,
          'serial-number': `sn-${next++}`,
        });
      }
      default:
        return reply.refuse(`no operation ${op}`);
    }
  };
  return { handle, ledger, received, held };
}

/** The `session` token of the page's element. */
function tokenOf(html: string): string {
  const token = /<pay-checkout [^>]*session="([^"]+)"/.exec(html)?.[1];
  assert.ok(token, html.slice(0, 400));
  return token;
}

describe('a one-off payment link paid in two tabs, against a gateway written from the spec', () => {
  let sb: Sandbox;
  let be: Backend;
  let rules: ReturnType<typeof tinyRules>;
  let tiny: TinyGateway;
  let widgetDir: string;
  let dev: { endpointId: string; login: string; controlKey: string };
  before(async () => {
    // The sandbox only lends the dev merchant's credentials; every call goes to the tiny gateway.
    sb = await startSandbox();
    assert.ok(sb.sandbox.devCredentials);
    dev = sb.sandbox.devCredentials;
    rules = tinyRules({ endpointId: dev.endpointId, login: dev.login, key: dev.controlKey });
    tiny = await startTinyGateway(rules.handle);
    // The page pins the element by the build's integrity file; a made-up one serves here.
    widgetDir = await mkdtemp(join(tmpdir(), 'tiny-link-'));
    await writeFile(
      join(widgetDir, 'integrity.json'),
      JSON.stringify({ version: '1.0.0', files: { 'pay-checkout.js': 'sha384-x' } }),
    );
    be = await startBackend(sb, {
      config: { gateway: devMerchantAt(sb, tiny.url) },
      widgetDir,
      publicLimits: { payPagePerIp: 1000 },
    });
  });
  after(async () => {
    assert.deepEqual(tiny.refused, [], 'every request the backend sent was one the spec allows');
    await be.close();
    await tiny.close();
    await sb.close();
    await rm(widgetDir, { recursive: true, force: true });
  });

  /** A first visit of the link, as a browser makes it: 303 to the visit's address, then its page. */
  const visit = async (url: string) => {
    const first = await fetch(url, { redirect: 'manual' });
    assert.equal(first.status, 303);
    const page = await fetch(first.headers.get('location') ?? '', { redirect: 'manual' });
    assert.equal(page.status, 200);
    return new Shopper(be.url, tokenOf(await page.text()));
  };

  /** Drives a visit's shopper to the end of its payment. */
  const finish = async (shopper: Shopper, first: unknown) => {
    const final = await shopper.until(first as Parameters<Shopper['until']>[0], 15_000);
    assert.equal(final.action, 'final', JSON.stringify(final));
    return final;
  };

  const allEvents = async () => {
    const res = await merchant(be.url, 'GET', '/v1/events?limit=100');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // biome-ignore lint/suspicious/noExplicitAny: events are read as the JSON they are
    return res.body.events as { type: string; data: Record<string, any> }[];
  };

  for (const intent of ['sale', 'preauth'] as const) {
    const reversal = intent === 'sale' ? 'return' : 'void';
    it(`${intent}: two charges sent, both approved; the later one reversed by one ${reversal} in full`, async () => {
      const prefix = uniqueOrderId(`tl-${intent}`);
      const created = await merchant(be.url, 'POST', '/v1/payment-links', {
        amount: '10.42',
        currency: 'EUR',
        description: 'Invoice 77',
        customer: CUSTOMER,
        orderId: prefix,
        intent,
      });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const link = created.body as { id: string; url: string };
      const [first, second] = [`${prefix}-1`, `${prefix}-2`];
      /** What the tiny gateway received for this link's orders. */
      const mine = (op: string) =>
        rules.received.filter(
          (r) => r.op === op && (r.data.client_orderid ?? '').startsWith(`${prefix}-`),
        );

      // Two tabs: two visits, two sessions. The bank holds the second charge undecided.
      const tabA = await visit(link.url);
      const tabB = await visit(link.url);
      assert.notEqual(tabA.token, tabB.token);
      rules.held.add(second);
      const payA = await tabA.call('POST', '/pay', payBody(PAN));
      assert.equal(payA.status, 200, JSON.stringify(payA.body));
      const payB = await tabB.call('POST', '/pay', payBody(PAN));
      assert.equal(payB.status, 200, JSON.stringify(payB.body));
      assert.deepEqual(
        mine(intent).map((r) => r.data.client_orderid),
        [first, second],
        'both charges left before either was approved',
      );

      const finalA = await finish(tabA, payA.body);
      assert.equal(finalA.action === 'final' && finalA.order.status, 'approved');
      const paid = await merchant(be.url, 'GET', `/v1/payment-links/${link.id}`);
      assert.equal(paid.body.state, 'paid');
      assert.equal(paid.body.paymentCount, 1);
      assert.deepEqual(
        paid.body.payments.map((p: { orderId: string }) => p.orderId),
        [first],
      );

      // The bank approves the second tab's charge after the link took its one payment.
      rules.held.delete(second);
      const finalB = await finish(tabB, payB.body);
      assert.equal(finalB.action, 'final');

      const reversedOrder = await waitFor(
        `the ${reversal} of ${second} approved`,
        async () => {
          const order = await merchant(be.url, 'GET', `/v1/orders/${second}`);
          if (order.body.attempts?.[0]?.reversal?.reversedAt) return order.body;
          // The reversal runs at once; the reconciler's pass is its safety net (no timers here).
          await be.checkout.reconcile(0);
          return null;
        },
        { timeoutMs: 20_000, explain: () => JSON.stringify(rules.received.map((r) => r.op)) },
      );

      // What the tiny gateway received: two charges, one reversal of the later one, in full.
      const { login, controlKey: key, endpointId } = dev;
      const charges = mine(intent);
      assert.equal(charges.length, 2);
      for (const [i, charge] of charges.entries()) {
        const { data } = charge;
        assert.equal(data.client_orderid, [first, second][i]);
        assert.equal(data.amount, '10.42');
        assert.equal(data.currency, 'EUR');
        assert.equal(data.email, CUSTOMER.email);
        assert.equal(
          data.control,
          sha1(`${endpointId}${data.client_orderid}1042${CUSTOMER.email}${key}`),
        );
      }
      const reversals = [...mine('return'), ...mine('void')];
      assert.equal(reversals.length, 1, JSON.stringify(reversals));
      const sent = reversals[0] as Received;
      const txB = rules.ledger.get(second);
      assert.ok(txB);
      assert.equal(sent.op, reversal);
      assert.deepEqual(
        {
          client_orderid: sent.data.client_orderid,
          orderid: sent.data.orderid,
          login: sent.data.login,
          amount: sent.data.amount,
          currency: sent.data.currency,
        },
        {
          client_orderid: second,
          orderid: txB.orderid,
          login,
          amount: undefined,
          currency: undefined,
        },
      );
      assert.equal(
        sent.data.control,
        // Return: login, client_orderid, orderid, amount (none), currency (none); void: the first three.
        sha1(`${login}${second}${txB.orderid}${key}`),
      );
      assert.deepEqual(
        txB.steps.map((s) => `${s.type} ${s.amount} ${s.status}`),
        [`${intent} 10.42 approved`, `${reversal} 10.42 approved`],
      );
      assert.deepEqual(
        rules.ledger.get(first)?.steps.map((s) => `${s.type} ${s.status}`),
        [`${intent} approved`],
        'the kept charge is never touched',
      );

      // The merchant API: the link paid once, by the first visit; the second visit's order reversed.
      const linkAfter = await merchant(be.url, 'GET', `/v1/payment-links/${link.id}`);
      assert.equal(linkAfter.body.state, 'paid');
      assert.equal(linkAfter.body.paymentCount, 1);
      assert.deepEqual(
        linkAfter.body.payments.map((p: { orderId: string }) => p.orderId),
        [first],
      );
      const kept = (await merchant(be.url, 'GET', `/v1/orders/${first}`)).body;
      assert.deepEqual(
        [kept.status, kept.amount, kept.returnedAmount, kept.voided, kept.attempts[0].reversal],
        ['approved', '10.42', '0.00', false, null],
      );
      assert.equal(reversedOrder.status, 'approved');
      assert.equal(reversedOrder.amount, '10.42');
      assert.equal(reversedOrder.gatewayOrderId, txB.orderid);
      if (intent === 'sale') {
        assert.equal(reversedOrder.returnedAmount, '10.42');
        assert.equal(reversedOrder.voided, false);
      } else {
        assert.equal(reversedOrder.returnedAmount, '0.00');
        assert.equal(reversedOrder.voided, true);
      }
      assert.equal(reversedOrder.attempts.length, 1);
      assert.match(
        reversedOrder.attempts[0].reversal.reason,
        new RegExp(`payment link ${link.id} took its 1 payment\\(s\\) before the bank approved`),
      );

      // The events: the link paid once (naming the first visit), the second visit reversed once.
      const events = await waitFor('the events', async () => {
        const list = await allEvents();
        return list.some((e) => e.type === 'payment.reversed' && e.data.attempt?.id === second)
          ? list
          : null;
      });
      const linkPaid = events.filter(
        (e) => e.type === 'payment_link.paid' && e.data.paymentLink?.id === link.id,
      );
      assert.equal(linkPaid.length, 1);
      assert.deepEqual(
        linkPaid[0]?.data.paymentLink.payments.map((p: { orderId: string }) => p.orderId),
        [first],
      );
      const byOrder = (orderId: string) =>
        events
          .filter((e) => e.data.order?.orderId === orderId || e.data.attempt?.id === orderId)
          .map((e) => e.type)
          .sort();
      assert.deepEqual(byOrder(first), ['order.approved']);
      assert.deepEqual(byOrder(second), ['payment.reversed']);
      const reversedEvent = events.find((e) => e.type === 'payment.reversed');
      assert.equal(reversedEvent?.data.attempt.status, 'approved');
      assert.equal(reversedEvent?.data.order.amount, '10.42');

      // The second tab's page says the link was paid by another visit; no third charge is taken.
      await be.checkout.sweepPaymentLinks();
      const plain = await fetch(link.url);
      assert.match(await plain.text(), /This link has already been paid\./);
      assert.equal(mine(intent).length, 2);
    });
  }
});
