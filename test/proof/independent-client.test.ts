/**
 * An independent client of the sandbox, written only from the gateway's interface spec (restated
 * in docs/gateway.md; statement by statement in docs/spec-conformance.md): it imports none of
 * the project's signing, gateway or sandbox code except `createSandboxApp` to start the server.
 * Scheme A is its own SHA-1 over the inputs the spec's tables list, with the amount in cents
 * ("10.00 becomes 1000"); schemes B and C are the `oauth-1.0a` package. It drives every operation
 * of the spec that has a path, then tries the deviations a careless client makes (wrong spelling,
 * missing field, wrong control, amount in the wrong unit, wrong signature) and expects a 400 or
 * 403 that names the problem.
 */
import assert from 'node:assert/strict';
import { createHash, createHmac, createSign } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import OAuth from 'oauth-1.0a';
import { type Sandbox, startSandbox } from '../support/loopback-stack.js';
import { scaled } from '../support/time-scale.js';

const PAY_JSON = 'application/vnd.pay+json';

interface Answer {
  status: number;
  type: string;
  body: Record<string, string>;
}

let sb: Sandbox;
let endpointId: string;
let groupId: string;
let login: string;
let controlKey: string;
let privateKey: string;
let cards: { scenario: string; pan: string; otp: string | null }[];

before(async () => {
  sb = await startSandbox({ processingDelayMs: 15 });
  const dev = sb.sandbox.devCredentials!;
  ({ endpointId, groupId, login, controlKey } = dev);
  privateKey = readFileSync(dev.privateKeyFile, 'utf8');
  cards = (await (await fetch(`${sb.origin}/sandbox/test-cards`)).json()) as typeof cards;
});
after(() => sb.close());

const pan = (scenario: string) => cards.find((c) => c.scenario === scenario)!.pan;
let seq = 0;
const newId = (prefix: string) => `${prefix}-${process.pid}-${Date.now()}-${++seq}`;

// --- scheme A, from the spec's words -----------------------------------------------------------

/** "10.00 becomes 1000": the decimal amount times 100, by digits, whatever the currency. */
function cents(amount: string): string {
  const [whole = '', fraction = ''] = amount.split('.');
  return String(Number(`${whole}${fraction.padEnd(2, '0').slice(0, 2)}`));
}

/** "SHA-1 of the concatenation of the listed inputs in the listed order, followed by the key". */
function control(...inputs: string[]): string {
  return createHash('sha1')
    .update(inputs.join('') + controlKey, 'utf8')
    .digest('hex');
}

async function post(
  path: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const response = await fetch(`${sb.gatewayUrl}${path}`, {
    method: 'POST',
    headers: {
      Accept: PAY_JSON,
      'Content-Type': 'application/x-www-form-urlencoded',
      ...headers,
    },
    body: new URLSearchParams(fields).toString(),
  });
  assert.equal(response.headers.get('content-type')?.split(';')[0], PAY_JSON, path);
  return {
    status: response.status,
    type: response.headers.get('content-type') ?? '',
    body: (await response.json()) as Record<string, string>,
  };
}

// --- schemes B and C, from the oauth-1.0a package ---------------------------------------------

const hmac = () =>
  new OAuth({
    consumer: { key: login, secret: controlKey },
    signature_method: 'HMAC-SHA1',
    hash_function: (base, key) => createHmac('sha1', key).update(base).digest('base64'),
  });
const rsa = () =>
  new OAuth({
    consumer: { key: login, secret: '' },
    signature_method: 'RSA-SHA256',
    hash_function: (base) => createSign('RSA-SHA256').update(base).sign(privateKey, 'base64'),
  });

function oauthPost(oauth: OAuth, path: string, data: Record<string, string>): Promise<Answer> {
  const url = `${sb.gatewayUrl}${path}`;
  const header = oauth.toHeader(oauth.authorize({ url, method: 'POST', data }));
  return post(path, data, { Authorization: header.Authorization });
}

// --- expectations ------------------------------------------------------------------------------

