import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { luhnValid } from '../../../contract/card/luhn.js';
import { GatewayValidationError } from '../../../server/src/gateway/index.js';
import { TEST_CARDS } from '../../../server/src/sandbox/index.js';
import {
  control,
  type Harness,
  orderId,
  PAY_JSON,
  postForm,
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

describe('test cards', () => {
  test('GET /sandbox/test-cards lists every scenario with Luhn-valid PANs', async () => {
    const response = await fetch(`${h.origin}/sandbox/test-cards`);
    assert.equal(response.status, 200);
    const cards = (await response.json()) as {
      scenario: string;
      pan: string;
      otp: string | null;
    }[];
    assert.deepEqual(
      cards.map((c) => c.scenario),
      [
        'approved',
        'declined',
        'insufficient-funds',
        '3ds2-frictionless',
        '3ds2-challenge',
        '3ds2-challenge-no-method',
        '3ds2-method-timeout',
        '3ds1',
        'error',
        'filtered',
        'unknown-then-approved',
        '3ds1-no-md',
        '3ds2-cres-refused',
        'gateway-3ds-redirect',
        'gateway-3ds-redirect-declined',
        'gateway-3ds-html',
        '3ds2-challenge-late-approval',
        'saved-card-challenge',
      ],
    );
    for (const card of cards) assert.ok(luhnValid(card.pan), card.pan);
    assert.equal(cards.find((c) => c.scenario === '3ds2-challenge')?.otp, '1234');
  });
});

describe('sale through the gateway client', () => {
  test('approved: async-response processing, then status approved with card fields', async () => {
    const request = saleRequest(pan('approved'));
    const ack = await h.client.sale(request);
    assert.equal(ack.type, 'async-response');
    assert.equal(ack.status, 'processing');
    assert.equal(ack.clientOrderId, request.client_orderid);
    assert.match(ack.orderId ?? '', /^\d+$/);
    const status = await waitForStatus(h, request.client_orderid, ack.orderId!);
    assert.equal(status.status, 'approved');
    assert.equal(status.raw.type, 'status-response');
    assert.equal(status.raw.amount, '10.42');
    assert.equal(status.raw.currency, 'EUR');
    assert.equal(status.raw['transaction-type'], 'sale');
    assert.equal(status.raw['last-four-digits'], '0002');
    assert.equal(status.raw.bin, '400000');
    assert.equal(status.raw['card-type'], 'VISA');
    assert.equal(status.raw['cardholder-name'], 'Ada Lovelace');
    assert.equal(status.raw['card-exp-month'], '12');
    assert.equal(status.raw['card-exp-year'], '2030');
    assert.equal(status.raw['error-code'], undefined);
  });

  for (const [scenario, expected, code] of [
    ['declined', 'declined', '05'],
    ['insufficient-funds', 'declined', '51'],
    ['error', 'error', '96'],
    ['filtered', 'filtered', '8881'],
  ] as const) {
    test(`${scenario}: ends ${expected} with error-code ${code}`, async () => {
      const request = saleRequest(pan(scenario));
      const ack = await h.client.sale(request);
      const status = await waitForStatus(h, request.client_orderid, ack.orderId!);
      assert.equal(status.status, expected);
      assert.equal(status.raw['error-code'], code);
      assert.ok(status.raw['error-message']);
    });
  }

  test('unknown-then-approved: reports unknown, then approved', async () => {
    const request = saleRequest(pan('unknown-then-approved'));
    const ack = await h.client.sale(request);
    const unknown = await waitForStatus(
      h,
      request.client_orderid,
      ack.orderId!,
      (r) => r.status !== 'processing',
    );
    assert.equal(unknown.status, 'unknown');
    const final = await waitForStatus(h, request.client_orderid, ack.orderId!);
    assert.equal(final.status, 'approved');
  });

  test('status by client_orderid alone (control with an empty orderid)', async () => {
    const request = saleRequest(pan('approved'));
    const ack = await h.client.sale(request);
    await waitForStatus(h, request.client_orderid, ack.orderId!);
    const r = await postForm(`${h.base}/api/v2/status/${h.endpointId}`, {
      login: h.login,
      client_orderid: request.client_orderid,
      control: control(h, 'status', { client_orderid: request.client_orderid, orderid: '' }),
    });
    assert.equal(r.status, 200);
    assert.equal(r.body['paynet-order-id'], ack.orderId);
    assert.equal(r.body.status, 'approved');
  });

  test('preauth and account verification are approved through status', async () => {
    const pre = saleRequest(pan('approved'));
    const ack = await h.client.preauth(pre);
    assert.equal(
      (await waitForStatus(h, pre.client_orderid, ack.orderId!)).raw['transaction-type'],
      'preauth',
    );
    const av = saleRequest(pan('approved'));
    const { amount: _a, ...avRequest } = av;
    const avAck = await h.client.accountVerification(avRequest);
    const status = await waitForStatus(h, av.client_orderid, avAck.orderId!);
    assert.equal(status.status, 'approved');
    assert.equal(status.raw.amount, '0.00');
    assert.equal(status.raw['transaction-type'], 'account-verification');
  });

  test('an endpoint group id maps to the merchant endpoint', async () => {
    const request = saleRequest(pan('approved'));
    const r = await postForm(`${h.base}/api/v2/sale/group/2222`, {
      ...request,
      control: control(h, 'sale', { endpointId: '2222', ...request }),
    });
    assert.equal(r.status, 200);
    assert.equal(r.body.type, 'async-response');
    assert.equal(r.body['end-point-id'], h.endpointId);
  });

  test('cards outside the table follow the CVV rules', async () => {
    for (const [cvv, expected] of [
      ['123', 'approved'],
      ['116', 'declined'],
      ['999', 'declined'],
    ] as const) {
      const request = saleRequest('5555550000000002', orderId(), { cvv2: cvv });
      const ack = await h.client.sale(request);
      assert.equal((await waitForStatus(h, request.client_orderid, ack.orderId!)).status, expected);
    }
    const unknown = saleRequest('5555550000000010', orderId(), { cvv2: '217' });
    const ack = await h.client.sale(unknown);
    const r = await waitForStatus(
      h,
      unknown.client_orderid,
      ack.orderId!,
      (s) => s.status !== 'processing',
    );
    assert.equal(r.status, 'unknown');
  });
});

describe('duplicate client_orderid', () => {
  test('the same request again answers the existing order and charges once', async () => {
    const request = saleRequest(pan('approved'));
    const first = await h.client.sale(request);
    const again = await h.client.sale(request);
    assert.equal(again.orderId, first.orderId);
  });

  test('a different request reusing it is a validation error naming client_orderid', async () => {
    const request = saleRequest(pan('approved'));
    await h.client.sale(request);
    await assert.rejects(h.client.sale({ ...request, amount: '99.00' }), (error) => {
      assert.ok(error instanceof GatewayValidationError);
      assert.match(error.errorMessage ?? '', /client_orderid/);
      return true;
    });
  });
});

describe('refusals, checked like the real gateway', () => {
  const url = () => `${h.base}/api/v2/sale/${h.endpointId}`;
  const signed = (fields: Record<string, string>) => ({
    ...fields,
    control: control(h, 'sale', fields),
  });

  test('wrong control: 400 validation-error naming control', async () => {
    const r = await postForm(url(), { ...saleRequest(pan('approved')), control: 'a'.repeat(40) });
    assert.equal(r.status, 400);
    assert.equal(r.contentType.split(';')[0], PAY_JSON);
    assert.equal(r.body.type, 'validation-error');
    assert.match(r.body['error-message']!, /^control:/);
  });

  test('tampered amount after signing: 400 naming control', async () => {
    const fields = signed(saleRequest(pan('approved')));
    const r = await postForm(url(), { ...fields, amount: '1.00' });
    assert.equal(r.status, 400);
    assert.match(r.body['error-message']!, /control/);
  });

  test('missing Accept header: 400 naming Accept', async () => {
    const r = await postForm(url(), signed(saleRequest(pan('approved'))), {
      Accept: 'application/json',
    });
    assert.equal(r.status, 400);
    assert.match(r.body['error-message']!, /Accept/);
  });

  test('a JSON body: 400 naming Content-Type', async () => {
    const response = await fetch(url(), {
      method: 'POST',
      headers: { Accept: PAY_JSON, 'Content-Type': 'application/json' },
      body: JSON.stringify(saleRequest(pan('approved'))),
    });
    assert.equal(response.status, 400);
    assert.match(
      ((await response.json()) as Record<string, string>)['error-message']!,
      /Content-Type/,
    );
  });

  test('GET: 405', async () => {
    const r = await postForm(url(), {}, {}, 'GET');
    assert.equal(r.status, 405);
  });

  test('unknown endpoint: 400', async () => {
    const r = await postForm(`${h.base}/api/v2/sale/999`, signed(saleRequest(pan('approved'))));
    assert.equal(r.status, 400);
    assert.match(r.body['error-message']!, /endpoint 999/);
  });

  for (const field of [
    'client_orderid',
    'amount',
    'currency',
    'email',
    'credit_card_number',
    'cvv2',
    'redirect_url',
  ]) {
    test(`missing ${field}: 400 naming it`, async () => {
      const { [field as 'amount']: _omit, ...rest } = saleRequest(pan('approved'));
      const r = await postForm(url(), { ...rest, control: 'x' });
      assert.equal(r.status, 400);
      assert.ok(r.body['error-message']!.startsWith(`${field}:`), r.body['error-message']);
    });
  }

  for (const [field, value] of [
    ['amount', '10.001'],
    ['amount', '-1'],
    ['amount', '1e3'],
    ['currency', 'EURO'],
    ['currency', 'XYZ'],
    ['credit_card_number', '4000000000000003'],
    ['expire_month', '13'],
    ['email', 'not-an-email'],
    ['redirect_url', 'javascript:alert(1)'],
  ] as const) {
    test(`malformed ${field}=${value}: 400 naming it`, async () => {
      const r = await postForm(url(), {
        ...saleRequest(pan('approved')),
        [field]: value,
        control: 'x',
      });
      assert.equal(r.status, 400);
      assert.ok(r.body['error-message']!.startsWith(`${field}:`), r.body['error-message']);
    });
  }

  test('garbage never yields a 500', async () => {
    for (const body of [
      '%',
      '&&&=',
      'a=%ZZ',
      '\u0000\u0001',
      'client_orderid=a&client_orderid=b',
    ]) {
      const response = await fetch(url(), {
        method: 'POST',
        headers: { Accept: PAY_JSON, 'Content-Type': 'application/x-www-form-urlencoded' },
        body,
      });
      assert.equal(response.status, 400, body);
    }
    const status = await postForm(`${h.base}/api/v2/status/${h.endpointId}`, {
      login: h.login,
      client_orderid: 'x',
      orderid: '99999999999999999999',
      control: 'x',
    });
    assert.equal(status.status, 400);
  });
});
