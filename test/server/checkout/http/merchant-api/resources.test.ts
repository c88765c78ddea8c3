/**
 * Merchant API beyond orders: card references, rebills, recurring payments, payouts (one step,
 * and check then pay), transfers, account verification and hosted-form links, against the
 * sandbox over HTTP.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FetchLike } from '../../../../../server/src/gateway/index.js';
import {
  type Backend,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../../../support/loopback-stack.js';
import {
  CUSTOMER,
  createSession,
  merchant,
  Shopper,
  uniqueOrderId,
} from '../../../../support/widget-api-client.js';

describe('merchant API: card refs, rebills, recurring, payouts, transfers, verification, hosted forms', () => {
  let sb: Sandbox;
  let be: Backend;
  let cardRefId = '';
  let paidOrderId = '';
  before(async () => {
    sb = await startSandbox();
    be = await startBackend(sb);
    const session = await createSession(be.url);
    const final = await new Shopper(be.url, session.token).complete({ pan: '4000000000000002' });
    assert.equal(final.order.status, 'approved');
    paidOrderId = session.orderId;
  });
  after(async () => {
    await be.close();
    await sb.close();
  });

  it('creates a card reference from an approved order and reads its card', async () => {
    const created = await merchant(be.url, 'POST', `/v1/orders/${paidOrderId}/card-ref`, {});
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.orderId, paidOrderId);
    cardRefId = created.body.cardRefId;
    assert.ok(cardRefId);
    const again = await merchant(be.url, 'POST', `/v1/orders/${paidOrderId}/card-ref`, {});
    assert.equal(again.status, 200);
    assert.equal(again.body.cardRefId, cardRefId);
    const info = await merchant(be.url, 'GET', `/v1/card-refs/${cardRefId}`);
    assert.equal(info.status, 200, JSON.stringify(info.body));
    assert.equal(info.body.last4, '0002');
    assert.equal(info.body.bin, '400000');
    assert.equal(info.body.expMonth, '12');
    assert.equal(info.body.expYear, '2030');
    const unknown = await merchant(be.url, 'GET', '/v1/card-refs/no-such-ref');
    assert.equal(unknown.status, 404);
  });

  it('refuses a card reference of an order that is not approved', async () => {
    const session = await createSession(be.url);
    await new Shopper(be.url, session.token).complete({ pan: '4000000000000010' });
    const res = await merchant(be.url, 'POST', `/v1/orders/${session.orderId}/card-ref`, {});
    assert.equal(res.status, 409);
  });

  it('rebills a card reference to approved, and reads it back', async () => {
    const orderId = uniqueOrderId('rebill');
    const res = await merchant(be.url, 'POST', '/v1/rebills', {
      cardRefId,
      orderId,
      amount: '5.00',
      currency: 'EUR',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.kind, 'rebill');
    assert.equal(res.body.status, 'approved');
    assert.equal(res.body.amount, '5.00');
    const read = await merchant(be.url, 'GET', `/v1/rebills/${orderId}`);
    assert.equal(read.body.status, 'approved');
    const dup = await merchant(be.url, 'POST', '/v1/rebills', {
      cardRefId,
      orderId,
      amount: '5.00',
      currency: 'EUR',
    });
    assert.equal(dup.status, 409);
  });

  it('creates a recurring payment', async () => {
    const orderId = uniqueOrderId('rp');
    const res = await merchant(be.url, 'POST', '/v1/recurring-payments', {
      cardRefId,
      orderId,
      email: CUSTOMER.email,
      amount: '9.99',
      currency: 'EUR',
      // A day, not a month: the sandbox's job timer overflows beyond 24.8 days (reported).
      period: 'day',
      interval: 1,
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.equal(res.body.kind, 'recurring-payment');
    assert.ok(res.body.gatewayRef);
    const bad = await merchant(be.url, 'POST', '/v1/recurring-payments', {
      cardRefId,
      orderId: uniqueOrderId(),
      email: CUSTOMER.email,
      amount: '1.00',
      currency: 'EUR',
      period: 'year',
      interval: 1,
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.field, 'period');
  });

  it('pays out in one step to a card and to a bank account', async () => {
    const card = await merchant(be.url, 'POST', '/v1/payouts', {
      orderId: uniqueOrderId('po'),
      amount: '20.00',
      currency: 'EUR',
      card: { number: '4000000000000002', holder: 'John Smith' },
    });
    assert.equal(card.status, 200, JSON.stringify(card.body));
    assert.equal(card.body.status, 'approved');
    const bank = await merchant(be.url, 'POST', '/v1/payouts', {
      orderId: uniqueOrderId('po'),
      amount: '20.00',
      currency: 'EUR',
      bank: { accountNumber: 'NL91ABNA0417164300', bankName: 'ABN AMRO' },
    });
    assert.equal(bank.status, 200, JSON.stringify(bank.body));
    assert.equal(bank.body.status, 'approved');
    const none = await merchant(be.url, 'POST', '/v1/payouts', {
      orderId: uniqueOrderId(),
      amount: '1.00',
      currency: 'EUR',
    });
    assert.equal(none.status, 400);
    assert.equal(none.body.error.field, 'card');
  });

  it('pays out in two steps: check registers, pay executes exactly once', async () => {
    const orderId = uniqueOrderId('po2');
    const check = await merchant(be.url, 'POST', '/v1/payouts/check', {
      orderId,
      amount: '15.00',
      currency: 'EUR',
      cardNumber: '4000000000000002',
    });
    assert.equal(check.status, 201, JSON.stringify(check.body));
    assert.equal(check.body.status, 'registered');
    const read = await merchant(be.url, 'GET', `/v1/payouts/${orderId}`);
    assert.equal(read.body.status, 'registered');
    const pay = await merchant(be.url, 'POST', `/v1/payouts/${orderId}/pay`, {});
    assert.equal(pay.status, 200, JSON.stringify(pay.body));
    assert.equal(pay.body.status, 'approved');
    const twice = await merchant(be.url, 'POST', `/v1/payouts/${orderId}/pay`, {});
    assert.equal(twice.status, 409);
  });

  it('a refused payout pay ends in error with its reason, and queues payout.error', async () => {
    // The gateway refuses step two: a validation-error answer to payout-pay.
    const refuse: FetchLike = (url, init) =>
      url.includes('/payout-pay/')
        ? (Promise.resolve(
            new Response(
              'type=validation-error&error-message=Payout+limit+exceeded&error-code=4031',
              {
                status: 200,
                headers: { 'Content-Type': 'text/plain' },
              },
            ),
          ) as unknown as ReturnType<FetchLike>)
        : (fetch(url, init as RequestInit) as unknown as ReturnType<FetchLike>);
    const refusing = await startBackend(sb, {
      gatewayFetch: refuse,
      config: { webhook: { url: 'http://127.0.0.1:9/hook', secret: 'whsec-test-0123456789' } },
    });
    try {
      const orderId = uniqueOrderId('po3');
      const check = await merchant(refusing.url, 'POST', '/v1/payouts/check', {
        orderId,
        amount: '15.00',
        currency: 'EUR',
        cardNumber: '4000000000000002',
      });
      assert.equal(check.status, 201, JSON.stringify(check.body));
      const pay = await merchant(refusing.url, 'POST', `/v1/payouts/${orderId}/pay`, {});
      assert.equal(pay.status, 422, JSON.stringify(pay.body));
      const read = await merchant(refusing.url, 'GET', `/v1/payouts/${orderId}`);
      assert.equal(read.body.status, 'error');
      assert.equal(read.body.reason, 'Payout limit exceeded');
      const stored = await refusing.store.operations.getByClientId('payout', orderId);
      assert.equal(stored?.data.errorCode, '4031');
      const queued = await refusing.store.webhooks.due();
      assert.deepEqual(
        queued
          .filter(
            (w) => w.payload.data && (w.payload.data as { clientId?: string }).clientId === orderId,
          )
          .map((w) => w.event),
        ['payout.error'],
      );
    } finally {
      await refusing.close();
    }
  });

  it('transfers from a card reference to a card', async () => {
    const res = await merchant(be.url, 'POST', '/v1/transfers', {
      orderId: uniqueOrderId('tr'),
      amount: '3.00',
      currency: 'EUR',
      description: 'Transfer',
      sourceCardRefId: cardRefId,
      destinationCardNumber: '4000000000000002',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.status, 'approved');
  });

  it('verifies an account with a zero-amount authorisation', async () => {
    const ok = await merchant(be.url, 'POST', '/v1/account-verifications', {
      orderId: uniqueOrderId('av'),
      card: {
        number: '4000000000000002',
        expMonth: '12',
        expYear: '2030',
        cvc: '123',
        holder: 'John Smith',
      },
      customer: CUSTOMER,
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    assert.equal(ok.body.status, 'approved');
    const declined = await merchant(be.url, 'POST', '/v1/account-verifications', {
      orderId: uniqueOrderId('av'),
      card: {
        number: '4000000000000010',
        expMonth: '12',
        expYear: '2030',
        cvc: '123',
        holder: 'John Smith',
      },
      customer: CUSTOMER,
    });
    assert.equal(declined.body.status, 'declined');
  });

  for (const kind of ['sale', 'preauth', 'payment', 'account-verification', 'payout'] as const) {
    it(`links to the ${kind} hosted form`, async () => {
      const orderId = uniqueOrderId('hf');
      const res = await merchant(be.url, 'POST', '/v1/hosted-forms', {
        kind,
        orderId,
        currency: 'EUR',
        ...(kind === 'account-verification' ? {} : { amount: '12.00' }),
        customer: CUSTOMER,
        returnUrl: 'https://shop.example/back',
      });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      assert.equal(res.body.kind, kind);
      assert.ok(res.body.url.startsWith(sb.origin), res.body.url);
      const page = await fetch(res.body.url);
      assert.equal(page.status, 200);
      const read = await merchant(be.url, 'GET', `/v1/hosted-forms/${orderId}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.kind, 'hosted-form');
    });
  }

  it('a hosted form names its currency, the account verification too (no silent EUR)', async () => {
    const res = await merchant(be.url, 'POST', '/v1/hosted-forms', {
      kind: 'account-verification',
      orderId: uniqueOrderId('hf'),
      customer: CUSTOMER,
      returnUrl: 'https://shop.example/back',
    });
    assert.equal(res.status, 400, JSON.stringify(res.body));
    assert.equal(res.body.error.field, 'currency');
    const noAmount = await merchant(be.url, 'POST', '/v1/hosted-forms', {
      kind: 'sale',
      orderId: uniqueOrderId('hf'),
      currency: 'USD',
      customer: CUSTOMER,
      returnUrl: 'https://shop.example/back',
    });
    assert.equal(noAmount.status, 400);
    assert.equal(noAmount.body.error.field, 'amount');
  });

  it('refuses a card number failing Luhn, a malformed card reference or no payout destination, sending nothing', async () => {
    const card = {
      number: '4000000000000001',
      expMonth: '12',
      expYear: '2030',
      cvc: '123',
      holder: 'J S',
    };
    const money = { amount: '1.00', currency: 'EUR' };
    const refusals: [string, unknown, string][] = [
      [
        '/v1/account-verifications',
        { orderId: uniqueOrderId('av'), card, customer: CUSTOMER },
        'card.number',
      ],
      [
        '/v1/payouts',
        { orderId: uniqueOrderId('po'), ...money, card: { number: card.number } },
        'card.number',
      ],
      [
        '/v1/payouts/check',
        { orderId: uniqueOrderId('pc'), ...money, cardNumber: card.number },
        'cardNumber',
      ],
      ['/v1/payouts/check', { orderId: uniqueOrderId('pc'), ...money }, 'cardNumber'],
      [
        '/v1/transfers',
        {
          orderId: uniqueOrderId('tr'),
          ...money,
          description: 'x',
          sourceCardRefId: cardRefId,
          destinationCardNumber: card.number,
        },
        'destinationCardNumber',
      ],
      ['/v1/rebills', { orderId: uniqueOrderId('rb'), ...money, cardRefId: 'é é' }, 'cardRefId'],
      [
        '/v1/recurring-payments',
        {
          orderId: uniqueOrderId('rp'),
          ...money,
          cardRefId: 'a b',
          email: 'a@example.com',
          period: 'month',
          interval: 1,
        },
        'cardRefId',
      ],
    ];
    for (const [path, body, field] of refusals) {
      const res = await merchant(be.url, 'POST', path, body);
      assert.equal(res.status, 400, `${path}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error.field, field, path);
    }
    // Nothing was recorded, so nothing was sent: each is a 400 before the operation exists.
    for (const [path, body] of refusals) {
      const orderId = (body as { orderId: string }).orderId;
      const kind = path.split('/')[2];
      const read = await merchant(be.url, 'GET', `/v1/${kind}/${orderId}`);
      assert.equal(read.status, 404, `${path} ${orderId}`);
    }
  });

  it('refreshes a pending order from the gateway on demand', async () => {
    const res = await merchant(be.url, 'POST', `/v1/orders/${paidOrderId}/refresh`, {});
    assert.equal(res.status, 200);
    assert.equal(res.body.status, 'approved');
  });
});
