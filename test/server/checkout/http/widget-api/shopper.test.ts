/**
 * The shopper's contact and address on the widget API (issue 35): `POST /widget/pay` and `POST
 * /widget/hosted` take `shopper`, checked by the rules of a merchant's customer. Each bad field,
 * a group asked for and missing, and a group not asked for is a 400 naming it, and then nothing
 * reached the gateway and the session is still open. What the shopper typed is what the sale
 * (preauth, hosted form) carries, field by field on the wire, and what the merchant API's order
 * and the `order.approved` event show; a log line shows it masked.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { FetchLike } from '../../../../../server/src/gateway/transport.js';
import { type Backend, withSandboxAndBackend } from '../../../../support/loopback-stack.js';
import {
  testCard as card,
  createSession,
  merchant,
  Shopper,
} from '../../../../support/widget-api-client.js';

const EMAIL = 'jan.kowalski@example.de';
const TYPED = {
  phone: '0151 12345678',
  billingAddress: { country: 'DE', address1: 'Torstraße 1', city: 'Berlin', zipCode: '10119' },
};
const CUSTOMER_FIELDS = [
  'email',
  'phone',
  'country',
  'address1',
  'city',
  'zip_code',
  'state',
  'first_name',
  'last_name',
];

describe('widget API: the shopper types what the session lacks', () => {
  /** Every form the backend posted to the gateway: its path and fields, as sent. */
  const sent: { url: string; fields: Record<string, string> }[] = [];
  const gatewayFetch: FetchLike = (url, init) => {
    sent.push({
      url,
      fields: Object.fromEntries(new URLSearchParams(new TextDecoder().decode(init.body))),
    });
    return fetch(url, init);
  };
  let be: Backend;
  withSandboxAndBackend(
    ({ be: started }) => {
      be = started;
    },
    { gatewayFetch },
  );

  /** The customer fields of what was sent for `clientOrderId` to `operation` (one request). */
  const wire = (clientOrderId: string, operation: string) => {
    const requests = sent.filter(
      (r) => r.url.includes(`/${operation}/`) && r.fields.client_orderid === clientOrderId,
    );
    assert.equal(requests.length, 1, `${operation} requests for ${clientOrderId}`);
    const fields = requests[0]?.fields ?? {};
    return Object.fromEntries(
      CUSTOMER_FIELDS.filter((f) => f in fields).map((f) => [f, fields[f]]),
    );
  };
  const emailOnly = (overrides: Record<string, unknown> = {}) =>
    createSession(be.url, { customer: { email: EMAIL }, ...overrides });

  it('each bad field is a 400 naming it: nothing sent to the gateway, the session still open', async () => {
    const session = await emailOnly();
    const shopper = new Shopper(be.url, session.token);
    const base = shopper.payBody(card('approved'));
    const address = (fields: Record<string, unknown>) => ({
      ...TYPED,
      billingAddress: { ...TYPED.billingAddress, ...fields },
    });
    const cases: [unknown, string, string][] = [
      [undefined, 'shopper.phone', 'is required: this checkout session asks for it'],
      [
        { phone: TYPED.phone },
        'shopper.billingAddress',
        'is required: this checkout session asks for it',
      ],
      [
        { ...TYPED, email: 'other@example.com' },
        'shopper.email',
        'must not be sent: this checkout session does not ask for it (the merchant sent it)',
      ],
      [{ ...TYPED, email: 'nope' }, 'shopper.email', 'must be an e-mail address'],
      [{ ...TYPED, phone: '12345' }, 'shopper.phone', 'is not a valid phone number'],
      [{ ...TYPED, phone: '' }, 'shopper.phone', 'is required'],
      [
        address({ country: 'UK' }),
        'shopper.billingAddress.country',
        'must be an ISO 3166-1 alpha-2 code in capitals, e.g. "DE"',
      ],
      [address({ address1: ' ' }), 'shopper.billingAddress.address1', 'is required'],
      [
        address({ city: 'B'.repeat(51) }),
        'shopper.billingAddress.city',
        'must be at most 50 characters',
      ],
      [
        address({ zipCode: '1011' }),
        'shopper.billingAddress.zipCode',
        'is not a postal code of DE',
      ],
      [address({ zipCode: '' }), 'shopper.billingAddress.zipCode', 'is required in DE'],
      [
        address({ country: 'US', zipCode: '94105' }),
        'shopper.billingAddress.state',
        'is required in US',
      ],
      [address({ state: 'Bayern' }), 'shopper.billingAddress.state', 'must be two letters'],
      [
        address({ country: 'US', zipCode: '94105', state: 'Narnia' }),
        'shopper.billingAddress.state',
        'is no state or province of US (its two-letter code or its name)',
      ],
      [
        address({ address1: 'pan 4000000000000002' }),
        'shopper.billingAddress.address1',
        'must not hold a card number',
      ],
      [
        address({ line2: 'Hinterhaus' }),
        'shopper.billingAddress.line2',
        'is not a field of this request',
      ],
      [{ ...TYPED, fax: '1' }, 'shopper.fax', 'is not a field of this request'],
    ];
    for (const [typed, field, message] of cases) {
      const res = await shopper.call('POST', '/pay', { ...base, shopper: typed });
      assert.equal(res.status, 400, `${field}: ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body.error, {
        code: 'validation',
        message: `${field}: ${message}`,
        field,
        requestId: res.body.error.requestId,
      });
    }
    assert.equal((await shopper.call('GET', '/session')).body.state, 'open');
    const row = await be.store.orders.getByClientOrderId(session.orderId);
    assert.equal(row?.status, 'awaiting-payment');
    assert.equal(row?.customer, null);
    assert.equal((await be.store.history.forOrder(row.id)).length, 0);
    assert.equal(sent.filter((r) => r.fields.client_orderid === session.orderId).length, 0);
  });

  it('the sale carries exactly what was typed; the order, the order.approved event and the logs show it', async () => {
    const session = await emailOnly({ saveCard: 'never' });
    const shopper = new Shopper(be.url, session.token);
    const view = (await shopper.call('GET', '/session')).body;
    assert.deepEqual(view.collect, ['phone', 'billingAddress']);
    const first = await shopper.call('POST', '/pay', {
      ...shopper.payBody(card('approved')),
      shopper: TYPED,
    });
    assert.equal(first.status, 200, JSON.stringify(first.body));
    const final = await shopper.complete(card('approved'), first.body);
    assert.equal(final.order.status, 'approved');

    assert.deepEqual(wire(session.orderId, 'sale'), {
      email: EMAIL,
      phone: '+4915112345678',
      country: 'DE',
      address1: 'Torstraße 1',
      city: 'Berlin',
      zip_code: '10119',
    });
    const customer = {
      email: EMAIL,
      phone: '+4915112345678',
      country: 'DE',
      address1: 'Torstraße 1',
      city: 'Berlin',
      zipCode: '10119',
    };
    const order = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
    assert.deepEqual(order.body.customer, customer);
    const events = await merchant(
      be.url,
      'GET',
      `/v1/events?type=order.approved&orderId=${session.orderId}`,
    );
    assert.equal(events.body.events.length, 1);
    assert.deepEqual(events.body.events[0].data.order.customer, customer);

    const row = await be.store.orders.getByClientOrderId(session.orderId);
    const mine = be.logs
      .map((text) => JSON.parse(text))
      .find((l) => l.msg === 'payment attempt sent' && l.orderId === row?.id);
    assert.deepEqual(mine?.customer, {
      email: 'j***@example.de',
      phone: '+491******5678',
      country: 'DE',
      address1: 'T***',
      city: 'B***',
      zipCode: '1***',
    });
    const logText = be.logs.join('');
    for (const secret of ['15112345678', 'Torstraße', 'jan.kowalski', '10119'])
      assert.ok(!logText.includes(secret), secret);
  });

  it('the preauth carries it too, and the next attempt takes what the shopper types then', async () => {
    const session = await emailOnly({ intent: 'preauth' });
    const shopper = new Shopper(be.url, session.token);
    const declined = await shopper.complete(
      card('insufficient-funds'),
      (
        await shopper.call('POST', '/pay', {
          ...shopper.payBody(card('insufficient-funds')),
          shopper: TYPED,
        })
      ).body,
    );
    assert.equal(declined.order.status, 'declined');
    assert.equal(wire(session.orderId, 'preauth').zip_code, '10119');
    const second = await shopper.call('POST', '/pay', {
      ...shopper.payBody(card('approved')),
      shopper: {
        phone: '+1 202 555 0143',
        billingAddress: {
          country: 'US',
          address1: '1 Elm St',
          city: 'Austin',
          zipCode: '73301',
          state: 'TX',
        },
      },
    });
    assert.equal(second.status, 200, JSON.stringify(second.body));
    const final = await shopper.complete(card('approved'), second.body);
    assert.equal(final.order.attempt, 2);
    assert.deepEqual(wire(final.order.attemptId, 'preauth'), {
      email: EMAIL,
      phone: '+12025550143',
      country: 'US',
      address1: '1 Elm St',
      city: 'Austin',
      zip_code: '73301',
      state: 'TX',
    });
  });

  it('the hosted form takes the shopper too: its sale-form carries it; a bad field sends nothing', async () => {
    const session = await createSession(be.url, { customer: undefined, modes: ['hosted'] });
    const shopper = new Shopper(be.url, session.token);
    const typed = {
      email: 'ana@example.pt',
      phone: '+351 912 345 678',
      billingAddress: {
        country: 'PT',
        address1: 'Rua Augusta 1',
        city: 'Lisboa',
        zipCode: '1100-053',
      },
    };
    const bad = await shopper.call('POST', '/hosted', { shopper: { ...typed, email: 'ana' } });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.field, 'shopper.email');
    const none = await shopper.call('POST', '/hosted', {});
    assert.equal(none.status, 400);
    assert.equal(none.body.error.field, 'shopper.email');
    assert.equal(sent.filter((r) => r.fields.client_orderid === session.orderId).length, 0);
    assert.equal((await shopper.call('GET', '/session')).body.state, 'open');

    const res = await shopper.call('POST', '/hosted', { shopper: typed });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.action, 'redirect');
    assert.deepEqual(wire(session.orderId, 'sale-form'), {
      email: 'ana@example.pt',
      phone: '+351912345678',
      country: 'PT',
      address1: 'Rua Augusta 1',
      city: 'Lisboa',
      zip_code: '1100-053',
    });
  });
});
