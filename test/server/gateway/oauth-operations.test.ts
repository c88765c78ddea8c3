/**
 * OAuth-signed operations: HMAC-SHA1 (payout v2, pan-eligibility send) and RSA-SHA256 (/api/v4).
 * Checked with the signing module's verifier and, independently, by hand with node:crypto.
 */
import assert from 'node:assert/strict';
import { createHmac, createPublicKey, generateKeyPairSync, verify } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  createGatewayClient,
  type GatewayClient,
  GatewayConfigError,
  type OperationMethod,
} from '../../../server/src/gateway/index.js';
import { verifyOAuthRequest } from '../../../server/src/signing/index.js';
import {
  CARD,
  CREDENTIALS,
  fieldsOf,
  json,
  type SeenRequest,
  startGateway,
  type TestGateway,
} from './helpers.js';

const NOW = 1513785920;
const NONCE = 'EqINVv5rkhx';
const E = CREDENTIALS.endpointId;

/** RFC 3986 encoding, written here rather than imported, to be an independent oracle. */
function enc(value: string): string {
  return encodeURIComponent(value).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
}

function baseString(url: string, params: [string, string][]): string {
  const sorted = params
    .map(([n, v]) => [enc(n), enc(v)] as const)
    .sort(([an, av], [bn, bv]) =>
      an === bn ? (av < bv ? -1 : av > bv ? 1 : 0) : an < bn ? -1 : 1,
    );
  return ['POST', enc(url), enc(sorted.map(([n, v]) => `${n}=${v}`).join('&'))].join('&');
}

function oauthParams(method: 'HMAC-SHA1' | 'RSA-SHA256'): [string, string][] {
  return [
    ['oauth_consumer_key', CREDENTIALS.login],
    ['oauth_nonce', NONCE],
    ['oauth_signature_method', method],
    ['oauth_timestamp', String(NOW)],
    ['oauth_version', '1.0'],
  ];
}

function headerParam(header: string, name: string): string {
  const match = new RegExp(`${name}="([^"]*)"`).exec(header);
  assert.ok(match, `${name} in the Authorization header`);
  return decodeURIComponent(match[1]!);
}

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const PRIVATE_PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const PUBLIC_KEY = createPublicKey(PRIVATE_PEM);

