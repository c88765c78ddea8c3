/**
 * A session needs only an amount (issue 35): `customer` and each of its fields are optional,
 * `collect` says per group what the element asks (auto, always, never), `countryHint` where its
 * address part starts. A `never` group the customer lacks is a 400 naming the field; every field
 * is checked by the rules the shopper's are (a postal code of its country, a valid phone). The
 * element is told what to ask (`collect`), what its fields start with (`prefill`) and the hint.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Backend, withSandboxAndBackend } from '../../../../support/loopback-stack.js';
import {
  CUSTOMER,
  merchant,
  Shopper,
  uniqueOrderId,
} from '../../../../support/widget-api-client.js';

const MINIMAL = { amount: '9.99', currency: 'EUR', description: 'An e-book' };
const MODES = ['auto', 'always', 'never'] as const;

describe('merchant API: a session asks the element for what its customer lacks', () => {
  let be: Backend;
  withSandboxAndBackend(({ be: started }) => {
    be = started;
  });

  const create = (body: Record<string, unknown>) =>
    merchant(be.url, 'POST', '/v1/checkout-sessions', {
      ...MINIMAL,
      orderId: uniqueOrderId('collect'),
      ...body,
    });
  /** The session as the element reads it. */
  const widgetView = async (token: string) => {
    const res = await new Shopper(be.url, token).call('GET', '/session');
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  it('a session of only amount, currency, orderId and description asks for everything', async () => {
    const res = await create({});
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const view = await widgetView(res.body.token);
    assert.deepEqual(view.collect, ['email', 'phone', 'billingAddress']);
    assert.equal(view.prefill, undefined);
    assert.equal(view.countryHint, undefined);
    const read = await merchant(be.url, 'GET', `/v1/checkout-sessions/${res.body.id}`);
    assert.deepEqual(read.body.collect, { email: 'auto', phone: 'auto', billingAddress: 'auto' });
    assert.equal(read.body.countryHint, null);
  });

  it('every collect combination with a full, an e-mail-only and no customer', async () => {
    // What each customer lacks, per group: the field a `never` group is refused on.
    const customers = [
      { customer: CUSTOMER, lacks: {} },
      {
        customer: { email: CUSTOMER.email },
        lacks: { phone: 'customer.phone', billingAddress: 'customer.country' },
      },
      {
        customer: undefined,
        lacks: {
          email: 'customer.email',
          phone: 'customer.phone',
          billingAddress: 'customer.country',
        },
      },
    ] as const;
    let checked = 0;
    for (const { customer, lacks } of customers) {
      for (const email of MODES)
        for (const phone of MODES)
          for (const billingAddress of MODES) {
            const collect = { email, phone, billingAddress };
            const res = await create({ customer, collect });
            const label = JSON.stringify({ customer, collect });
            const lacking = lacks as Partial<Record<keyof typeof collect, string>>;
            const refused = (['email', 'phone', 'billingAddress'] as const).find(
              (group) => collect[group] === 'never' && lacking[group],
            );
            if (refused) {
              assert.equal(res.status, 400, label);
              assert.equal(res.body.error.field, lacking[refused], label);
              assert.equal(
                res.body.error.message,
                `${lacking[refused]}: is required: collect.${refused} is never, so the element will not ask for it`,
              );
              continue;
            }
            assert.equal(res.status, 201, `${label}: ${JSON.stringify(res.body)}`);
            const asked = (['email', 'phone', 'billingAddress'] as const).filter(
              (group) =>
                collect[group] === 'always' || (collect[group] === 'auto' && lacking[group]),
            );
            const view = await widgetView(res.body.token);
            assert.deepEqual(view.collect, asked, label);
            checked += 1;
          }
    }
    // 27 with the full customer; 12 and 8 where no `never` meets a lacking group.
    assert.equal(checked, 27 + 12 + 8);
  });

  it('prefills what the merchant sent of the asked groups, and passes the country hint', async () => {
    const res = await create({
      customer: { email: CUSTOMER.email, country: 'DE', city: 'Berlin', phone: '030 901820' },
      collect: { email: 'always' },
      countryHint: 'AT',
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const view = await widgetView(res.body.token);
    assert.deepEqual(view.collect, ['email', 'billingAddress']);
    assert.deepEqual(view.prefill, {
      email: CUSTOMER.email,
      billingAddress: { country: 'DE', address1: '', city: 'Berlin', zipCode: '' },
    });
    assert.equal(view.countryHint, 'AT');
    const read = await merchant(be.url, 'GET', `/v1/checkout-sessions/${res.body.id}`);
    assert.deepEqual(read.body.collect, { email: 'always', phone: 'auto', billingAddress: 'auto' });
    assert.equal(read.body.countryHint, 'AT');
  });

  it("a merchant's phone is kept as E.164, read in the customer's country", async () => {
    const res = await create({
      customer: { ...CUSTOMER, phone: '020 7946 0958' },
      collect: { phone: 'always' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const view = await widgetView(res.body.token);
    assert.deepEqual(view.collect, ['phone']);
    assert.deepEqual(view.prefill, { phone: '+442079460958' });
  });

  it("a merchant's state may be its name in the US and Canada: kept as the code", async () => {
    const res = await create({
      customer: { ...CUSTOMER, country: 'US', zipCode: '10001', state: 'new york' },
      collect: { billingAddress: 'always' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    const view = await widgetView(res.body.token);
    assert.equal(view.prefill?.billingAddress?.state, 'NY');
  });

  it('a full customer asks nothing: the element shows no new field', async () => {
    const res = await create({ customer: CUSTOMER });
    assert.equal(res.status, 201);
    const view = await widgetView(res.body.token);
    assert.deepEqual(view.collect, []);
    assert.equal(view.prefill, undefined);
  });

  it('a partial customer is checked field by field: 400 naming the field, nothing created', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ customer: { email: 'not-an-address' } }, 'customer.email', 'must be an e-mail address'],
      [
        { customer: { country: 'UK' } },
        'customer.country',
        'must be an ISO 3166-1 alpha-2 code in capitals, e.g. "DE"',
      ],
      [
        { customer: { country: 'DE', zipCode: '1011' } },
        'customer.zipCode',
        'is not a postal code of DE',
      ],
      [
        { customer: { country: 'GB', zipCode: 'N1 9GU', phone: '12345' } },
        'customer.phone',
        'is not a valid phone number',
      ],
      [{ customer: { phone: '0151 12345678' } }, 'customer.phone', 'is not a valid phone number'],
      [{ customer: { state: 'Texas' } }, 'customer.state', 'must be two letters'],
      [
        { customer: { country: 'US', state: 'Narnia' } },
        'customer.state',
        'is no state or province of US (its two-letter code or its name)',
      ],
      [
        { customer: { country: 'CA', state: 'TX' } },
        'customer.state',
        'is no state or province of CA (its two-letter code or its name)',
      ],
      [{ customer: { city: 'x'.repeat(51) } }, 'customer.city', 'must be at most 50 characters'],
      [
        { customer: { address1: 'card 4000 0000 0000 0002' } },
        'customer.address1',
        'must not hold a card number',
      ],
      [
        { customer: { email: '4000000000000002@example.com' } },
        'customer.email',
        'must not hold a card number',
      ],
      [{ customer: { nickname: 'J' } }, 'customer.nickname', 'is not a field of this request'],
      [{ collect: { email: 'sometimes' } }, 'collect.email', ''],
      [{ collect: { cardholder: 'auto' } }, 'collect.cardholder', 'is not a field of this request'],
      [
        { countryHint: 'XX' },
        'countryHint',
        'must be an ISO 3166-1 alpha-2 code in capitals, e.g. "DE"',
      ],
      [
        {
          customer: { country: 'US', address1: '1 Elm St', city: 'Austin', zipCode: '73301' },
          collect: { billingAddress: 'never' },
        },
        'customer.state',
        'is required: collect.billingAddress is never, so the element will not ask for it',
      ],
      [
        {
          customer: { country: 'DE', address1: 'Torstraße 1', city: 'Berlin' },
          collect: { billingAddress: 'never' },
        },
        'customer.zipCode',
        'is required: collect.billingAddress is never, so the element will not ask for it',
      ],
    ];
    for (const [body, field, message] of cases) {
      const orderId = uniqueOrderId('refused');
      const res = await create({ ...body, orderId });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.field, field, JSON.stringify(body));
      if (message) assert.equal(res.body.error.message, `${field}: ${message}`);
      assert.equal((await merchant(be.url, 'GET', `/v1/orders/${orderId}`)).status, 404);
    }
  });

  it('a never group the customer holds whole, where its country has no postal code', async () => {
    const res = await create({
      customer: {
        email: CUSTOMER.email,
        phone: '+97142345678',
        country: 'AE',
        address1: '1 Sheikh Zayed Rd',
        city: 'Dubai',
      },
      collect: { email: 'never', phone: 'never', billingAddress: 'never' },
    });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.deepEqual((await widgetView(res.body.token)).collect, []);
  });
});