function ok(answer: Answer, what: string): Record<string, string> {
  assert.equal(answer.status, 200, `${what}: ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** A refusal that names what is wrong: 400 naming the field, or 403 for a signature. */
function refused(answer: Answer, status: 400 | 403, names: string): void {
  assert.equal(answer.status, status, JSON.stringify(answer.body));
  assert.ok(answer.body['error-message']?.includes(names), answer.body['error-message']);
}

async function finalStatus(
  clientOrderId: string,
  orderid: string,
): Promise<Record<string, string>> {
  for (const end = Date.now() + scaled(4_000); Date.now() < end; ) {
    const body = ok(
      await post(`/api/v2/status/${endpointId}`, {
        login,
        client_orderid: clientOrderId,
        orderid,
        control: control(login, clientOrderId, orderid),
      }),
      'status',
    );
    if (body.status !== 'processing' && body.status !== 'unknown') return body;
    if (body['acs-url'] || body['three-ds-server-trans-id']) return body;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`order ${orderid} never left processing`);
}

const customer = {
  address1: '1 Analytical Row',
  city: 'London',
  zip_code: 'N1 1AA',
  country: 'GB',
  phone: '+442071234567',
  email: 'ada@example.com',
  ipaddress: '203.0.113.7',
};
const card = (scenario: string) => ({
  card_printed_name: 'Ada Lovelace',
  credit_card_number: pan(scenario),
  expire_month: '12',
  expire_year: '2030',
  cvv2: '123',
});

function sale(scenario: string, amount = '10.42', currency = 'EUR') {
  const fields: Record<string, string> = {
    client_orderid: newId('sale'),
    order_desc: 'Independent client order',
    amount,
    currency,
    ...customer,
    ...card(scenario),
    redirect_url: 'https://shop.example/return',
  };
  return fields;
}

/** SALE / PREAUTH control: endpointId, client_orderid, amount (cents), email. */
const paymentControl = (f: Record<string, string>, id = endpointId) =>
  control(id, f.client_orderid!, cents(f.amount!), f.email!);

async function approved(path: 'sale' | 'preauth') {
  const fields = sale('approved');
  const ack = ok(
    await post(`/api/v2/${path}/${endpointId}`, { ...fields, control: paymentControl(fields) }),
    path,
  );
  assert.equal(ack.type, 'async-response');
  const status = await finalStatus(fields.client_orderid!, ack['paynet-order-id']!);
  assert.equal(status.status, 'approved');
  return { clientOrderId: fields.client_orderid!, orderid: ack['paynet-order-id']! };
}

describe('an independent client drives every operation', () => {
  test('sale and preauth by endpoint id and by endpoint group id; status by orderid', async () => {
    await approved('sale');
    await approved('preauth');
    const fields = sale('approved');
    const ack = ok(
      await post(`/api/v2/sale/${groupId}`, {
        ...fields,
        control: paymentControl(fields, groupId),
      }),
      'sale by group',
    );
    assert.equal(ack['end-point-id'], endpointId);
  });

  test('the callback: a GET to server_callback_url whose control is SHA-1 of status, orderid, client_orderid and the key', async () => {
    const calls: { method: string; query: URLSearchParams }[] = [];
    const receiver = createServer((req, res) => {
      calls.push({
        method: req.method ?? '',
        query: new URL(req.url ?? '', 'http://x').searchParams,
      });
      res.end('OK');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/callback`;
      const fields: Record<string, string> = { ...sale('approved'), server_callback_url: url };
      const clientOrderId = fields.client_orderid!;
      const ack = ok(
        await post(`/api/v2/sale/${endpointId}`, { ...fields, control: paymentControl(fields) }),
        'sale with a callback',
      );
      const orderid = ack['paynet-order-id']!;
      assert.equal((await finalStatus(clientOrderId, orderid)).status, 'approved');
      for (const end = Date.now() + scaled(4_000); Date.now() < end && calls.length === 0; )
        await new Promise((r) => setTimeout(r, 10));
      assert.equal(calls.length, 1);
      const { method, query } = calls[0]!;
      assert.equal(method, 'GET');
      assert.deepEqual(
        [query.get('status'), query.get('orderid'), query.get('client_orderid')],
        ['approved', orderid, clientOrderId],
      );
      assert.equal(query.get('control'), control('approved', orderid, clientOrderId));
    } finally {
      receiver.closeAllConnections();
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  test('JPY and KWD: the request keeps the currency decimals, the control carries cents', async () => {
    for (const [amount, currency] of [
      ['500', 'JPY'],
      ['1.500', 'KWD'],
    ] as const) {
      const fields = sale('approved', amount, currency);
      const ack = ok(
        await post(`/api/v2/sale/${endpointId}`, { ...fields, control: paymentControl(fields) }),
        currency,
      );
      const status = await finalStatus(fields.client_orderid!, ack['paynet-order-id']!);
      assert.equal(status.status, 'approved');
      assert.equal(status.amount, amount);
    }
  });

  test('status by client_orderid alone: the orderid input is an empty string', async () => {
    const { clientOrderId, orderid } = await approved('sale');
    const body = ok(
      await post(`/api/v2/status/${endpointId}`, {
        login,
        client_orderid: clientOrderId,
        control: control(login, clientOrderId, ''),
      }),
      'status by client_orderid',
    );
    assert.equal(body['paynet-order-id'], orderid);
  });

  test('capture (partial), return (partial and full), void', async () => {
    const held = await approved('preauth');
    const capture = ok(
      await post(`/api/v2/capture/${endpointId}`, {
        login,
        client_orderid: held.clientOrderId,
        orderid: held.orderid,
        amount: '6.00',
        currency: 'EUR',
        control: control(login, held.clientOrderId, held.orderid, cents('6.00'), 'EUR'),
      }),
      'capture',
    );
    assert.equal(capture.type, 'async-response');
    assert.equal((await finalStatus(held.clientOrderId, held.orderid)).status, 'approved');
    ok(
      await post(`/api/v2/return/${endpointId}`, {
        login,
        client_orderid: held.clientOrderId,
        orderid: held.orderid,
        amount: '1.00',
        currency: 'EUR',
        control: control(login, held.clientOrderId, held.orderid, cents('1.00'), 'EUR'),
      }),
      'partial return',
    );
    assert.equal((await finalStatus(held.clientOrderId, held.orderid)).status, 'approved');
    const paid = await approved('sale');
    ok(
      await post(`/api/v2/return/${endpointId}`, {
        login,
        client_orderid: paid.clientOrderId,
        orderid: paid.orderid,
        control: control(login, paid.clientOrderId, paid.orderid),
      }),
      'full return',
    );
    const other = await approved('preauth');
    ok(
      await post(`/api/v2/void/${endpointId}`, {
        login,
        client_orderid: other.clientOrderId,
        orderid: other.orderid,
        control: control(login, other.clientOrderId, other.orderid),
      }),
      'void',
    );
    assert.equal((await finalStatus(other.clientOrderId, other.orderid)).status, 'approved');
  });

  test('account verification and the five hosted forms answer a redirect address', async () => {
    const av = sale('approved');
    const { amount: _a, ...verification } = av;
    ok(
      await post(`/api/v2/account-verification/${endpointId}`, {
        ...verification,
        control: control(endpointId, av.client_orderid!, av.email!),
      }),
      'account-verification',
    );
    const form = () => ({
      client_orderid: newId('form'),
      order_desc: 'Hosted form',
      amount: '5.00',
      currency: 'EUR',
      email: 'ada@example.com',
      ipaddress: '203.0.113.7',
      redirect_url: 'https://shop.example/return',
    });
    for (const path of ['sale-form', 'preauth-form', 'payment-form', 'payout-form']) {
      const f = form();
      const body = ok(
        await post(`/api/v2/${path}/${groupId}`, {
          ...f,
          control: control(groupId, f.client_orderid, cents(f.amount), f.email),
        }),
        path,
      );
      assert.match(body['redirect-url']!, /^http:\/\/127\.0\.0\.1:\d+\/paynet\/form\//);
    }
    const { amount: _b, ...avForm } = form();
    const body = ok(
      await post(`/api/v2/account-verification-form/${endpointId}`, {
        ...avForm,
        control: control(endpointId, avForm.client_orderid, avForm.email),
      }),
      'account-verification-form',
    );
    assert.ok(body['redirect-url']);
  });

  test('create-card-ref (v2 and v4), get-card-info, make-rebill, recurring payment', async () => {
    const paid = await approved('sale');
    const ref = ok(
      await post(`/api/v2/create-card-ref/${endpointId}`, {
        login,
        client_orderid: paid.clientOrderId,
        orderid: paid.orderid,
        control: control(login, paid.clientOrderId, paid.orderid),
      }),
      'create-card-ref',
    );
    // CardRefAsyncResponse: the id in the answer, or later in status.
    const cardRefId =
      ref['card-ref-id'] ?? (await finalStatus(paid.clientOrderId, paid.orderid))['card-ref-id']!;
    assert.ok(cardRefId);
    const v4 = ok(
      await oauthPost(rsa(), `/api/v4/create-card-ref/${endpointId}`, {
        client_orderid: paid.clientOrderId,
        orderid: paid.orderid,
      }),
      'create-card-ref v4',
    );
    assert.equal(v4['card-ref-id'], cardRefId);
    const info = ok(
      await post(`/api/v2/get-card-info/${endpointId}`, {
        login,
        cardrefid: cardRefId,
        control: control(login, cardRefId),
      }),
      'get-card-info',
    );
    assert.equal(info.bin, pan('approved').slice(0, 6));
    const rebillId = newId('rebill');
    const rebill = ok(
      await post(`/api/v2/make-rebill/${endpointId}`, {
        login,
        client_orderid: rebillId,
        order_desc: 'Monthly',
        amount: '3.00',
        currency: 'EUR',
        ipaddress: '203.0.113.7',
        cardrefid: cardRefId,
        control: control(login, rebillId, cardRefId, cents('3.00'), 'EUR'),
      }),
      'make-rebill',
    );
    assert.equal((await finalStatus(rebillId, rebill['paynet-order-id']!)).status, 'approved');
    const rp = ok(
      await oauthPost(rsa(), `/api/v4/create-recurring-payment/${endpointId}`, {
        'card-ref-id': cardRefId,
        period: 'month',
        interval: '1',
        amount: '9.99',
        currency: 'EUR',
        email: 'ada@example.com',
      }),
      'create-recurring-payment',
    );
    assert.ok(rp['recurring-payment-id']);
    const eligibility = ok(
      await oauthPost(hmac(), `/api/v2/pan-eligibility/send/${endpointId}`, {
        'client-order-id': newId('pe'),
        'sending-card-ref-id': cardRefId,
      }),
      'pan-eligibility/send',
    );
    assert.equal(eligibility['card-ref-id'], cardRefId);
    const byRef = ok(
      await oauthPost(rsa(), `/api/v4/transfer-by-ref/${endpointId}`, {
        'client-order-id': newId('tbr'),
        amount: '2.00',
        currency: 'EUR',
        order_desc: 'Gift',
        'destination-card-no': pan('approved'),
        cardrefid: cardRefId,
      }),
      'transfer-by-ref',
    );
    assert.ok(byRef['transaction-id']);
  });

  test('payout (HMAC-SHA1), v4 payout, payout-check then payout-pay, transfer (RSA-SHA256)', async () => {
    const payout = ok(
      await oauthPost(hmac(), `/api/v2/payout/${endpointId}`, {
        client_orderid: newId('po'),
        amount: '7.00',
        currency: 'EUR',
        credit_card_number: pan('approved'),
        card_printed_name: 'Ada Lovelace',
      }),
      'payout',
    );
    assert.equal(payout.type, 'async-response');
    const v4 = ok(
      await oauthPost(rsa(), `/api/v4/payout/${endpointId}`, {
        'client-order-id': newId('po4'),
        amount: '7.00',
        currency: 'EUR',
        order_desc: 'Payout',
        account_number: 'DE89370400440532013000',
        bank_name: 'Example Bank',
      }),
      'v4 payout',
    );
    assert.ok(v4['payout-id']);
    const twoStep = newId('two');
    const check = ok(
      await oauthPost(rsa(), `/api/v4/payout-check/${endpointId}`, {
        'client-order-id': twoStep,
        amount: '9.00',
        currency: 'EUR',
        order_desc: 'Two-step payout',
        account_number: 'DE89370400440532013000',
        bank_name: 'Example Bank',
      }),
      'payout-check',
    );
    ok(
      await oauthPost(rsa(), `/api/v4/payout-pay/${endpointId}`, {
        'client-order-id': twoStep,
        orderid: check['paynet-order-id']!,
      }),
      'payout-pay',
    );
    const transfer = ok(
      await oauthPost(rsa(), `/api/v4/transfer/${endpointId}`, {
        client_orderid: newId('tr'),
        amount: '4.00',
        currency: 'EUR',
        order_desc: 'Transfer',
        ...card('approved'),
        ipaddress: '203.0.113.7',
        'destination-card-no': pan('approved'),
      }),
      'transfer',
    );
    assert.ok(transfer['transaction-id']);
  });

  test('3DS 2.x: method result upload, challenge, CRes upload; 3DS 1.0.2: PaRes upload', async () => {
    const challenge = sale('3ds2-challenge');
    const ack = ok(
      await post(`/api/v2/sale/${endpointId}`, {
        ...challenge,
        control: paymentControl(challenge),
      }),
      '3DS sale',
    );
    const orderid = ack['paynet-order-id']!;
    const clientOrderId = challenge.client_orderid!;
    const waiting = await finalStatus(clientOrderId, orderid);
    const upload = (path: string, fields: Record<string, string>) =>
      post(`/api/3ds/v1/${path}/${endpointId}`, {
        login,
        'client-order-id': clientOrderId,
        orderid,
        ...fields,
        control: control(login, clientOrderId, orderid),
      });
    ok(
      await upload('upload-method-url-result', {
        threeDSServerTransID: waiting['three-ds-server-trans-id']!,
        browserAcceptHeader: 'text/html',
        browserIP: '203.0.113.7',
        browserJavaEnabled: 'false',
        browserJavascriptEnabled: 'true',
        browserLanguage: 'en-GB',
        browserColorDepth: '24',
        browserScreenHeight: '1080',
        browserScreenWidth: '1920',
        browserTZ: '-60',
        browserUserAgent: 'independent-client',
        challengeWindowSize: '02',
        threeDSCompInd: 'Y',
      }),
      'upload-method-url-result',
    );
    let acs: Record<string, string> = {};
    for (const end = Date.now() + scaled(2_000); Date.now() < end && !acs['acs-url']; ) {
      acs = await finalStatus(clientOrderId, orderid);
      await new Promise((r) => setTimeout(r, 10));
    }
    const cres = await runAcs(acs['acs-url']!, { creq: acs.creq! }, 'cres');
    ok(await upload('upload-cres-result', { cres }), 'upload-cres-result');
    assert.equal((await settled(clientOrderId, orderid)).status, 'approved');

    const tds1 = sale('3ds1');
    const ack1 = ok(
      await post(`/api/v2/sale/${endpointId}`, { ...tds1, control: paymentControl(tds1) }),
      '3DS 1 sale',
    );
    const o1 = ack1['paynet-order-id']!;
    const s1 = await finalStatus(tds1.client_orderid!, o1);
    const paRes = await runAcs(
      s1['acs-url']!,
      { PaReq: s1.pareq!, MD: s1.md!, TermUrl: 'https://shop.example/return' },
      'PaRes',
    );
    ok(
      await post(`/api/3ds/v1/upload-pares-result/${endpointId}`, {
        login,
        'client-order-id': tds1.client_orderid!,
        orderid: o1,
        paRes,
        md: s1.md!,
        control: control(login, tds1.client_orderid!, o1),
      }),
      'upload-pares-result',
    );
    assert.equal((await settled(tds1.client_orderid!, o1)).status, 'approved');
  });
});

/** Status until a final status (3DS fields no longer stop the wait). */
async function settled(clientOrderId: string, orderid: string) {
  for (const end = Date.now() + scaled(4_000); Date.now() < end; ) {
    const body = await finalStatus(clientOrderId, orderid);
    if (['approved', 'declined', 'error', 'filtered'].includes(body.status!)) return body;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`order ${orderid} never reached a final status`);
}

/** A browser on the ACS page: post the request, submit the code, read the field it returns. */
async function runAcs(url: string, fields: Record<string, string>, answer: string) {
  const page = await browserPost(url, fields);
  const form = firstForm(page);
  const done = firstForm(
    await browserPost(new URL(form.action, url).href, {
      ...form.fields,
      otp: '1234',
      action: 'submit',
    }),
  );
  const value = done.fields[answer];
  assert.ok(value, `the ACS returned no ${answer}`);
  return value;
}

async function browserPost(url: string, fields: Record<string, string>) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/html' },
    body: new URLSearchParams(fields).toString(),
  });
  return response.text();
}

