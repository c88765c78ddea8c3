import { expect } from '@open-wc/testing';
import type { SavedCardView } from '../../../contract/api-types.js';
import {
  askedGroups,
  fieldOfShopperPath,
  type ShopperValues,
  shopperDetails,
  shopperProblem,
  shownFields,
} from '../../../widget/src/shopper/validate.js';

const values = (over: Partial<ShopperValues> = {}): ShopperValues => ({
  email: 'ada@example.com',
  phone: '+49 151 1234 5678',
  country: 'DE',
  address1: 'Hauptstraße 1',
  city: 'Berlin',
  zipCode: '10115',
  state: '',
  ...over,
});

describe('shopper fields', () => {
  it('asks the session’s groups, less what the chosen saved card knows', () => {
    const card = { knows: ['email', 'billingAddress'] } as SavedCardView;
    expect(askedGroups(['email', 'phone', 'billingAddress'], card)).to.deep.equal(['phone']);
    expect(askedGroups(['email', 'phone'], undefined)).to.deep.equal(['email', 'phone']);
    expect(askedGroups(undefined, card)).to.deep.equal([]);
  });

  it('shows the postal code where the country has one, the state where it needs one', () => {
    const all = ['email', 'phone', 'billingAddress'] as const;
    expect(shownFields([...all], 'DE')).to.deep.equal([
      'email',
      'phone',
      'country',
      'address1',
      'city',
      'zipCode',
    ]);
    expect(shownFields(['billingAddress'], 'US')).to.deep.equal([
      'country',
      'address1',
      'city',
      'zipCode',
      'state',
    ]);
    // Hong Kong has no postal codes.
    expect(shownFields(['billingAddress'], 'HK')).to.deep.equal(['country', 'address1', 'city']);
    expect(shownFields(['email'], 'US')).to.deep.equal(['email']);
  });

  it('checks each field: the postal code by its country’s format', () => {
    expect(shopperProblem('email', values({ email: '' }))).to.equal('required');
    expect(shopperProblem('email', values({ email: 'ada@example' }))).to.equal('invalid');
    expect(shopperProblem('email', values({ email: `${'a'.repeat(40)}@example.com` }))).to.equal(
      'invalid',
    );
    expect(shopperProblem('phone', values({ phone: '12' }))).to.equal('invalid');
    expect(shopperProblem('phone', values({ phone: '+1 (415) 555-0100' }))).to.equal(undefined);
    expect(shopperProblem('phone', values({ phone: '1234567890123456' }))).to.equal('invalid');
    expect(shopperProblem('country', values({ country: 'XX' }))).to.equal('invalid');
    expect(shopperProblem('zipCode', values({ zipCode: '1011' }))).to.equal('invalid');
    expect(shopperProblem('zipCode', values({ zipCode: '10115' }))).to.equal(undefined);
    expect(shopperProblem('zipCode', values({ country: 'GB', zipCode: 'sw1a 1aa' }))).to.equal(
      undefined,
    );
    expect(shopperProblem('zipCode', values({ country: 'PL', zipCode: '00950' }))).to.equal(
      'invalid',
    );
    expect(shopperProblem('state', values({ country: 'AU', state: 'NSW' }))).to.equal('invalid');
    expect(shopperProblem('state', values({ country: 'AU', state: 'ns' }))).to.equal(undefined);
    // A name in the US and Canada (autofill may write one): the backend reads it, or names the field.
    expect(shopperProblem('state', values({ country: 'US', state: 'California' }))).to.equal(
      undefined,
    );
    expect(shopperProblem('state', values({ country: 'CA', state: 'Québec' }))).to.equal(undefined);
    expect(shopperProblem('state', values({ country: 'US', state: 'x'.repeat(41) }))).to.equal(
      'invalid',
    );
    expect(shopperProblem('state', values({ country: 'US', state: 'C' }))).to.equal('invalid');
    expect(shopperProblem('state', values({ country: 'US', state: 'ca' }))).to.equal(undefined);
    expect(shopperProblem('city', values({ city: '  ' }))).to.equal('required');
  });

  it('sends each group asked whole, trimmed, codes in capitals; no postal code where none', () => {
    expect(
      shopperDetails(
        ['email', 'billingAddress'],
        values({ email: ' ada@example.com ', country: 'US', zipCode: '94103', state: 'ca' }),
      ),
    ).to.deep.equal({
      email: 'ada@example.com',
      billingAddress: {
        country: 'US',
        address1: 'Hauptstraße 1',
        city: 'Berlin',
        zipCode: '94103',
        state: 'CA',
      },
    });
    expect(
      shopperDetails(['billingAddress'], values({ country: 'HK', zipCode: 'ignored' })),
    ).to.deep.equal({
      billingAddress: { country: 'HK', address1: 'Hauptstraße 1', city: 'Berlin', zipCode: '' },
    });
    expect(shopperDetails(['phone'], values())).to.deep.equal({ phone: '+49 151 1234 5678' });
  });

  it('maps a backend’s shopper field to its input', () => {
    expect(fieldOfShopperPath('shopper.billingAddress.zipCode')).to.equal('zipCode');
    expect(fieldOfShopperPath('shopper.email')).to.equal('email');
    expect(fieldOfShopperPath('shopper.phone')).to.equal('phone');
    expect(fieldOfShopperPath('shopper.billingAddress')).to.equal('country');
    expect(fieldOfShopperPath('card.number')).to.equal(undefined);
    expect(fieldOfShopperPath('email')).to.equal(undefined);
  });
});
