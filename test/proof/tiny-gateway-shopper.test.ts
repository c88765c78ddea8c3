/**
 * A checkout that needs only an amount, against a gateway written here from the spec's words and
 * the family's field limits alone, not the sandbox (issue 35). The session knows nothing of the
 * shopper; the shopper types an e-mail, a phone and a billing address; the sale the tiny gateway
 * receives carries exactly that, in the family's fields and limits (notes/gateway-facts.md 1.3:
 * `address1` 50, `city` 50, `zip_code` 10, `country` 2, `phone` 15 "full international phone
 * number", `email` 50), under the spec's sale control (endpointId, client_orderid, amount in
 * cents, email, then the control key). A bad field reaches it not at all.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { devMerchantAt } from '../support/loopback-stack.js';
import {
  sha1,
  startTinyGateway,
  type TinyGateway,
  type TinyHandler,
} from '../support/tiny-gateway.js';
import {
  type Backend,
  createSession,
  merchant,
  type Sandbox,
  Shopper,
  startBackend,
  startSandbox,
} from './support/proof.js';

const cents = (amount: string) => String(Math.round(Number(amount) * 100));

/** The family's required customer fields of a sale and their greatest lengths. */
const LIMITS: Record<string, number> = {
  address1: 50,
  city: 50,
  zip_code: 10,
  country: 2,
  phone: 15,
  email: 50,
};

function tinyRules(merchant: { endpointId: string; login: string; key: string }) {
  /** Every sale as received, by client_orderid. */
  const sales = new Map<string, Record<string, string>>();
  let next = 9100;
  const handle: TinyHandler = (op, data, reply) => {
    const id = data.client_orderid ?? '';
    if (op === 'sale') {
      const { endpointId, key } = merchant;
      if (data.control !== sha1(`${endpointId}${id}${cents(data.amount ?? '')}${data.email}${key}`))
        return reply.refuse('sale control');
      for (const [field, max] of Object.entries(LIMITS)) {
        const value = data[field] ?? '';
        if (value === '' || value.length > max) return reply.refuse(`sale ${field}`);
      }
      sales.set(id, data);
      return reply.answer({
        type: 'async-response',
        status: 'processing',
        'paynet-order-id': String(next++),
        'merchant-order-id': id,
        'serial-number': `sn-${next++}`,
      });
    }
    if (op === 'status') {
      const sale = sales.get(id);
      const { login, key } = merchant;
      if (!sale || data.control !== sha1(`${login}${id}${data.orderid ?? ''}${key}`))
        return reply.refuse('status control');
      return reply.answer({
        type: 'status-response',
        status: 'approved',
        amount: sale.amount ?? '',
        currency: sale.currency ?? '',
        'paynet-order-id': data.orderid ?? '',
        'merchant-order-id': id,
        'serial-number': `sn-${next++}`,
      });
    }
    return reply.refuse(`no operation ${op}`);
  };
  return { handle, sales };
}

describe('a session of only an amount, paid against a gateway written from the spec', () => {
  let sb: Sandbox;
  let be: Backend;
  let rules: ReturnType<typeof tinyRules>;
  let tiny: TinyGateway;
  before(async () => {
    sb = await startSandbox();
    const dev = sb.sandbox.devCredentials;
    assert.ok(dev);
    rules = tinyRules({ endpointId: dev.endpointId, login: dev.login, key: dev.controlKey });
    tiny = await startTinyGateway(rules.handle);
    be = await startBackend(sb, { config: { gateway: devMerchantAt(sb, tiny.url) } });
  });
  after(async () => {
    assert.deepEqual(tiny.refused, [], 'every sale the backend sent was whole and signed');
    await be.close();
    await tiny.close();
    await sb.close();
  });

  it('the sale carries exactly what the shopper typed; a bad field is never sent', async () => {
    const session = await createSession(be.url, {
      customer: undefined,
      returnUrl: undefined,
      amount: '4.99',
      description: 'A song',
    });
    const shopper = new Shopper(be.url, session.token);
    const view = (await shopper.call('GET', '/session')).body;
    assert.deepEqual(view.collect, ['email', 'phone', 'billingAddress']);
    const typed = {
      email: 'maria.garcia@example.es',
      phone: '612 34 56 78',
      billingAddress: {
        country: 'ES',
        address1: 'Calle Mayor 10',
        city: 'Madrid',
        zipCode: '28013',
      },
    };
    const body = shopper.payBody({ pan: '4000000000000002' });
    const bad = await shopper.call('POST', '/pay', {
      ...body,
      shopper: { ...typed, billingAddress: { ...typed.billingAddress, zipCode: '2801' } },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.field, 'shopper.billingAddress.zipCode');
    assert.equal(rules.sales.size, 0);

    const res = await shopper.call('POST', '/pay', { ...body, shopper: typed });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const final = await shopper.complete({ pan: '' }, res.body);
    assert.equal(final.order.status, 'approved');
    const sale = rules.sales.get(session.orderId);
    assert.deepEqual(
      {
        email: sale?.email,
        phone: sale?.phone,
        country: sale?.country,
        address1: sale?.address1,
        city: sale?.city,
        zip_code: sale?.zip_code,
        state: sale?.state,
        first_name: sale?.first_name,
      },
      {
        email: 'maria.garcia@example.es',
        phone: '+34612345678',
        country: 'ES',
        address1: 'Calle Mayor 10',
        city: 'Madrid',
        zip_code: '28013',
        state: undefined,
        first_name: undefined,
      },
    );
    const order = await merchant(be.url, 'GET', `/v1/orders/${session.orderId}`);
    assert.deepEqual(order.body.customer, {
      email: 'maria.garcia@example.es',
      phone: '+34612345678',
      country: 'ES',
      address1: 'Calle Mayor 10',
      city: 'Madrid',
      zipCode: '28013',
    });
  });
});
