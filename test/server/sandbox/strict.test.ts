/**
 * The sandbox holds requests to the spec: one spelling of the order id per operation, the
 * required fields of its contract, the control amount in cents for every currency, endpoint
 * group ids in the endpoint slot where the spec allows it, and `application/vnd.pay+json` with a
 * ServerErrorResponse shape for 200, 400 and 500. Every refusal is checked to change nothing.
 */
import assert from 'node:assert/strict';
import { createHash, createSign } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import OAuth from 'oauth-1.0a';
import { TEST_CARDS } from '../../../server/src/sandbox/index.js';
import { FIELD_CONTRACTS } from '../../../server/src/sandbox/operations/contract.js';
import { OPERATIONS } from '../../../server/src/sandbox/operations/index.js';
import {
  control,
  type Harness,
  orderId,
  PAY_JSON,
  postForm,
  type RawResponse,
  saleRequest,
  startSandbox,
  waitForStatus,
} from './helpers.js';

const pan = (scenario: string) => TEST_CARDS.find((c) => c.scenario === scenario)!.pan;

let h: Harness;
before(async () => {
  h = await startSandbox();
});
after(() => h.close());

/** A 400 validation-error in the JSON type whose message starts with the field's name. */
function assertNames(r: RawResponse, field: string): void {
  assert.equal(r.status, 400, JSON.stringify(r.body));
  assert.equal(r.contentType.split(';')[0], PAY_JSON);
  assert.equal(r.body.type, 'validation-error');
  assert.ok(r.body['error-message']!.startsWith(`${field}:`), r.body['error-message']);
}

/** Nothing was created under this client_orderid. */
async function assertNoOrder(clientOrderId: string): Promise<void> {
  await assert.rejects(h.client.status({ client_orderid: clientOrderId }), {
    code: 'gateway-validation',
    errorCode: 'unknown-order',
  });
}

/** The control over `text`, computed here from scheme A's words: SHA-1(text + control key). */
function signedOver(text: string): string {
  return createHash('sha1').update(`${text}${h.controlKey}`, 'utf8').digest('hex');
}

function rsaPost(path: string, data: Record<string, string>) {
  const oauth = new OAuth({
    consumer: { key: h.login, secret: '' },
    signature_method: 'RSA-SHA256',
    hash_function: (base) => createSign('RSA-SHA256').update(base).sign(h.privateKeyPem, 'base64'),
  });
  const url = `${h.base}/${path}/${h.endpointId}`;
  const header = oauth.toHeader(oauth.authorize({ url, method: 'POST', data }));
  return postForm(url, data, { Authorization: header.Authorization });
}

describe('the field contracts', () => {
  test('every served operation has exactly one contract, and every contract is served', () => {
    const served = OPERATIONS.map((op) => op.path).sort();
    assert.deepEqual(Object.keys(FIELD_CONTRACTS).sort(), served);
  });

  test('sale and preauth require the gateway family fields, in this order', () => {
    const expected = [
      'client_orderid',
      'order_desc',
      'amount',
      'currency',
      'address1',
      'city',
      'zip_code',
      'country',
      'phone',
      'email',
      'ipaddress',
      'card_printed_name',
      'credit_card_number',
      'expire_month',
      'expire_year',
      'cvv2',
      'redirect_url',
      'control',
    ];
    assert.deepEqual(FIELD_CONTRACTS['api/v2/sale']!.required, expected);
    assert.deepEqual(FIELD_CONTRACTS['api/v2/preauth']!.required, expected);
  });
});

