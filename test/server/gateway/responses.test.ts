/** Tolerant response parsing: JSON or legacy form bodies, number ids, `_`/`-` spellings. */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createGatewayClient,
  normalizeResult,
  parseBody,
} from '../../../server/src/gateway/index.js';
import { CREDENTIALS, startGateway, type TestGateway } from './helpers.js';

describe('parseBody', () => {
  test('JSON: numbers and booleans become strings, nulls are dropped, strings trimmed', () => {
    assert.deepEqual(
      parseBody(
        ' {"type":"async-response","paynet-order-id":6768788,"x":true,"y":null,"z":" a \\n"}\n',
      ),
      {
        type: 'async-response',
        'paynet-order-id': '6768788',
        x: 'true',
        z: 'a',
      },
    );
  });

  test('legacy form body with a newline after each value', () => {
    const body =
      'type=status-response\n&serial-number=00000000-0000-0000-0000-000002d9b22a\n&merchant-order-id=902B4FF56\n&paynet-order-id=1969105\n&status=processing\n&amount=10.42\n&currency=EUR\n&html=%3C%21DOCTYPE+html%3E%3Cp%3Ea%3Db%3C%2Fp%3E\n';
    assert.deepEqual(parseBody(body), {
      type: 'status-response',
      'serial-number': '00000000-0000-0000-0000-000002d9b22a',
      'merchant-order-id': '902B4FF56',
      'paynet-order-id': '1969105',
      status: 'processing',
      amount: '10.42',
      currency: 'EUR',
      html: '<!DOCTYPE html><p>a=b</p>',
    });
  });

  test('neither JSON nor form: undefined', () => {
    assert.equal(parseBody('<html><body>Bad gateway</body></html>'), undefined);
    assert.equal(parseBody('{not json'), undefined);
    assert.equal(parseBody('[1,2]'), undefined);
    assert.equal(parseBody(''), undefined);
    assert.equal(parseBody('Forbidden'), undefined);
  });
});

describe('normalizeResult', () => {
  test('underscore spellings and legacy names', () => {
    const result = normalizeResult(
      {
        type: 'validation-error',
        error_message: 'Invalid amount',
        error_code: '2',
        orderid: '55',
        client_orderid: 'A1',
        'serial-number': 'sn-1',
        cardrefid: '777',
        end_point_id: '1111',
      },
      'req-1',
    );
    assert.deepEqual(
      { ...result, raw: undefined },
      {
        type: 'validation-error',
        errorMessage: 'Invalid amount',
        errorCode: '2',
        orderId: '55',
        clientOrderId: 'A1',
        serialNumber: 'sn-1',
        cardRefId: '777',
        endpointId: '1111',
        requestId: 'req-1',
        raw: undefined,
      },
    );
  });

  test('merchant_order is a client order id; the literal "null" is absent', () => {
    const result = normalizeResult({ type: 'x', merchant_order: 'M1', error_message: 'null' }, 'r');
    assert.equal(result.clientOrderId, 'M1');
    assert.equal(result.errorMessage, undefined);
  });

  test('merchant-side 3DS and card fields of a status response', () => {
    const result = normalizeResult(
      {
        type: 'status-response',
        status: 'processing',
        'three-ds-server-trans-id': '3d671629-a410-4a5d-9288-b38ceadd41f2',
        'three-ds-method-url': 'https://acs.example/method',
        'acs-url': 'https://acs.example/challenge',
        creq: 'eyJ',
        pareq: 'eJz',
        md: 'm1',
        'challenge-window-size': '02',
        html: '<form></form>',
        'redirect-to': 'https://gw.example/3ds',
        bin: '444444',
        'last-four-digits': '4448',
        'card-type': 'VISA',
        'card-exp-month': '12',
        'card-exp-year': '2031',
        'cardholder-name': 'ZOE SMITH',
        'card-ref-id': 99,
      } as unknown as Record<string, string>,
      'r',
    );
    assert.deepEqual(result.threeDS, {
      serverTransId: '3d671629-a410-4a5d-9288-b38ceadd41f2',
      methodUrl: 'https://acs.example/method',
      acsUrl: 'https://acs.example/challenge',
      creq: 'eyJ',
      pareq: 'eJz',
      md: 'm1',
      challengeWindowSize: '02',
      html: '<form></form>',
      redirectTo: 'https://gw.example/3ds',
    });
    assert.deepEqual(result.card, {
      bin: '444444',
      lastFour: '4448',
      type: 'VISA',
      expMonth: '12',
      expYear: '2031',
      holder: 'ZOE SMITH',
    });
    assert.equal(result.status, 'processing');
    assert.equal(result.threeDS?.acsUrl, 'https://acs.example/challenge');
  });

  test("the issue's spellings of 3DS fields: redirect_url, acsURL, acs_url, PaReq, MD", () => {
    const spec = normalizeResult(
      { type: 'async-response', status: 'processing', redirect_url: 'https://gw.example/3ds' },
      'r',
    );
    assert.equal(spec.redirectUrl, 'https://gw.example/3ds');
    const camel = normalizeResult(
      { type: 'status-response', acsURL: 'https://acs.example/a', PaReq: 'eJz', MD: 'm1' },
      'r',
    );
    assert.deepEqual(camel.threeDS, { acsUrl: 'https://acs.example/a', pareq: 'eJz', md: 'm1' });
    const snake = normalizeResult(
      {
        type: 'status-response',
        acs_url: 'https://acs.example/b',
        CReq: 'eyJ',
        Redirect_To: 'https://gw.example/t',
      },
      'r',
    );
    assert.deepEqual(snake.threeDS, {
      acsUrl: 'https://acs.example/b',
      creq: 'eyJ',
      redirectTo: 'https://gw.example/t',
    });
  });

  test('no 3DS or card fields: neither object is present', () => {
    const result = normalizeResult({ type: 'async-response' }, 'r');
    assert.equal('threeDS' in result, false);
    assert.equal('card' in result, false);
  });
});

