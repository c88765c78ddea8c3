/**
 * `pay-checkout/client` against a real in-process backend and sandbox: a session, a paid
 * preauth, partial capture, refund, lists, and the API's errors as MerchantApiError.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  createMerchantClient,
  MerchantApiError,
  type MerchantClient,
} from '../../../server/src/client/merchant-client.js';
import { TEST_CARDS } from '../../../server/src/sandbox/index.js';
import {
  type Backend,
  MERCHANT_API_KEY,
  MERCHANT_ORIGIN,
  type Sandbox,
  startBackend,
  startSandbox,
} from '../../support/loopback-stack.js';
import { CUSTOMER, Shopper, uniqueOrderId } from '../../support/widget-api-client.js';

const APPROVED = TEST_CARDS.find((c) => c.scenario === 'approved');

function apiError(status: number, code: string, field?: string) {
  return (error: unknown) =>
    error instanceof MerchantApiError &&
    error.status === status &&
    error.code === code &&
    error.field === field &&
    typeof error.requestId === 'string';
}

describe('pay-checkout/client', () => {
  let sb: Sandbox;
  let be: Backend;
  let api: MerchantClient;

  before(async () => {
    sb = await startSandbox();
    be = await startBackend(sb);
    api = createMerchantClient({ baseUrl: `${be.url}/`, apiKey: MERCHANT_API_KEY });
  });
  after(async () => {
    await be.close();
    await sb.close();
  });

  /** A preauth session the shopper paid with the approved card. */
  async function paidPreauth(amount = '10.00'): Promise<string> {
    const orderId = uniqueOrderId('client');
    const session = await api.createSession({
      amount,
      currency: 'EUR',
      orderId,
      intent: 'preauth',
      description: 'Client test',
      customer: CUSTOMER,
      returnUrl: `${MERCHANT_ORIGIN}/thanks`,
    });
    assert.match(session.token, /^[\w-]+\.[\w-]+\.[\w-]+$/);
    assert.ok(Date.parse(session.expiresAt) > Date.now());
    assert.ok(APPROVED);
    const final = await new Shopper(be.url, session.token).complete({ pan: APPROVED.pan });
    assert.equal(final.order.status, 'approved');
    return orderId;
  }

  it('createSession, getOrder, capture in part, refund in part, then the totals', async () => {
    const orderId = await paidPreauth('10.00');
    const order = await api.getOrder(orderId);
    assert.equal(order.orderId, orderId);
    assert.equal(order.status, 'approved');
    assert.equal(order.intent, 'preauth');
    assert.equal(order.amount, '10.00');
    assert.equal(order.capturedAmount, '0.00');

    const captured = await api.capture(orderId, {
      amount: '6.00',
      idempotencyKey: `cap-${orderId}`,
    });
    assert.equal(captured.operation.kind, 'capture');
    assert.equal(captured.operation.amount, '6.00');
    assert.equal(captured.order.capturedAmount, '6.00');
    // The same key again: the first answer, no second capture.
    const repeat = await api.capture(orderId, { amount: '6.00', idempotencyKey: `cap-${orderId}` });
    assert.deepEqual(repeat, captured);

    const refunded = await api.refund(orderId, { amount: '2.50' });
    assert.equal(refunded.operation.kind, 'return');
    assert.equal(refunded.order.returnedAmount, '2.50');
    const after = await api.getOrder(orderId);
    assert.equal(after.capturedAmount, '6.00');
    assert.equal(after.returnedAmount, '2.50');
  });

  it('getOperation reads a refund by its id; resolveOperation takes only an unknown one', async () => {
    const orderId = await paidPreauth('4.00');
    await api.capture(orderId);
    const { operation } = await api.refund(orderId, { amount: '1.50' });
    assert.deepEqual(await api.getOperation(operation.id), operation);
    await assert.rejects(
      api.resolveOperation(operation.id, { status: 'declined', note: 'checked' }),
      apiError(409, 'conflict'),
    );
    await assert.rejects(
      api.resolveOperation(operation.id, { status: 'declined', note: '' }),
      apiError(400, 'validation', 'note'),
    );
    await assert.rejects(api.getOperation('no-such-operation'), apiError(404, 'not-found'));
    assert.equal((await api.getOperation(operation.id)).status, 'approved');
  });

  it('void releases an uncaptured preauth; a capture after it is a 409', async () => {
    const orderId = await paidPreauth('3.00');
    const voided = await api.void(orderId);
    assert.equal(voided.operation.kind, 'void');
    assert.equal(voided.order.voided, true);
    await assert.rejects(api.capture(orderId), apiError(409, 'conflict'));
  });

  it('listOrders filters by status and pages with the cursor', async () => {
    const a = await paidPreauth('1.00');
    const b = await paidPreauth('1.00');
    const first = await api.listOrders({ status: ['approved'], limit: 1 });
    assert.equal(first.orders.length, 1);
    assert.equal(first.orders[0]?.orderId, b); // newest first
    assert.ok(first.nextCursor);
    const second = await api.listOrders({ status: 'approved', limit: 1, cursor: first.nextCursor });
    assert.equal(second.orders[0]?.orderId, a);
    const refreshed = await api.refreshOrder(a);
    assert.equal(refreshed.status, 'approved');
  });

  it('getSession reads the session and its unpaid order; expireSession ends it; then a 409', async () => {
    const orderId = uniqueOrderId('client');
    const created = await api.createSession({
      amount: '7.00',
      currency: 'EUR',
      orderId,
      description: 'Client session',
      customer: CUSTOMER,
    });
    assert.equal(created.orderId, orderId);
    const read = await api.getSession(created.id);
    assert.equal(read.state, 'open');
    assert.equal(read.amount, '7.00');
    assert.equal(read.order?.status, 'awaiting-payment');
    assert.equal((await api.getOrder(orderId)).status, 'awaiting-payment');
    const expired = await api.expireSession(created.id);
    assert.equal(expired.state, 'expired');
    assert.equal(expired.order?.status, 'expired');
    await assert.rejects(api.capture(orderId), apiError(409, 'conflict'));
    const paid = await api.getSession(
      (await api.getOrder(await paidPreauth('2.00'))).sessionId ?? '',
    );
    assert.equal(paid.state, 'completed');
    await assert.rejects(api.expireSession(paid.id), apiError(409, 'conflict'));
    await assert.rejects(api.getSession('no-such-session'), apiError(404, 'not-found'));
  });

  it('payment links: create, read, list, deactivate; a guessed id is a 404', async () => {
    const created = await api.createPaymentLink(
      { amount: '25.00', currency: 'EUR', description: 'Invoice 2026-117' },
      { idempotencyKey: `plink-${uniqueOrderId()}` },
    );
    assert.equal(created.state, 'active');
    assert.equal(created.amount, '25.00');
    assert.match(created.url, new RegExp(`/pay/${created.id}$`));
    assert.match(created.qrCode, /^<svg /);
    assert.equal((await api.getPaymentLink(created.id)).description, 'Invoice 2026-117');
    const listed = await api.listPaymentLinks({ limit: 100 });
    assert.ok(listed.paymentLinks.some((l) => l.id === created.id));
    assert.equal((await api.deactivatePaymentLink(created.id)).state, 'deactivated');
    await assert.rejects(api.getPaymentLink('plink_guessed'), apiError(404, 'not-found'));
  });

  it('the API’s errors: 404, a 400 naming the field, 401 for another key', async () => {
    await assert.rejects(api.getOrder('no-such-order'), apiError(404, 'not-found'));
    const orderId = await paidPreauth('2.00');
    await assert.rejects(
      api.capture(orderId, { amount: '1.234' }),
      apiError(400, 'validation', 'amount'),
    );
    await assert.rejects(
      api.createSession({
        amount: '1.00',
        currency: 'EUR',
        orderId: uniqueOrderId(),
        description: '',
        customer: CUSTOMER,
      }),
      apiError(400, 'validation', 'description'),
    );
    const stranger = createMerchantClient({ baseUrl: be.url, apiKey: 'not-the-key-0123456789' });
    await assert.rejects(stranger.getOrder(orderId), (error: unknown) => {
      assert.ok(error instanceof MerchantApiError);
      assert.equal(error.status, 401);
      return true;
    });
  });

  it('uses the injected fetch: URL, method, key, idempotency key and body as sent', async () => {
    const sent: { url: string; init: RequestInit }[] = [];
    const recording: typeof fetch = async (url, init = {}) => {
      sent.push({ url: String(url), init });
      return fetch(url, init);
    };
    const client = createMerchantClient({
      baseUrl: `${be.url}///`,
      apiKey: MERCHANT_API_KEY,
      fetch: recording,
    });
    await assert.rejects(
      client.refund('a b/c', { amount: '1.00', idempotencyKey: 'k-1' }),
      apiError(404, 'not-found'),
    );
    await client.listOrders({
      status: ['approved', 'declined'],
      createdFrom: '2020-01-01T00:00:00Z',
    });
    assert.equal(sent.length, 2);
    assert.equal(sent[0]?.url, `${be.url}/v1/orders/a%20b%2Fc/return`);
    assert.equal(sent[0]?.init.method, 'POST');
    assert.equal(sent[0]?.init.body, '{"amount":"1.00"}');
    assert.deepEqual(sent[0]?.init.headers, {
      authorization: `Bearer ${MERCHANT_API_KEY}`,
      accept: 'application/json',
      'content-type': 'application/json',
      'idempotency-key': 'k-1',
    });
    assert.equal(
      sent[1]?.url,
      `${be.url}/v1/orders?status=approved%2Cdeclined&createdFrom=2020-01-01T00%3A00%3A00Z`,
    );
    assert.equal(sent[1]?.init.method, 'GET');
    assert.equal(sent[1]?.init.body, undefined);
  });
});