describe('one spelling of the merchant order id per operation', () => {
  test('3DS uploads: client_orderid is refused, naming it (the spec says client-order-id)', async () => {
    const r = await postForm(`${h.base}/api/3ds/v1/upload-method-url-result/${h.endpointId}`, {
      client_orderid: 'x',
      orderid: '1',
      login: h.login,
      control: control(h, 'upload-method-url-result', { client_orderid: 'x', orderid: '1' }),
    });
    assertNames(r, 'client_orderid');
    assert.match(r.body['error-message']!, /names the merchant order id client-order-id/);
    for (const path of ['upload-cres-result', 'upload-pares-result']) {
      const again = await postForm(`${h.base}/api/3ds/v1/${path}/${h.endpointId}`, {
        'client-order-id': 'x',
        client_orderid: 'x',
        orderid: '1',
      });
      assertNames(again, 'client_orderid');
    }
  });

  test('v2 operations: client-order-id is refused on sale and status, nothing created', async () => {
    const { client_orderid, ...rest } = saleRequest(pan('approved'));
    const sale = await postForm(`${h.base}/api/v2/sale/${h.endpointId}`, {
      ...rest,
      'client-order-id': client_orderid,
      control: control(h, 'sale', { ...rest, client_orderid }),
    });
    assertNames(sale, 'client-order-id');
    await assertNoOrder(client_orderid);
    const status = await postForm(`${h.base}/api/v2/status/${h.endpointId}`, {
      login: h.login,
      'client-order-id': client_orderid,
      control: control(h, 'status', { client_orderid }),
    });
    assertNames(status, 'client-order-id');
  });

  test('v4: transfer-by-ref and payout take client-order-id, transfer takes client_orderid', async () => {
    const id = orderId('v4');
    const payout = await rsaPost('api/v4/payout', {
      client_orderid: id,
      amount: '1.00',
      currency: 'EUR',
      order_desc: 'x',
      account_number: 'DE89370400440532013000',
      bank_name: 'Example Bank',
    });
    assertNames(payout, 'client_orderid');
    const byRef = await rsaPost('api/v4/transfer-by-ref', {
      client_orderid: id,
      amount: '1.00',
      currency: 'EUR',
      order_desc: 'x',
      'destination-card-no': pan('approved'),
    });
    assertNames(byRef, 'client_orderid');
    const transfer = await rsaPost('api/v4/transfer', {
      'client-order-id': id,
      amount: '1.00',
      currency: 'EUR',
      order_desc: 'x',
      'destination-card-no': pan('approved'),
    });
    assertNames(transfer, 'client-order-id');
    await assertNoOrder(id);
  });

  test('the PaRes upload takes paRes and md only', async () => {
    const r = await postForm(`${h.base}/api/3ds/v1/upload-pares-result/${h.endpointId}`, {
      'client-order-id': 'x',
      orderid: '1',
      login: h.login,
      PaRes: 'abc',
      control: control(h, 'upload-pares-result', { client_orderid: 'x', orderid: '1' }),
    });
    assertNames(r, 'paRes');
  });
});