describe('responses over HTTP', () => {
  let gateway: TestGateway;
  before(async () => {
    gateway = await startGateway();
  });
  after(() => gateway.close());

  const client = () =>
    createGatewayClient({ gatewayUrl: gateway.url, ...CREDENTIALS, requestId: () => 'req-fixed' });

  test('status: legacy text/html form body', async () => {
    gateway.reply = () => ({
      contentType: 'text/html;charset=utf-8',
      body: 'type=status-response\n&serial-number=sn-9\n&merchant-order-id=S1\n&paynet-order-id=1969105\n&status=approved\n&amount=10.42\n&currency=EUR\n',
    });
    const result = await client().status({ client_orderid: 'S1', orderid: '1969105' });
    assert.equal(result.type, 'status-response');
    assert.equal(result.status, 'approved');
    assert.equal(result.orderId, '1969105');
    assert.equal(result.clientOrderId, 'S1');
    assert.equal(result.serialNumber, 'sn-9');
    assert.equal(result.amount, '10.42');
    assert.equal(result.currency, 'EUR');
    assert.equal(result.requestId, 'req-fixed');
    assert.equal(result.raw['paynet-order-id'], '1969105');
  });

  test('sale: number id in JSON becomes a string', async () => {
    gateway.reply = () => ({
      body: '{"type":"async-response","serial-number":"sn-1","merchant-order-id":"inv1","paynet-order-id":6768788,"end-point-id":22903}',
    });
    const result = await client().createCardRef({ client_orderid: 'inv1', orderid: '6768788' });
    assert.equal(result.orderId, '6768788');
    assert.equal(result.endpointId, '22903');
  });

  test('sale-form: redirect-url as redirectUrl', async () => {
    gateway.reply = () => ({
      body: '{"type":"async-form-response","redirect_url":"https://gw.example/f/1"}',
    });
    const result = await client().saleForm({
      client_orderid: 'F1',
      order_desc: 'd',
      amount: '1.00',
      currency: 'EUR',
      redirect_url: 'https://r',
      email: 'a@b.c',
      ipaddress: '203.0.113.7',
    });
    assert.equal(result.redirectUrl, 'https://gw.example/f/1');
    assert.equal(result.type, 'async-form-response');
  });

  test('get-card-info: card fields', async () => {
    gateway.reply = () => ({
      body: '{"type":"get-card-info-response","card-printed-name":"ZOE","expire-year":2031,"expire-month":"12","bin":"444444","last-four-digits":"4448"}',
    });
    const result = await client().getCardInfo({ cardrefid: '5' });
    assert.deepEqual(result.card, {
      bin: '444444',
      lastFour: '4448',
      expMonth: '12',
      expYear: '2031',
      holder: 'ZOE',
    });
  });
});
