/**
 * The document and the server agree on requests: each body below is sent to the server and
 * checked against the request schema of `GET /v1/openapi.json` (Ajv), and the two must say the
 * same: valid by the document is never a 400, invalid by it always one. The cases are those a
 * generated client or a fuzzer met where the document once promised more than the server kept
 * (currencies, an amount's decimals and zero, control characters, unique modes, a payout's
 * destination, a hosted form's amount, card reference ids).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { type Backend, withSandboxAndBackend } from '../../../../support/loopback-stack.js';
import { CUSTOMER, merchant, uniqueOrderId } from '../../../../support/widget-api-client.js';

type Body = Record<string, unknown>;

const session = (extra: Body = {}): Body => ({
  amount: '1.00',
  currency: 'EUR',
  orderId: uniqueOrderId(),
  description: 'x',
  customer: CUSTOMER,
  ...extra,
});
const money = (extra: Body = {}): Body => ({
  orderId: uniqueOrderId('p'),
  amount: '1.00',
  currency: 'EUR',
  ...extra,
});
const hosted = (extra: Body): Body => ({
  orderId: uniqueOrderId('h'),
  currency: 'EUR',
  customer: { email: 'a@example.com' },
  returnUrl: 'https://shop.example/back',
  ...extra,
});

const CASES: [string, string, () => Body, boolean][] = [
  ['a plain session', '/v1/checkout-sessions', () => session(), true],
  ['an unknown currency', '/v1/checkout-sessions', () => session({ currency: 'XXZ' }), false],
  ['a zero amount', '/v1/checkout-sessions', () => session({ amount: '0.00' }), false],
  ['three decimals in EUR', '/v1/checkout-sessions', () => session({ amount: '7.647' }), false],
  [
    'decimals in JPY',
    '/v1/checkout-sessions',
    () => session({ amount: '10.5', currency: 'JPY' }),
    false,
  ],
  ['whole JPY', '/v1/checkout-sessions', () => session({ amount: '10', currency: 'JPY' }), true],
  [
    'KWD in whole cents',
    '/v1/checkout-sessions',
    () => session({ amount: '1.230', currency: 'KWD' }),
    true,
  ],
  [
    'KWD in mils',
    '/v1/checkout-sessions',
    () => session({ amount: '1.234', currency: 'KWD' }),
    false,
  ],
  [
    'a NUL in a name',
    '/v1/checkout-sessions',
    () => session({ customer: { ...CUSTOMER, firstName: 'K\u0000' } }),
    false,
  ],
  [
    'a tab in a name',
    '/v1/checkout-sessions',
    () => session({ customer: { ...CUSTOMER, firstName: 'K\tL' } }),
    false,
  ],
  [
    'a blank city',
    '/v1/checkout-sessions',
    () => session({ customer: { ...CUSTOMER, city: '   ' } }),
    false,
  ],
  ['lines in a description', '/v1/checkout-sessions', () => session({ description: 'a\nb' }), true],
  ['a mode twice', '/v1/checkout-sessions', () => session({ modes: ['direct', 'direct'] }), false],
  ['a payout with no destination', '/v1/payouts', () => money(), false],
  ['a payout to a phone', '/v1/payouts', () => money({ phone: '+441234567890' }), true],
  [
    'a payout called check',
    '/v1/payouts',
    () => money({ orderId: 'check', phone: '+441234567890' }),
    false,
  ],
  ['a payout check with no destination', '/v1/payouts/check', () => money(), false],
  ['a hosted sale with no amount', '/v1/hosted-forms', () => hosted({ kind: 'sale' }), false],
  [
    'a hosted verification with no amount',
    '/v1/hosted-forms',
    () => hosted({ kind: 'account-verification' }),
    true,
  ],
  ['a card reference id with a space', '/v1/rebills', () => money({ cardRefId: 'a b' }), false],
];

describe('merchant API: the document and the server agree on what a request may be', () => {
  let be: Backend;
  withSandboxAndBackend((started) => {
    ({ be } = started);
  });

  it('valid by the document is never a 400, invalid by it always one', async () => {
    const doc = await (await fetch(`${be.url}/v1/openapi.json`)).json();
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema(doc, 'openapi');
    for (const [name, path, make, valid] of CASES) {
      const pointer = `/paths/${path.replaceAll('/', '~1')}/post/requestBody/content/application~1json/schema`;
      const validate =
        ajv.getSchema(`openapi#${pointer}`) ?? ajv.compile({ $ref: `openapi#${pointer}` });
      const body = make();
      assert.equal(validate(body), valid, `${name}: by the document`);
      const res = await merchant(be.url, 'POST', path, body);
      if (valid) assert.notEqual(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
      else assert.equal(res.status, 400, `${name}: ${JSON.stringify(res.body)}`);
    }
  });
});
