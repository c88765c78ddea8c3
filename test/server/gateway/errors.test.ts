/** Typed errors, timeout, connection refused, retries of read-only operations only. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createGatewayClient,
  type FetchLike,
  type GatewayError,
  GatewayServerError,
  GatewaySignatureError,
  GatewayTimeoutError,
  GatewayTransportError,
  GatewayUnexpectedBodyError,
  GatewayValidationError,
} from '../../../server/src/gateway/index.js';
import { CREDENTIALS, json, SALE, startGateway, type TestGateway } from './helpers.js';

const STATUS = { client_orderid: 'E1', orderid: '42' };

describe('gateway errors', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startGateway();
  });
  after(() => gateway.close());

  const client = (extra: object = {}) =>
    createGatewayClient({
      gatewayUrl: gateway.url,
      ...CREDENTIALS,
      requestId: () => 'req-e',
      retryDelayMs: 1,
      ...extra,
    });

  async function rejectsWith<T extends GatewayError>(
    promise: Promise<unknown>,
    type: new (...args: never[]) => T,
  ): Promise<T> {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof type, `expected ${type.name}, got ${String(error)}`);
      return error;
    }
    assert.fail('expected a rejection');
  }

  test('400 with a JSON body -> gateway-validation with the gateway fields', async () => {
    gateway.reply = () =>
      json(
        {
          type: 'validation-error',
          'error-message': 'amount is invalid',
          'error-code': 2,
          'serial-number': 'sn-400',
          'merchant-order-id': 'E1',
        },
        400,
      );
    const error = await rejectsWith(client().sale(SALE), GatewayValidationError);
    assert.equal(error.code, 'gateway-validation');
    assert.equal(error.errorCode, '2');
    assert.equal(error.errorMessage, 'amount is invalid');
    assert.equal(error.httpStatus, 400);
    assert.equal(error.operation, 'sale');
    assert.equal(error.requestId, 'req-e');
    assert.equal(error.serialNumber, 'sn-400');
    assert.equal(error.clientOrderId, 'E1');
    assert.equal(
      error.message,
      'sale: the gateway refused the request (HTTP 400): error-code 2: amount is invalid',
    );
  });

  test('200 with type validation-error (underscore spelling) -> gateway-validation', async () => {
    gateway.reply = () =>
      json({ type: 'validation-error', error_message: 'bad email', error_code: '7' });
    const error = await rejectsWith(client().sale(SALE), GatewayValidationError);
    assert.equal(error.errorMessage, 'bad email');
    assert.equal(error.errorCode, '7');
    assert.equal(error.httpStatus, 200);
  });

  test('403 with a plain body -> gateway-signature', async () => {
    gateway.reply = () => ({ status: 403, contentType: 'text/plain', body: 'Forbidden' });
    const error = await rejectsWith(client().sale(SALE), GatewaySignatureError);
    assert.equal(error.code, 'gateway-signature');
    assert.equal(error.httpStatus, 403);
    assert.equal(error.message, 'sale: the gateway refused the signature (HTTP 403)');
  });

  test('500 -> gateway-server; 200 type error -> gateway-server', async () => {
    gateway.reply = () =>
      json({ type: 'error', 'error-message': 'internal', 'error-code': '1' }, 500);
    const e500 = await rejectsWith(client().capture(STATUS), GatewayServerError);
    assert.equal(e500.httpStatus, 500);
    assert.equal(e500.errorMessage, 'internal');
    gateway.reply = () => json({ type: 'error', 'error-message': 'processor down' });
    const e200 = await rejectsWith(client().capture(STATUS), GatewayServerError);
    assert.equal(e200.httpStatus, 200);
    assert.equal(e200.errorMessage, 'processor down');
  });

  test('a body that is not a gateway response -> gateway-unexpected-body', async () => {
    gateway.reply = () => ({ contentType: 'text/html', body: '<html>proxy page</html>' });
    const html = await rejectsWith(client().voidTransaction(STATUS), GatewayUnexpectedBodyError);
    assert.equal(html.code, 'gateway-unexpected-body');
    assert.equal(
      html.message,
      "void: the gateway's answer (HTTP 200, text/html) is not a gateway response",
    );
    gateway.reply = () => json({ status: 'approved' });
    const noType = await rejectsWith(client().status(STATUS), GatewayUnexpectedBodyError);
    assert.equal(noType.message, "status: the gateway's answer lacks type");
    gateway.reply = () => json({ type: 'async-form-response' });
    const noRedirect = await rejectsWith(
      client().saleForm({ ...SALE, email: 'a@b.c' }),
      GatewayUnexpectedBodyError,
    );
    assert.equal(noRedirect.message, "sale-form: the gateway's answer lacks redirectUrl");
    gateway.reply = () => ({ status: 404, contentType: 'text/html', body: '<h1>Not found</h1>' });
    const notFound = await rejectsWith(client().status(STATUS), GatewayUnexpectedBodyError);
    assert.equal(notFound.httpStatus, 404);
  });

  test('a 307 or 308 is never followed: the card-bearing body stays here, no retry', async () => {
    // Where a redirect would lead: a second loopback server recording what reaches it.
    const elsewhere = await startGateway(() => json({ type: 'async-response' }));
    try {
      for (const status of [301, 302, 303, 307, 308]) {
        gateway.seen.length = 0;
        gateway.reply = () => ({
          status,
          contentType: 'text/html',
          headers: { Location: `${elsewhere.url}/steal` },
          body: '<a href="elsewhere">moved</a>',
        });
        for (const call of [() => client().sale(SALE), () => client().status(STATUS)]) {
          const error = await rejectsWith(call(), GatewayUnexpectedBodyError);
          assert.equal(error.httpStatus, status);
        }
        // One request each: the sale, and the status with no retry of an unexpected body.
        assert.equal(gateway.seen.length, 2, `${status}`);
        assert.ok(gateway.seen[0]?.rawBody.includes(SALE.credit_card_number));
      }
      assert.deepEqual(elsewhere.seen, []);
    } finally {
      await elsewhere.close();
    }
  });

  test('no answer within timeoutMs -> gateway-timeout', async () => {
    gateway.reply = () => 'hang';
    gateway.seen.length = 0;
    const started = Date.now();
    const error = await rejectsWith(client({ timeoutMs: 200 }).sale(SALE), GatewayTimeoutError);
    const elapsed = Date.now() - started;
    // Not before the timeout (a loaded machine may well be later: no upper bound here).
    assert.ok(elapsed >= 190, `took ${elapsed} ms`);
    assert.equal(error.code, 'gateway-timeout');
    assert.equal(error.message, 'sale: no answer from the gateway within 200 ms');
    assert.equal(gateway.seen.length, 1, 'a sale is not retried after a timeout');
  });

  test('connection refused -> gateway-transport', async () => {
    const closed = await startGateway();
    const url = closed.url;
    await closed.close();
    const refused = createGatewayClient({ gatewayUrl: url, ...CREDENTIALS, retryDelayMs: 1 });
    const error = await rejectsWith(refused.sale(SALE), GatewayTransportError);
    assert.equal(error.code, 'gateway-transport');
    assert.equal(error.message, 'sale: the gateway could not be reached');
    assert.match(error.causeSummary ?? '', /ECONNREFUSED/);
    assert.equal(error.httpStatus, undefined);
  });

  test('status is retried on 5xx and then succeeds', async () => {
    gateway.seen.length = 0;
    gateway.reply = () =>
      gateway.seen.length < 3
        ? json({ type: 'error' }, 503)
        : json({ type: 'status-response', status: 'approved' });
    const result = await client().status(STATUS);
    assert.equal(result.status, 'approved');
    assert.equal(gateway.seen.length, 3);
  });

  test('status gives up after the configured retries', async () => {
    gateway.seen.length = 0;
    gateway.reply = () => json({ type: 'error' }, 500);
    await rejectsWith(client().status(STATUS), GatewayServerError);
    assert.equal(gateway.seen.length, 3, 'one try plus two retries by default');
    gateway.seen.length = 0;
    await rejectsWith(client({ retries: 0 }).status(STATUS), GatewayServerError);
    assert.equal(gateway.seen.length, 1);
  });

  test('status is not retried on a validation error or a 200 type error', async () => {
    gateway.seen.length = 0;
    gateway.reply = () => json({ type: 'validation-error' }, 400);
    await rejectsWith(client().status(STATUS), GatewayValidationError);
    gateway.reply = () => json({ type: 'error' });
    await rejectsWith(client().status(STATUS), GatewayServerError);
    assert.equal(gateway.seen.length, 2);
  });

  test('money-moving operations are never retried on 5xx', async () => {
    gateway.reply = () => json({ type: 'error' }, 502);
    const calls: [string, () => Promise<unknown>][] = [
      ['sale', () => client().sale(SALE)],
      ['capture', () => client().capture(STATUS)],
      ['return', () => client().returnTransaction(STATUS)],
      [
        'make-rebill',
        () =>
          client().makeRebill({
            client_orderid: 'E',
            cardrefid: '1',
            amount: '1.00',
            currency: 'EUR',
            order_desc: 'Rebill',
            ipaddress: '203.0.113.7',
          }),
      ],
    ];
    for (const [name, call] of calls) {
      gateway.seen.length = 0;
      await rejectsWith(call(), GatewayServerError);
      assert.equal(gateway.seen.length, 1, name);
    }
  });

  test('transport errors: get-card-info and status retried, sale not', async () => {
    let calls = 0;
    const flaky: FetchLike = async (url, init) => {
      calls++;
      if (calls % 2 === 1)
        throw new TypeError('fetch failed', {
          cause: Object.assign(new Error('reset'), { code: 'ECONNRESET' }),
        });
      return fetch(url, init);
    };
    gateway.reply = () => json({ type: 'get-card-info-response', bin: '444444' });
    const info = await client({ fetch: flaky }).getCardInfo({ cardrefid: '1' });
    assert.equal(info.card?.bin, '444444');
    assert.equal(calls, 2);
    calls = 0;
    const error = await rejectsWith(client({ fetch: flaky }).sale(SALE), GatewayTransportError);
    assert.equal(calls, 1);
    assert.equal(error.causeSummary, 'TypeError: fetch failed <- Error ECONNRESET: reset');
  });
});
