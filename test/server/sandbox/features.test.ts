/** Callbacks, hosted forms, card references, payouts, recurring payments, transfers and faults over real HTTP. */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { manualClock, TEST_CARDS } from '../../../server/src/sandbox/index.js';
import { computeControl } from '../../../server/src/signing/index.js';
import {
  browserPost,
  type Harness,
  orderId,
  postForm,
  REDIRECT,
  readForm,
  saleRequest,
  startSandbox,
  waitForStatus,
} from './helpers.js';

const pan = (scenario: string) => TEST_CARDS.find((c) => c.scenario === scenario)!.pan;

/** A merchant callback receiver: answers with the next status from `plan` (then 200). */
class Receiver {
  hits: URLSearchParams[] = [];
  plan: number[] = [];
  server!: Server;
  url = '';
  async start() {
    this.server = createServer((req, res) => {
      this.hits.push(new URL(req.url ?? '/', 'http://x').searchParams);
      res.statusCode = this.plan.shift() ?? 200;
      res.end('ok');
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/callback`;
  }
  async stop() {
    await new Promise((r) => this.server.close(r));
  }
}

let h: Harness;
let receiver: Receiver;
before(async () => {
  h = await startSandbox({ callbacks: { baseDelayMs: 10, maxAttempts: 3 } });
  receiver = new Receiver();
  await receiver.start();
});
after(async () => {
  await h.close();
  await receiver.stop();
});

async function approvedSale(scenario = 'approved', extra: Record<string, string> = {}) {
  const request = saleRequest(pan(scenario), orderId(), extra);
  const ack = await h.client.sale(request);
  const status = await waitForStatus(h, request.client_orderid, ack.orderId!);
  return { request, orderid: ack.orderId!, status };
}

describe('callbacks', () => {
  test('every final status is called back with a valid control, retried until 200', async () => {
    receiver.hits = [];
    receiver.plan = [500, 503];
    const { request, orderid } = await approvedSale('approved', {
      server_callback_url: receiver.url,
    });
    await h.sandbox.idle();
    for (let i = 0; i < 50 && receiver.hits.length < 3; i++)
      await new Promise((r) => setTimeout(r, 10));
    await h.sandbox.idle();
    assert.equal(receiver.hits.length, 3);
    const q = receiver.hits[2]!;
    assert.equal(q.get('status'), 'approved');
    assert.equal(q.get('orderid'), orderid);
    assert.equal(q.get('client_orderid'), request.client_orderid);
    assert.equal(q.get('merchant_order'), request.client_orderid);
    assert.equal(q.get('type'), 'sale');
    assert.equal(q.get('amount'), '10.42');
    assert.equal(q.get('currency'), 'EUR');
    assert.equal(
      q.get('control'),
      computeControl(
        'final-notification',
        { status: 'approved', orderid, client_orderid: request.client_orderid },
        h.controlKey,
      ),
    );
    const log = (await (await fetch(`${h.origin}/sandbox/callbacks/${orderid}`)).json()) as {
      attempts: number;
      delivered: boolean;
      log: { httpStatus: number }[];
    }[];
    assert.equal(log.length, 1);
    assert.equal(log[0]!.delivered, true);
    assert.deepEqual(
      log[0]!.log.map((a) => a.httpStatus),
      [500, 503, 200],
    );

    // A later reversal is called back too.
    receiver.hits = [];
    const fields = { login: h.login, client_orderid: request.client_orderid, orderid };
    const ret = await postForm(`${h.base}/api/v2/return/${h.endpointId}`, {
      ...fields,
      control: computeControl('return', { ...fields }, h.controlKey),
    });
    assert.equal(ret.status, 200);
    await waitForStatus(
      h,
      request.client_orderid,
      orderid,
      (r) => r.raw['transaction-type'] === 'return' && r.status === 'approved',
    );
    for (let i = 0; i < 50 && receiver.hits.length < 1; i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.equal(receiver.hits[0]?.get('type'), 'return');
  });

  test('bounded: gives up after maxAttempts', async () => {
    receiver.hits = [];
    receiver.plan = [500, 500, 500, 500];
    const { orderid } = await approvedSale('declined', { server_callback_url: receiver.url });
    for (let i = 0; i < 100 && receiver.hits.length < 3; i++)
      await new Promise((r) => setTimeout(r, 10));
    await new Promise((r) => setTimeout(r, 100));
    await h.sandbox.idle();
    assert.equal(receiver.hits.length, 3);
    assert.equal(receiver.hits[0]!.get('status'), 'declined');
    assert.ok(receiver.hits[0]!.get('error_message'));
    const log = (await (await fetch(`${h.origin}/sandbox/callbacks/${orderid}`)).json()) as {
      delivered: boolean;
      attempts: number;
    }[];
    assert.deepEqual(
      log.map((c) => [c.delivered, c.attempts]),
      [[false, 3]],
    );
    receiver.plan = [];
  });
});

describe('hosted forms', () => {
  const formFields = (extra: Record<string, string> = {}) => ({
    client_orderid: orderId('form'),
    amount: '5.00',
    currency: 'EUR',
    email: 'shopper@example.com',
    order_desc: 'Hosted form order',
    ipaddress: '203.0.113.7',
    redirect_url: REDIRECT,
    ...extra,
  });

  test('sale-form: redirect-url to an accessible page; approved card returns to redirect_url with control', async () => {
    const request = formFields();
    const ack = await h.client.saleForm(request);
    assert.equal(ack.type, 'async-form-response');
    assert.match(ack.redirectUrl, new RegExp(`^${h.base}/form/`));
    const page = await fetch(ack.redirectUrl);
    const html = await page.text();
    assert.equal(page.status, 200);
    assert.equal(page.headers.get('x-frame-options'), null);
    for (const label of ['Card number', 'Name on card', 'Security code (CVV)'])
      assert.match(
        html,
        new RegExp(`<label for="[a-z_0-9]+">${label.replace(/[()]/g, '\\$&')}</label>`),
      );
    const form = readForm(html);
    const bad = await browserPost(new URL(form.action, h.origin).href, {
      credit_card_number: '4000000000000003',
    });
    assert.equal(bad.status, 400);
    assert.match(bad.html, /aria-invalid="true" aria-describedby="credit_card_number-error"/);
    const done = await browserPost(new URL(form.action, h.origin).href, {
      credit_card_number: pan('approved'),
      card_printed_name: 'Ada Lovelace',
      expire_month: '12',
      expire_year: '2030',
      cvv2: '123',
    });
    const redirect = readForm(done.html);
    assert.equal(redirect.action, REDIRECT);
    assert.equal(redirect.fields.status, 'approved');
    assert.equal(redirect.fields.orderid, ack.orderId);
    assert.equal(redirect.fields.client_orderid, request.client_orderid);
    assert.equal(redirect.fields.merchant_order, request.client_orderid);
    assert.equal(
      redirect.fields.control,
      computeControl(
        'final-notification',
        { status: 'approved', orderid: ack.orderId!, client_orderid: request.client_orderid },
        h.controlKey,
      ),
    );
    assert.equal(
      (await h.client.status({ client_orderid: request.client_orderid, orderid: ack.orderId! }))
        .status,
      'approved',
    );
  });

  test('preauth-form with a 3DS card: the sandbox runs the challenge on its own page', async () => {
    const request = formFields();
    const ack = await h.client.preauthForm(request);
    const form = readForm(await (await fetch(ack.redirectUrl)).text());
    const challenge = await browserPost(new URL(form.action, h.origin).href, {
      credit_card_number: pan('3ds2-challenge'),
      card_printed_name: 'Ada Lovelace',
      expire_month: '12',
      expire_year: '2030',
      cvv2: '123',
    });
    assert.match(challenge.html, /One-time code/);
    const otp = readForm(challenge.html);
    const done = readForm(
      (await browserPost(new URL(otp.action, h.origin).href, { otp: '1234', action: 'submit' }))
        .html,
    );
    assert.equal(done.fields.status, 'approved');
    const status = await h.client.status({
      client_orderid: request.client_orderid,
      orderid: ack.orderId!,
    });
    assert.equal(status.raw['transaction-type'], 'preauth');
  });

  test('payment-form and payout-form refuse a request nobody signed, and create nothing', async () => {
    for (const name of ['payment-form', 'payout-form']) {
      const fields = formFields();
      const refused = await postForm(`${h.base}/api/v2/${name}/${h.endpointId}`, fields);
      assert.equal(refused.status, 400, name);
      assert.equal(refused.body.type, 'validation-error');
      assert.match(refused.body['error-message'] ?? '', /control/);
      await assert.rejects(h.client.status({ client_orderid: fields.client_orderid }), {
        code: 'gateway-validation',
        errorCode: 'unknown-order',
      });
    }
  });

  test('payment-form, account-verification-form and payout-form answer async-form-response', async () => {
    assert.equal((await h.client.paymentForm(formFields())).type, 'async-form-response');
    const { amount: _a, ...av } = formFields();
    assert.equal((await h.client.accountVerificationForm(av)).type, 'async-form-response');
    const payout = await h.client.payoutForm(formFields());
    const form = readForm(await (await fetch(payout.redirectUrl)).text());
    const done = readForm(
      (
        await browserPost(new URL(form.action, h.origin).href, {
          credit_card_number: pan('approved'),
          card_printed_name: 'Ada',
        })
      ).html,
    );
    assert.equal(done.fields.status, 'approved');
  });
});

describe('card references and rebill', () => {
  test('create-card-ref v2 and v4, get-card-info, make-rebill', async () => {
    const { request, orderid } = await approvedSale();
    const v2 = await h.client.createCardRef({ client_orderid: request.client_orderid, orderid });
    assert.ok(v2.cardRefId);
    const v4 = await h.client.createCardRefV4({ client_orderid: request.client_orderid, orderid });
    assert.equal(v4.cardRefId, v2.cardRefId);
    const info = await h.client.getCardInfo({ cardrefid: v2.cardRefId! });
    assert.equal(info.raw.bin, '400000');
    assert.equal(info.raw['masked-pan'], '400000******0002');
    assert.equal(info.raw['card-type'], 'VISA');
    assert.equal(info.raw['card-exp-month'], '12');
    assert.equal(info.raw['card-exp-year'], '2030');
    const rebill = {
      client_orderid: orderId('rebill'),
      cardrefid: v2.cardRefId!,
      amount: '3.00',
      currency: 'EUR',
      order_desc: 'Monthly box',
      ipaddress: '203.0.113.7',
    };
    const ack = await h.client.makeRebill(rebill);
    const status = await waitForStatus(h, rebill.client_orderid, ack.orderId!);
    assert.equal(status.status, 'approved');
    assert.equal(status.raw['transaction-type'], 'rebill');
    await assert.rejects(
      h.client.makeRebill({ ...rebill, client_orderid: orderId(), cardrefid: 'nope' }),
      /cardrefid/,
    );
    await assert.rejects(
      h.client.getCardInfo({ cardrefid: '00000000-0000-0000-0000-000000000000' }),
      /cardrefid/,
    );
  });

  test('refused from a declined order', async () => {
    const { request, orderid } = await approvedSale('declined');
    await assert.rejects(
      h.client.createCardRef({ client_orderid: request.client_orderid, orderid }),
      /not an approved card payment/,
    );
  });
});

describe('payouts, transfers, pan-eligibility', () => {
  const base = () => ({ client_orderid: orderId('po'), amount: '7.00', currency: 'EUR' });

  test('v2 payout to a card, a bank account, an ewallet and a phone; bad destinations refused', async () => {
    const kinds = [
      { credit_card_number: pan('approved'), card_printed_name: 'Ada' },
      { account_number: 'DE89370400440532013000', bank_name: 'Example Bank' },
      { ewallet_type: 'examplepay', ewallet_id: 'ada@example.com' },
      { phone: '+447700900123', bank_name: 'Example Bank' },
    ];
    for (const destination of kinds) {
      const request = { ...base(), ...destination };
      const ack = await h.client.payout(request);
      const status = await waitForStatus(h, request.client_orderid, ack.orderId!);
      assert.equal(status.status, 'approved', JSON.stringify(destination));
      assert.equal(status.raw['transaction-type'], 'payout');
    }
    await assert.rejects(
      h.client.payout({ ...base(), account_number: '12', bank_name: 'X' }),
      /account_number/,
    );
    await assert.rejects(h.client.payout({ ...base(), phone: '07700900123' }), /phone/);
    await assert.rejects(h.client.payout(base()), /destination/);
  });

  test('payout-check registers without moving funds; payout-pay executes exactly once', async () => {
    const request = {
      'client-order-id': orderId('two'),
      amount: '9.00',
      currency: 'EUR',
      order_desc: 'Two-step payout',
      account_number: 'DE89370400440532013000',
      bank_name: 'Example Bank',
    };
    const check = await h.client.payoutCheck(request);
    assert.ok(check.payoutId);
    const registered = await h.client.status({
      client_orderid: request['client-order-id'],
      orderid: check.orderId!,
    });
    assert.equal(registered.raw['transaction-type'], 'payout-check');
    const pay = await h.client.payoutPay({
      'client-order-id': request['client-order-id'],
      orderid: check.orderId!,
    });
    assert.equal(pay.status, 'processing');
    await assert.rejects(
      h.client.payoutPay({
        'client-order-id': request['client-order-id'],
        orderid: check.orderId!,
      }),
      /already executed/,
    );
    const paid = await waitForStatus(h, request['client-order-id'], check.orderId!);
    assert.equal(paid.status, 'approved');
    assert.equal(paid.raw['transaction-type'], 'payout');
  });

  test('transfer and transfer-by-ref return transaction-id; pan-eligibility answers', async () => {
    const t = await h.client.transfer({
      client_orderid: orderId('tr'),
      amount: '4.00',
      currency: 'EUR',
      order_desc: 'P2P',
      credit_card_number: pan('approved'),
      card_printed_name: 'Ada',
      expire_month: '12',
      expire_year: '2030',
      cvv2: '123',
      'destination-card-no': '5555550000000002',
    });
    assert.match(t.transactionId ?? '', /^\d+$/);
    const byRef = await h.client.transferByRef({
      'client-order-id': orderId('tbr'),
      amount: '1.00',
      currency: 'EUR',
      order_desc: 'P2P',
      'destination-card-no': '5555550000000002',
    });
    assert.match(byRef.transactionId ?? '', /^\d+$/);
    const { request, orderid } = await approvedSale();
    const ref = await h.client.createCardRef({ client_orderid: request.client_orderid, orderid });
    const eligible = await h.client.panEligibilitySend({
      'client-order-id': orderId(),
      'sending-card-ref-id': ref.cardRefId!,
    });
    assert.equal(eligible.raw.eligible, 'true');
  });
});

describe('recurring payments (manual clock)', () => {
  test('charges on schedule, each seen through status', async () => {
    const clock = manualClock();
    const m = await startSandbox({ clock, processingDelayMs: 50 });
    try {
      const request = saleRequest(pan('approved'));
      const ack = await m.client.sale(request);
      await clock.advance(50);
      const ref = await m.client.createCardRef({
        client_orderid: request.client_orderid,
        orderid: ack.orderId!,
      });
      await assert.rejects(
        m.client.createRecurringPayment({
          'card-ref-id': ref.cardRefId!,
          period: 'year',
          interval: '1',
          amount: '2.00',
          currency: 'EUR',
          email: 'a@example.com',
        }),
        /period/,
      );
      const rp = await m.client.createRecurringPayment({
        'card-ref-id': ref.cardRefId!,
        period: 'week',
        interval: '2',
        amount: '2.00',
        currency: 'EUR',
        email: 'a@example.com',
        'max-repeats-number': '2',
      });
      assert.ok(rp.recurringPaymentId);
      await clock.advance(14 * 86_400_000 + 50);
      const first = await m.client.status({ client_orderid: `${rp.recurringPaymentId}-1` });
      assert.equal(first.status, 'approved');
      assert.equal(first.raw['recurring-payment-id'], rp.recurringPaymentId);
      await clock.advance(14 * 86_400_000 + 50);
      assert.equal(
        (await m.client.status({ client_orderid: `${rp.recurringPaymentId}-2` })).status,
        'approved',
      );
      await clock.advance(30 * 86_400_000);
      await assert.rejects(
        m.client.status({ client_orderid: `${rp.recurringPaymentId}-3` }),
        /no order/,
      );
    } finally {
      await m.close();
    }
  });
});

describe('faults', () => {
  test('per request: 5xx changes nothing; drop commits but destroys the socket', async () => {
    const request = saleRequest(pan('approved'));
    const control = computeControl('sale', { endpointId: h.endpointId, ...request }, h.controlKey);
    const url = `${h.base}/api/v2/sale/${h.endpointId}`;
    const failed = await postForm(url, { ...request, control }, { 'X-Sandbox-Fault': '5xx' });
    assert.equal(failed.status, 500);
    await assert.rejects(h.client.status({ client_orderid: request.client_orderid }), /no order/);
    await assert.rejects(postForm(url, { ...request, control }, { 'X-Sandbox-Fault': 'drop' }));
    const status = await h.client.status({ client_orderid: request.client_orderid });
    assert.match(status.orderId ?? '', /^\d+$/);
  });

  test('per endpoint: latency and duplicate callbacks via POST /sandbox/faults', async () => {
    const set = await fetch(`${h.origin}/sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ endpointId: h.endpointId, latencyMs: 120, duplicateCallbacks: true }),
    });
    assert.equal(set.status, 200);
    receiver.hits = [];
    const started = performance.now();
    const { orderid } = await approvedSale('approved', { server_callback_url: receiver.url });
    // Two calls, each held 120 ms (timers may round by a millisecond each).
    assert.ok(performance.now() - started >= 238);
    for (let i = 0; i < 100 && receiver.hits.length < 2; i++)
      await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(
      receiver.hits.map((q) => [q.get('orderid'), q.get('status')]),
      [
        [orderid, 'approved'],
        [orderid, 'approved'],
      ],
    );
    const bad = await fetch(`${h.origin}/sandbox/faults`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ errorRate: 2 }),
    });
    assert.equal(bad.status, 400);
    const reset = await fetch(`${h.origin}/sandbox/reset`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(reset.status, 200);
  });
});

describe('what a payment carried of its payer', () => {
  test('GET /sandbox/payer/{orderid}: the e-mail, phone and address exactly as sent, no card', async () => {
    const { orderid } = await approvedSale('approved', { state: 'TX', country: 'US' });
    const payer = await (await fetch(`${h.origin}/sandbox/payer/${orderid}`)).json();
    assert.deepEqual(payer, {
      email: 'shopper@example.com',
      address1: '1 Analytical Row',
      city: 'London',
      zip_code: 'N1 1AA',
      state: 'TX',
      country: 'US',
      phone: '+442071234567',
    });
    assert.equal((await fetch(`${h.origin}/sandbox/payer/0`)).status, 404);
  });
});
