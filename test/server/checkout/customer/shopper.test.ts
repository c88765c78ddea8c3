/**
 * The customer an attempt carries: the session's, the groups a saved card knows, then what the
 * shopper typed, each group whole; a group missing or not asked for is a 400 naming it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  customerForPayment,
  ShopperSchema,
} from '../../../../server/src/checkout/customer/shopper.js';
import type { HttpError } from '../../../../server/src/checkout/errors.js';

const AUTO = { email: 'auto', phone: 'auto', billingAddress: 'auto' } as const;
const ADDRESS = { country: 'DE', address1: 'Torstraße 1', city: 'Berlin', zipCode: '10119' };

/** The 400 `customerForPayment` throws: [field, message]. */
function refusal(run: () => unknown): [string | undefined, string] {
  try {
    run();
  } catch (error) {
    const e = error as HttpError;
    assert.equal(e.status, 400);
    assert.equal(e.code, 'validation');
    return [e.field, e.message];
  }
  assert.fail('no 400');
}

describe('customer/shopper', () => {
  it('completes an e-mail-only customer with what the shopper typed, the phone read in the billing country', () => {
    const session = { collect: AUTO, customer: { email: 'jan@example.de', firstName: 'Jan' } };
    const shopper = ShopperSchema.parse({
      phone: '0151 12345678',
      billingAddress: { ...ADDRESS, zipCode: ' 10119 ' },
    });
    assert.deepEqual(customerForPayment(session, shopper), {
      email: 'jan@example.de',
      firstName: 'Jan',
      phone: '+4915112345678',
      country: 'DE',
      address1: 'Torstraße 1',
      city: 'Berlin',
      zipCode: '10119',
    });
  });

  it('an always group replaces what the merchant sent, the whole address with it', () => {
    const session = {
      collect: { ...AUTO, billingAddress: 'always' },
      customer: {
        email: 'a@example.com',
        phone: '+12025550143',
        country: 'US',
        address1: '1 Elm St',
        city: 'Austin',
        zipCode: '73301',
        state: 'TX',
      },
    } as const;
    const shopper = ShopperSchema.parse({
      billingAddress: {
        country: 'GB',
        address1: '1 Main Street',
        city: 'London',
        zipCode: 'n1 9gu',
      },
    });
    assert.deepEqual(customerForPayment(session, shopper), {
      email: 'a@example.com',
      phone: '+12025550143',
      country: 'GB',
      address1: '1 Main Street',
      city: 'London',
      zipCode: 'N1 9GU',
    });
  });

  it('names a group asked and missing, and a group not asked (the merchant sent it)', () => {
    const session = { collect: AUTO, customer: { email: 'jan@example.de' } };
    assert.deepEqual(
      refusal(() => customerForPayment(session, undefined)),
      ['shopper.phone', 'shopper.phone: is required: this checkout session asks for it'],
    );
    assert.deepEqual(
      refusal(() => customerForPayment(session, { phone: '+4915112345678' })),
      [
        'shopper.billingAddress',
        'shopper.billingAddress: is required: this checkout session asks for it',
      ],
    );
    assert.deepEqual(
      refusal(() =>
        customerForPayment(session, {
          email: 'other@example.com',
          phone: '+4915112345678',
          billingAddress: ADDRESS,
        }),
      ),
      [
        'shopper.email',
        'shopper.email: must not be sent: this checkout session does not ask for it (the merchant sent it)',
      ],
    );
  });

  it('names the address field a country needs, and a phone that is no number there', () => {
    const session = { collect: AUTO, customer: { email: 'a@example.com', phone: '+12025550143' } };
    const address = (fields: Record<string, string>) => ({
      billingAddress: ShopperSchema.shape.billingAddress.parse({ ...ADDRESS, ...fields }),
    });
    assert.deepEqual(
      refusal(() => customerForPayment(session, address({ zipCode: '' }))),
      ['shopper.billingAddress.zipCode', 'shopper.billingAddress.zipCode: is required in DE'],
    );
    assert.deepEqual(
      refusal(() => customerForPayment(session, address({ zipCode: '1011' }))),
      [
        'shopper.billingAddress.zipCode',
        'shopper.billingAddress.zipCode: is not a postal code of DE',
      ],
    );
    assert.deepEqual(
      refusal(() => customerForPayment(session, address({ country: 'US', zipCode: '94105' }))),
      ['shopper.billingAddress.state', 'shopper.billingAddress.state: is required in US'],
    );
    assert.deepEqual(
      refusal(() =>
        customerForPayment(session, address({ country: 'US', zipCode: '94105', state: 'Calif' })),
      ),
      [
        'shopper.billingAddress.state',
        'shopper.billingAddress.state: is no state or province of US (its two-letter code or its name)',
      ],
    );
    // A state as autofill may write it: kept and sent as its code.
    assert.equal(
      customerForPayment(session, address({ country: 'US', zipCode: '94105', state: 'CALIFORNIA' }))
        .state,
      'CA',
    );
    assert.equal(
      customerForPayment(session, address({ country: 'CA', zipCode: 'H2X 1Y4', state: 'Québec' }))
        .state,
      'QC',
    );
    // No postal code where the country has none.
    assert.equal(
      customerForPayment(session, address({ country: 'AE', zipCode: '' })).country,
      'AE',
    );
    const phoneSession = { collect: AUTO, customer: { email: 'a@example.com', ...ADDRESS } };
    assert.deepEqual(
      refusal(() => customerForPayment(phoneSession, { phone: '12345' })),
      ['shopper.phone', 'shopper.phone: is not a valid phone number'],
    );
  });

  it('a saved card fills the groups it knows; sending one of them is refused', () => {
    const session = { collect: AUTO, customer: {} };
    const kept = { email: 'kept@example.com', phone: '+441234567890', country: 'IE' };
    const customer = customerForPayment(
      session,
      ShopperSchema.parse({
        billingAddress: { country: 'IE', address1: '5 Quay', city: 'Dublin', zipCode: 'D02 X285' },
      }),
      kept,
    );
    assert.deepEqual(customer, {
      email: 'kept@example.com',
      phone: '+441234567890',
      country: 'IE',
      address1: '5 Quay',
      city: 'Dublin',
      zipCode: 'D02 X285',
    });
    assert.deepEqual(
      refusal(() =>
        customerForPayment(session, { email: 'new@example.com', billingAddress: ADDRESS }, kept),
      ),
      ['shopper.email', 'shopper.email: must not be sent: the saved card already gave it'],
    );
  });
});
