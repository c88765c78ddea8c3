/**
 * Every scheme A (control) operation against a real HTTP server: exact path, headers, body and
 * control value, the control recomputed here with node:crypto over the expected concatenation.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  createGatewayClient,
  type GatewayClient,
  type OperationMethod,
} from '../../../server/src/gateway/index.js';
import {
  CARD,
  CREDENTIALS,
  CUSTOMER,
  fieldsOf,
  json,
  sha1,
  startGateway,
  type TestGateway,
} from './helpers.js';

const K = CREDENTIALS.controlKey;
const L = CREDENTIALS.login;
const E = CREDENTIALS.endpointId;

interface Case {
  method: OperationMethod;
  path: string;
  request: Record<string, unknown>;
  /** The expected control input string, without the key. */
  concat: string;
  /** Whether the client adds `login` to the body. */
  login: boolean;
  reply?: Record<string, unknown>;
}

const order = {
  client_orderid: '902B4FF5',
  order_desc: 'Order 902B4FF5',
  amount: '10.42',
  currency: 'EUR',
  redirect_url: 'https://shop.example/return/abc',
};
const form = { ...order, email: 'john.smith@gmail.com' };

const CASES: Case[] = [
  {
    method: 'sale',
    path: `/paynet/api/v2/sale/${E}`,
    request: { ...order, ...CUSTOMER, ...CARD },
    concat: `${E}902B4FF51042john.smith@gmail.com`,
    login: false,
  },
  {
    method: 'preauth',
    path: `/paynet/api/v2/preauth/${E}`,
    request: { ...order, amount: '0.29', ...CUSTOMER, ...CARD },
    concat: `${E}902B4FF529john.smith@gmail.com`,
    login: false,
  },
  {
    method: 'saleForm',
    path: `/paynet/api/v2/sale-form/${E}`,
    request: form,
    concat: `${E}902B4FF51042john.smith@gmail.com`,
    login: false,
    reply: { type: 'async-form-response', 'redirect-url': 'https://gw.example/form/1' },
  },
  {
    method: 'preauthForm',
    path: `/paynet/api/v2/preauth-form/${E}`,
    request: { ...form, amount: '19.99' },
    concat: `${E}902B4FF51999john.smith@gmail.com`,
    login: false,
    reply: { type: 'async-form-response', 'redirect-url': 'https://gw.example/form/2' },
  },
  {
    method: 'paymentForm',
    path: `/paynet/api/v2/payment-form/${E}`,
    request: form,
    concat: `${E}902B4FF51042john.smith@gmail.com`,
    login: false,
    reply: { type: 'async-form-response', 'redirect-url': 'https://gw.example/form/3' },
  },
  {
    method: 'payoutForm',
    path: `/paynet/api/v2/payout-form/${E}`,
    request: {
      client_orderid: 'P1',
      amount: '5',
      currency: 'JPY',
      email: 'a@b.c',
      redirect_url: 'https://r',
    },
    // JPY has no decimals, yet the control carries cents: 5 × 100.
    concat: `${E}P1500a@b.c`,
    login: false,
    reply: { type: 'async-form-response', 'redirect-url': 'https://gw.example/form/4' },
  },
  {
    method: 'accountVerification',
    path: `/paynet/api/v2/account-verification/${E}`,
    request: { client_orderid: 'AV1', redirect_url: 'https://r', ...CUSTOMER, ...CARD },
    concat: `${E}AV1john.smith@gmail.com`,
    login: false,
  },
  {
    method: 'accountVerificationForm',
    path: `/paynet/api/v2/account-verification-form/${E}`,
    request: { client_orderid: 'AV2', redirect_url: 'https://r', email: 'x@y.z' },
    concat: `${E}AV2x@y.z`,
    login: false,
    reply: { type: 'async-form-response', 'redirect-url': 'https://gw.example/form/5' },
  },
  {
    method: 'capture',
    path: `/paynet/api/v2/capture/${E}`,
    request: { client_orderid: 'C1', orderid: '6768788', amount: '5.00', currency: 'EUR' },
    concat: `${L}C16768788500EUR`,
    login: true,
  },
  {
    method: 'capture',
    path: `/paynet/api/v2/capture/${E}`,
    request: { client_orderid: 'C2', orderid: '6768789' },
    concat: `${L}C26768789`,
    login: true,
  },
  {
    method: 'voidTransaction',
    path: `/paynet/api/v2/void/${E}`,
    request: { client_orderid: 'V1', orderid: '77' },
    concat: `${L}V177`,
    login: true,
  },
  {
    method: 'returnTransaction',
    path: `/paynet/api/v2/return/${E}`,
    request: {
      client_orderid: 'R1',
      orderid: '78',
      amount: '1.5',
      currency: 'KWD',
      comment: 'refund',
    },
    // KWD has three decimals, yet the control carries cents: 1.5 × 100.
    concat: `${L}R178150KWD`,
    login: true,
  },
  {
    method: 'status',
    path: `/paynet/api/v2/status/${E}`,
    request: { client_orderid: 'S1', orderid: '79' },
    concat: `${L}S179`,
    login: true,
    reply: { type: 'status-response', status: 'approved' },
  },
  {
    method: 'status',
    path: `/paynet/api/v2/status/${E}`,
    request: { client_orderid: 'S2' },
    concat: `${L}S2`,
    login: true,
    reply: { type: 'status-response', status: 'processing' },
  },
  {
    method: 'createCardRef',
    path: `/paynet/api/v2/create-card-ref/${E}`,
    request: { client_orderid: 'CR1', orderid: '80' },
    concat: `${L}CR180`,
    login: true,
    reply: { type: 'create-card-ref-response', 'card-ref-id': '123456' },
  },
  {
    method: 'getCardInfo',
    path: `/paynet/api/v2/get-card-info/${E}`,
    request: { cardrefid: '123456' },
    concat: `${L}123456`,
    login: true,
    reply: { type: 'get-card-info-response', bin: '444444', 'last-four-digits': '4448' },
  },
  {
    method: 'makeRebill',
    path: `/paynet/api/v2/make-rebill/${E}`,
    request: {
      client_orderid: 'RB1',
      cardrefid: '123456',
      amount: '0.99',
      currency: 'USD',
      order_desc: 'Monthly',
    },
    concat: `${L}RB112345699USD`,
    login: true,
  },
  {
    method: 'uploadMethodUrlResult',
    path: `/paynet/api/3ds/v1/upload-method-url-result/${E}`,
    request: {
      orderid: '81',
      'client-order-id': 'T1',
      threeDSServerTransID: '3d671629-a410-4a5d-9288-b38ceadd41f2',
      browserAcceptHeader: 'text/html,application/xhtml+xml',
      browserIP: '203.0.113.7',
      browserJavaEnabled: false,
      browserJavascriptEnabled: true,
      browserLanguage: 'de-CH',
      browserColorDepth: 24,
      browserScreenHeight: 1080,
      browserScreenWidth: 1920,
      browserTZ: -60,
      browserUserAgent: 'Mozilla/5.0 (X11; Linux x86_64) Zoë',
      challengeWindowSize: '02',
      threeDSCompInd: 'Y',
    },
    concat: `${L}T181`,
    login: true,
  },
  {
    method: 'uploadCresResult',
    path: `/paynet/api/3ds/v1/upload-cres-result/${E}`,
    request: { orderid: '82', 'client-order-id': 'T2', cres: 'ewogICJ0cmFuc1N0YXR1cyI6ICJZIgp9' },
    concat: `${L}T282`,
    login: true,
  },
  {
    method: 'uploadParesResult',
    path: `/paynet/api/3ds/v1/upload-pares-result/${E}`,
    request: { orderid: '83', 'client-order-id': 'T3', paRes: 'eJzVWFmz+r/q', md: 'md-value' },
    concat: `${L}T383`,
    login: true,
  },
];