describe('required fields', () => {
  for (const field of FIELD_CONTRACTS['api/v2/sale']!.required) {
    test(`sale without ${field}: 400 naming it, nothing created`, async () => {
      const request = saleRequest(pan('approved'));
      const signed: Record<string, string> = {
        ...request,
        control: control(h, 'sale', request),
      };
      delete signed[field];
      assertNames(await postForm(`${h.base}/api/v2/sale/${h.endpointId}`, signed), field);
      await assertNoOrder(request.client_orderid);
    });
  }

  test('an empty required field counts as missing', async () => {
    const request = saleRequest(pan('approved'), orderId(), { city: '  ' });
    const r = await postForm(`${h.base}/api/v2/sale/${h.endpointId}`, {
      ...request,
      control: control(h, 'sale', request),
    });
    assertNames(r, 'city');
  });

  test('order_desc is 64k of free text: line breaks pass; NUL, other controls or 65,536 characters do not', async () => {
    const sale = (order_desc: string) => {
      const request = saleRequest(pan('approved'), orderId(), { order_desc });
      return {
        clientOrderId: request.client_orderid,
        // The spec's sale control, by hand: endpointId, client_orderid, amount in cents, email.
        sent: postForm(`${h.base}/api/v2/sale/${h.endpointId}`, {
          ...request,
          control: signedOver(`${h.endpointId}${request.client_orderid}1042${request.email}`),
        }),
      };
    };
    for (const desc of ['Two books\r\n\tand a pen', 'x'.repeat(65535)]) {
      const { sent } = sale(desc);
      const r = await sent;
      assert.equal(r.status, 200, JSON.stringify(r.body));
      assert.equal(r.body.type, 'async-response');
    }
    for (const desc of ['Two\u0000books', 'Two\u001bbooks', 'Two\u007fbooks', 'x'.repeat(65536)]) {
      const { clientOrderId, sent } = sale(desc);
      const r = await sent;
      assertNames(r, 'order_desc');
      assert.match(
        r.body['error-message']!,
        /1 to 65535 characters, no control characters but tab, LF, CR/,
      );
      await assertNoOrder(clientOrderId);
    }
  });

  test('make-rebill without ipaddress, v4 payout without order_desc: 400 naming them', async () => {
    const rebill = {
      client_orderid: orderId('rb'),
      order_desc: 'x',
      amount: '1.00',
      currency: 'EUR',
      cardrefid: 'r',
    };
    const r = await postForm(`${h.base}/api/v2/make-rebill/${h.endpointId}`, {
      ...rebill,
      login: h.login,
      control: control(h, 'make-rebill', rebill),
    });
    assertNames(r, 'ipaddress');
    const payout = await rsaPost('api/v4/payout', {
      'client-order-id': orderId('p4'),
      amount: '1.00',
      currency: 'EUR',
      account_number: 'DE89370400440532013000',
      bank_name: 'Example Bank',
    });
    assertNames(payout, 'order_desc');
  });
});