describe('gateway client: OAuth-signed operations', () => {
  let gateway: TestGateway;
  let client: GatewayClient;
  let reply: Record<string, unknown> = { type: 'async-response' };

  before(async () => {
    gateway = await startGateway(() => json(reply));
    client = createGatewayClient({
      gatewayUrl: gateway.url,
      ...CREDENTIALS,
      privateKeyPem: PRIVATE_PEM,
      clock: () => NOW,
      nonce: () => NONCE,
    });
  });
  after(() => gateway.close());

  async function send(
    method: OperationMethod,
    request: Record<string, unknown>,
  ): Promise<SeenRequest> {
    gateway.seen.length = 0;
    await (client[method] as (r: unknown) => Promise<unknown>)(request);
    assert.equal(gateway.seen.length, 1);
    const seen = gateway.seen[0]!;
    assert.equal(seen.method, 'POST');
    assert.equal(seen.headers.accept, 'application/vnd.pay+json');
    assert.equal(seen.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(seen.headers['content-length'], String(seen.rawBody.byteLength));
    return seen;
  }

  const HMAC_CASES: { method: OperationMethod; path: string; request: Record<string, string> }[] = [
    {
      method: 'payout',
      path: `/paynet/api/v2/payout/${E}`,
      request: {
        client_orderid: 'PO-1',
        amount: '10.42',
        currency: 'EUR',
        order_desc: 'Payout to Zoë',
        ...CARD,
      },
    },
    {
      method: 'panEligibilitySend',
      path: `/paynet/api/v2/pan-eligibility/send/${E}`,
      request: { 'client-order-id': 'PE-1', 'sending-card-ref-id': '123456' },
    },
  ];

  for (const c of HMAC_CASES) {
    test(`${c.method} is HMAC-SHA1 signed to an exact header, oauth_* repeated in the body`, async () => {
      const seen = await send(c.method, c.request);
      assert.equal(seen.path, c.path);
      const url = `${gateway.origin}${c.path}`;
      const oauth = oauthParams('HMAC-SHA1');
      const base = baseString(url, [...Object.entries(c.request), ...oauth]);
      const signature = createHmac('sha1', `${enc(CREDENTIALS.controlKey)}&`)
        .update(base)
        .digest('base64');
      assert.equal(
        seen.headers.authorization,
        `OAuth oauth_consumer_key="merchantlogin", oauth_nonce="EqINVv5rkhx", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1513785920", oauth_version="1.0", oauth_signature="${enc(signature)}"`,
      );
      assert.deepEqual(fieldsOf(seen), { ...c.request, ...Object.fromEntries(oauth) });
      const verdict = verifyOAuthRequest(
        { method: 'POST', url, authorization: seen.headers.authorization, body: seen.fields },
        {
          expectedMethod: 'HMAC-SHA1',
          lookup: () => ({ controlKey: CREDENTIALS.controlKey }),
          now: NOW,
        },
      );
      assert.deepEqual(verdict, {
        ok: true,
        consumerKey: 'merchantlogin',
        nonce: NONCE,
        timestamp: NOW,
      });
    });
  }

  const RSA_CASES: { method: OperationMethod; path: string; request: Record<string, string> }[] = [
    {
      method: 'createCardRefV4',
      path: `/paynet/api/v4/create-card-ref/${E}`,
      request: { client_orderid: 'CR-4', orderid: '555' },
    },
    {
      method: 'createRecurringPayment',
      path: `/paynet/api/v4/create-recurring-payment/${E}`,
      request: {
        'card-ref-id': '123456',
        period: 'month',
        interval: '1',
        amount: '9.99',
        currency: 'EUR',
      },
    },
    {
      method: 'payoutCheck',
      path: `/paynet/api/v4/payout-check/${E}`,
      request: {
        'client-order-id': 'PC-1',
        amount: '100.00',
        currency: 'EUR',
        account_number: 'DE89',
        bank_name: 'Bänk',
      },
    },
    {
      method: 'payoutPay',
      path: `/paynet/api/v4/payout-pay/${E}`,
      request: { 'client-order-id': 'PC-1', orderid: '556' },
    },
    {
      method: 'transfer',
      path: `/paynet/api/v4/transfer/${E}`,
      request: {
        client_orderid: 'TR-1',
        amount: '3.00',
        currency: 'EUR',
        order_desc: 'Gift',
        ...CARD,
        ipaddress: '203.0.113.7',
        redirect_url: 'https://r',
        deposit2card: 'true',
        'destination-card-no': '4000000000000002',
      },
    },
    {
      method: 'transferByRef',
      path: `/paynet/api/v4/transfer-by-ref/${E}`,
      request: {
        'client-order-id': 'TB-1',
        amount: '3.00',
        currency: 'EUR',
        order_desc: 'Gift',
        'destination-card-no': '4000000000000002',
      },
    },
    {
      method: 'payoutV4',
      path: `/paynet/api/v4/payout/${E}`,
      request: {
        'client-order-id': 'P4-1',
        amount: '7.00',
        currency: 'EUR',
        order_desc: 'Payout',
        account_number: 'DE89',
        bank_name: 'Bank',
      },
    },
  ];

  for (const c of RSA_CASES) {
    test(`${c.method} is RSA-SHA256 signed, no oauth_* in the body`, async () => {
      const seen = await send(c.method, c.request);
      assert.equal(seen.path, c.path);
      const url = `${gateway.origin}${c.path}`;
      const header = String(seen.headers.authorization);
      assert.equal(headerParam(header, 'oauth_signature_method'), 'RSA-SHA256');
      assert.equal(headerParam(header, 'oauth_consumer_key'), 'merchantlogin');
      assert.deepEqual(fieldsOf(seen), c.request);
      const base = baseString(url, [...Object.entries(c.request), ...oauthParams('RSA-SHA256')]);
      const signature = Buffer.from(headerParam(header, 'oauth_signature'), 'base64');
      assert.equal(verify('sha256', Buffer.from(base, 'utf8'), publicKey, signature), true);
      const verdict = verifyOAuthRequest(
        { method: 'POST', url, authorization: header, body: seen.fields },
        { expectedMethod: 'RSA-SHA256', lookup: () => ({ publicKey: PUBLIC_KEY }), now: NOW },
      );
      assert.equal(verdict.ok, true);
    });
  }

  test('v4 results: ids normalised from their response fields', async () => {
    reply = { type: 'async-response', 'transaction-id': 9001, 'paynet-order-id': 12 };
    const transfer = await client.transferByRef({
      'client-order-id': 'TB-2',
      amount: '1.00',
      currency: 'EUR',
      order_desc: 'x',
      'destination-card-no': '4000000000000002',
    });
    assert.equal(transfer.transactionId, '9001');
    assert.equal(transfer.orderId, '12');
    reply = { type: 'async-response', payout_id: 'po-7' };
    const payout = await client.payoutV4({
      'client-order-id': 'P4-2',
      amount: '1.00',
      currency: 'EUR',
      order_desc: 'x',
    });
    assert.equal(payout.payoutId, 'po-7');
    reply = { type: 'create-recurring-payment-response', 'recurring-payment-id': 31 };
    const rp = await client.createRecurringPayment({
      'card-ref-id': 'ref-1',
      period: 'week',
      interval: 2,
      amount: '5.00',
      currency: 'EUR',
      email: 'payer@example.com',
    });
    assert.equal(rp.recurringPaymentId, '31');
    assert.equal(fieldsOf(gateway.seen.at(-1)).interval, '2');
    reply = { type: 'async-response' };
  });

  test('an RSA operation without a private key fails before sending anything', async () => {
    const noKey = createGatewayClient({ gatewayUrl: gateway.url, ...CREDENTIALS });
    gateway.seen.length = 0;
    await assert.rejects(
      noKey.payoutCheck({
        'client-order-id': 'X',
        amount: '1.00',
        currency: 'EUR',
        order_desc: 'x',
      }),
      (error: unknown) =>
        error instanceof GatewayConfigError &&
        error.code === 'gateway-config' &&
        error.message ===
          'payout-check is signed with RSA-SHA256 and no privateKeyPem is configured',
    );
    assert.equal(gateway.seen.length, 0);
  });
});