/** What the wire carries for a typed value. */
function wire(value: unknown): string {
  return typeof value === 'boolean' ? (value ? 'true' : 'false') : String(value);
}

describe('gateway client: control-signed operations', () => {
  let gateway: TestGateway;
  let client: GatewayClient;
  let reply: Record<string, unknown> = { type: 'async-response' };

  before(async () => {
    gateway = await startGateway(() => json(reply));
    let n = 0;
    client = createGatewayClient({
      gatewayUrl: gateway.url,
      ...CREDENTIALS,
      requestId: () => `req-${++n}`,
    });
  });
  after(() => gateway.close());

  test('sale control matches the documented known answer', async () => {
    reply = { type: 'async-response', 'paynet-order-id': 6768788, 'merchant-order-id': '902B4FF5' };
    gateway.seen.length = 0;
    const result = await client.sale({ ...order, ...CUSTOMER, ...CARD });
    assert.equal(fieldsOf(gateway.seen[0]).control, 'c6bdd88a78834ef4b863b088827a459f039e8257');
    assert.equal(result.orderId, '6768788');
    assert.equal(result.clientOrderId, '902B4FF5');
    assert.equal(result.type, 'async-response');
  });

  for (const c of CASES) {
    test(`${c.method} ${c.path} (${c.concat})`, async () => {
      reply = c.reply ?? { type: 'async-response', 'paynet-order-id': '1' };
      gateway.seen.length = 0;
      const call = client[c.method] as (request: unknown) => Promise<unknown>;
      await call(c.request);
      assert.equal(gateway.seen.length, 1);
      const seen = gateway.seen[0]!;
      assert.equal(seen.method, 'POST');
      assert.equal(seen.path, c.path);
      assert.equal(seen.headers.accept, 'application/vnd.pay+json');
      assert.equal(seen.headers['content-type'], 'application/x-www-form-urlencoded');
      assert.equal(seen.headers['content-length'], String(seen.rawBody.byteLength));
      assert.match(String(seen.headers['x-request-id']), /^req-\d+$/);
      assert.equal(seen.headers.authorization, undefined);
      const expected: Record<string, string> = {};
      if (c.login) expected.login = L;
      for (const [name, value] of Object.entries(c.request)) expected[name] = wire(value);
      expected.control = sha1(c.concat + K);
      assert.deepEqual(fieldsOf(seen), expected);
      assert.equal(seen.fields.length, Object.keys(expected).length, 'no repeated fields');
    });
  }

  test('Content-Length counts bytes of non-ASCII values', async () => {
    reply = { type: 'async-response' };
    gateway.seen.length = 0;
    await client.sale({ ...order, ...CUSTOMER, ...CARD, card_printed_name: 'Zoë Żółć 山田' });
    const seen = gateway.seen[0]!;
    const body = seen.rawBody.toString('utf8');
    // Percent-encoded UTF-8: ë is two bytes, %C3%AB.
    assert.ok(
      body.includes('card_printed_name=Zo%C3%AB+%C5%BB%C3%B3%C5%82%C4%87+%E5%B1%B1%E7%94%B0'),
    );
    assert.equal(seen.headers['content-length'], String(seen.rawBody.byteLength));
    assert.equal(seen.headers['content-length'], String(Buffer.byteLength(body, 'utf8')));
    assert.equal(fieldsOf(seen).card_printed_name, 'Zoë Żółć 山田');
  });

  test('extra fields pass through; typed fields win over extra', async () => {
    reply = { type: 'async-response' };
    gateway.seen.length = 0;
    await client.capture({
      client_orderid: 'C3',
      orderid: '90',
      extra: { merchant_data: 'a&b=c+d', client_orderid: 'ignored' },
    });
    const fields = fieldsOf(gateway.seen[0]);
    assert.equal(fields.merchant_data, 'a&b=c+d');
    assert.equal(fields.client_orderid, 'C3');
    assert.equal(fields.control, sha1(`${L}C390${K}`));
  });
});