describe('control amounts are in cents for every currency (scheme A rule 3)', () => {
  test('JPY 500: the control signs 50000; one signed over 500 is refused naming control', async () => {
    const request = saleRequest(pan('approved'), orderId(), { amount: '500', currency: 'JPY' });
    const byExponent = await postForm(`${h.base}/api/v2/sale/${h.endpointId}`, {
      ...request,
      control: signedOver(`${h.endpointId}${request.client_orderid}500${request.email}`),
    });
    assertNames(byExponent, 'control');
    await assertNoOrder(request.client_orderid);
    const byCents = await postForm(`${h.base}/api/v2/sale/${h.endpointId}`, {
      ...request,
      control: signedOver(`${h.endpointId}${request.client_orderid}50000${request.email}`),
    });
    assert.equal(byCents.status, 200, JSON.stringify(byCents.body));
    const final = await waitForStatus(h, request.client_orderid, byCents.body['paynet-order-id']!);
    assert.equal(final.raw.amount, '500');
    assert.equal(final.raw.currency, 'JPY');
  });

  test('KWD 1.500 signs 150; KWD 1.234 (not whole cents) is refused naming amount', async () => {
    const good = saleRequest(pan('approved'), orderId(), { amount: '1.500', currency: 'KWD' });
    const ok = await postForm(`${h.base}/api/v2/sale/${h.endpointId}`, {
      ...good,
      control: signedOver(`${h.endpointId}${good.client_orderid}150${good.email}`),
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
    const bad = saleRequest(pan('approved'), orderId(), { amount: '1.234', currency: 'KWD' });
    const refused = await postForm(`${h.base}/api/v2/sale/${h.endpointId}`, {
      ...bad,
      control: signedOver(`${h.endpointId}${bad.client_orderid}123${bad.email}`),
    });
    assertNames(refused, 'amount');
    assert.match(refused.body['error-message']!, /not a whole number of cents/);
    await assertNoOrder(bad.client_orderid);
  });

  test('EUR amount sent in cents ("1042" for 10.42) is a different amount: control refused', async () => {
    const request = saleRequest(pan('approved'));
    const signed = { ...request, control: control(h, 'sale', request) };
    assertNames(
      await postForm(`${h.base}/api/v2/sale/${h.endpointId}`, { ...signed, amount: '1042' }),
      'control',
    );
    await assertNoOrder(request.client_orderid);
  });
});

describe('endpoint group ids in the endpoint slot', () => {
  test('sale and sale-form take the group id 2222 in {endpointId}, signed over it', async () => {
    const request = saleRequest(pan('approved'));
    const sale = await postForm(`${h.base}/api/v2/sale/2222`, {
      ...request,
      control: control(h, 'sale', { ...request, endpointId: '2222' }),
    });
    assert.equal(sale.status, 200, JSON.stringify(sale.body));
    assert.equal(sale.body['end-point-id'], h.endpointId);
    const form = {
      client_orderid: orderId('gf'),
      order_desc: 'x',
      amount: '1.00',
      currency: 'EUR',
      email: 'a@example.com',
      ipaddress: '203.0.113.7',
      redirect_url: 'https://shop.example/back',
    };
    const saleForm = await postForm(`${h.base}/api/v2/sale-form/2222`, {
      ...form,
      control: control(h, 'sale-form', { ...form, endpointId: '2222' }),
    });
    assert.equal(saleForm.status, 200, JSON.stringify(saleForm.body));
    assert.equal(saleForm.body.type, 'async-form-response');
  });

  test('a group id signed as if it were the endpoint id is refused naming control', async () => {
    const request = saleRequest(pan('approved'));
    const r = await postForm(`${h.base}/api/v2/sale/2222`, {
      ...request,
      control: control(h, 'sale', request),
    });
    assertNames(r, 'control');
  });

  test('status takes no group id in the endpoint slot', async () => {
    const r = await postForm(`${h.base}/api/v2/status/2222`, {
      login: h.login,
      client_orderid: 'x',
      control: control(h, 'status', { client_orderid: 'x' }),
    });
    assert.equal(r.status, 400);
    assert.equal(r.body['error-code'], 'unknown-endpoint');
  });
});

describe('response type for 200, 400 and 500', () => {
  test('a failure inside an operation is a 500 ServerErrorResponse in the JSON type', async () => {
    const store = h.sandbox.store;
    const original = store.nextOrderId;
    store.nextOrderId = async (): Promise<string> => {
      throw new Error('disk on fire at /var/lib/secret');
    };
    try {
      const request = saleRequest(pan('approved'));
      const response = await fetch(`${h.base}/api/v2/sale/${h.endpointId}`, {
        method: 'POST',
        headers: { Accept: PAY_JSON, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...request, control: control(h, 'sale', request) }),
      });
      assert.equal(response.status, 500);
      assert.equal(response.headers.get('content-type')?.split(';')[0], PAY_JSON);
      const body = (await response.json()) as Record<string, string>;
      assert.deepEqual(Object.keys(body).sort(), [
        'error-code',
        'error-message',
        'serial-number',
        'type',
      ]);
      assert.equal(body.type, 'error');
      assert.equal(body['error-code'], 'server-error');
      assert.equal(body['error-message'], 'Internal server error');
      assert.match(body['serial-number']!, /^[0-9a-f-]{36}$/);
    } finally {
      store.nextOrderId = original;
    }
  });

  test('fault injection 500 has the same shape', async () => {
    const request = saleRequest(pan('approved'));
    const response = await fetch(`${h.base}/api/v2/sale/${h.endpointId}`, {
      method: 'POST',
      headers: {
        Accept: PAY_JSON,
        'Content-Type': 'application/x-www-form-urlencoded',
        'X-Sandbox-Fault': '5xx',
      },
      body: new URLSearchParams({ ...request, control: control(h, 'sale', request) }),
    });
    assert.equal(response.status, 500);
    assert.equal(response.headers.get('content-type')?.split(';')[0], PAY_JSON);
    const body = (await response.json()) as Record<string, string>;
    assert.equal(body.type, 'error');
    assert.equal(body['error-code'], 'server-error');
    assert.ok(body['serial-number']);
    await assertNoOrder(request.client_orderid);
  });
});