function firstForm(html: string) {
  const form = /<form[^>]*action="([^"]*)"[^>]*>([\s\S]*?)<\/form>/.exec(html);
  assert.ok(form, html.slice(0, 200));
  const decode = (v: string) =>
    v.replaceAll('&quot;', '"').replaceAll('&#39;', "'").replaceAll('&amp;', '&');
  const fields: Record<string, string> = {};
  for (const input of form[2]!.matchAll(/<input[^>]*>/g)) {
    const name = /name="([^"]*)"/.exec(input[0])?.[1];
    if (name) fields[decode(name)] = decode(/value="([^"]*)"/.exec(input[0])?.[1] ?? '');
  }
  return { action: decode(form[1]!), fields };
}

describe('every deviation is a 400 or 403 that names the problem', () => {
  test('wrong spelling of the order id: client_orderid on a 3DS upload, client-order-id on v2', async () => {
    refused(
      await post(`/api/3ds/v1/upload-cres-result/${endpointId}`, {
        login,
        client_orderid: 'x',
        orderid: '1',
        cres: 'abc',
        control: control(login, 'x', '1'),
      }),
      400,
      'client_orderid',
    );
    const f = sale('approved');
    const { client_orderid, ...rest } = f;
    refused(
      await post(`/api/v2/sale/${endpointId}`, {
        ...rest,
        'client-order-id': client_orderid!,
        control: paymentControl(f),
      }),
      400,
      'client-order-id',
    );
    refused(
      await oauthPost(rsa(), `/api/v4/payout/${endpointId}`, {
        client_orderid: newId('po'),
        amount: '1.00',
        currency: 'EUR',
        order_desc: 'x',
        account_number: 'DE89370400440532013000',
        bank_name: 'Example Bank',
      }),
      400,
      'client_orderid',
    );
  });

  test('a missing required field: address1, phone, ipaddress, order_desc each named', async () => {
    for (const field of [
      'address1',
      'city',
      'zip_code',
      'country',
      'phone',
      'ipaddress',
      'order_desc',
    ]) {
      const f = sale('approved');
      delete f[field];
      refused(
        await post(`/api/v2/sale/${endpointId}`, { ...f, control: paymentControl(f) }),
        400,
        field,
      );
    }
  });

  test('a wrong control: 400 naming control', async () => {
    const f = sale('approved');
    refused(
      await post(`/api/v2/sale/${endpointId}`, { ...f, control: control('tampered') }),
      400,
      'control',
    );
    refused(
      await post(`/api/v2/status/${endpointId}`, {
        login,
        client_orderid: 'x',
        control: control(login, 'x', 'null'),
      }),
      400,
      'control',
    );
  });

  test('the amount in the wrong unit: minor units of the currency, or cents on the wire', async () => {
    const jpy = sale('approved', '500', 'JPY');
    refused(
      await post(`/api/v2/sale/${endpointId}`, {
        ...jpy,
        control: control(endpointId, jpy.client_orderid!, '500', jpy.email!),
      }),
      400,
      'control',
    );
    const eur = sale('approved');
    refused(
      await post(`/api/v2/sale/${endpointId}`, {
        ...eur,
        amount: cents(eur.amount!),
        control: paymentControl(eur),
      }),
      400,
      'control',
    );
    const kwd = sale('approved', '1.234', 'KWD');
    refused(
      await post(`/api/v2/sale/${endpointId}`, {
        ...kwd,
        control: control(endpointId, kwd.client_orderid!, '123', kwd.email!),
      }),
      400,
      'amount',
    );
  });

  test('a wrong OAuth signature, or none: 403 naming OAuth', async () => {
    const data = {
      client_orderid: newId('po'),
      amount: '1.00',
      currency: 'EUR',
      credit_card_number: pan('approved'),
    };
    refused(await post(`/api/v2/payout/${endpointId}`, data), 403, 'OAuth');
    const url = `${sb.gatewayUrl}/api/v2/payout/${endpointId}`;
    const oauth = hmac();
    const header = oauth.toHeader(oauth.authorize({ url, method: 'POST', data }));
    refused(
      await post(
        `/api/v2/payout/${endpointId}`,
        { ...data, amount: '100.00' },
        {
          Authorization: header.Authorization,
        },
      ),
      403,
      'OAuth',
    );
  });

  test('the Accept header is required to be exactly application/vnd.pay+json', async () => {
    const f = sale('approved');
    const response = await fetch(`${sb.gatewayUrl}/api/v2/sale/${endpointId}`, {
      method: 'POST',
      headers: { Accept: 'application/json', 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ...f, control: paymentControl(f) }).toString(),
    });
    assert.equal(response.status, 400);
    assert.match(((await response.json()) as Record<string, string>)['error-message']!, /Accept/);
  });
});
