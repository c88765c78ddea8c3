/** What the gateway needs of each group, and from it what the element asks and prefills. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  collectGroups,
  knownGroups,
  missingFields,
  neededFields,
  prefillOf,
} from '../../../../server/src/checkout/customer/groups.js';

const AUTO = { email: 'auto', phone: 'auto', billingAddress: 'auto' } as const;
const FULL = {
  email: 'john.smith@example.com',
  phone: '+441234567890',
  country: 'GB',
  address1: '1 Main Street',
  city: 'London',
  zipCode: 'N1 9GU',
};

describe('customer/groups', () => {
  it('an address needs a postal code unless its country has none, and a state where it needs one', () => {
    assert.deepEqual(neededFields('billingAddress', { country: 'DE' }), [
      'country',
      'address1',
      'city',
      'zipCode',
    ]);
    assert.deepEqual(neededFields('billingAddress', { country: 'AE' }), [
      'country',
      'address1',
      'city',
    ]);
    assert.deepEqual(neededFields('billingAddress', { country: 'US' }), [
      'country',
      'address1',
      'city',
      'zipCode',
      'state',
    ]);
    assert.deepEqual(neededFields('email', {}), ['email']);
    assert.deepEqual(missingFields('billingAddress', { country: 'CA', city: 'Toronto' }), [
      'address1',
      'zipCode',
      'state',
    ]);
    assert.deepEqual(missingFields('phone', { phone: '' }), ['phone']);
  });

  it('auto asks what the customer lacks, always asks, never never asks', () => {
    assert.deepEqual(collectGroups(AUTO, FULL), []);
    assert.deepEqual(collectGroups(AUTO, {}), ['email', 'phone', 'billingAddress']);
    assert.deepEqual(collectGroups(AUTO, { email: FULL.email }), ['phone', 'billingAddress']);
    assert.deepEqual(collectGroups({ ...AUTO, email: 'always' }, FULL), ['email']);
    assert.deepEqual(collectGroups({ ...AUTO, phone: 'never' }, { email: FULL.email }), [
      'billingAddress',
    ]);
    assert.deepEqual(
      collectGroups({ email: 'always', phone: 'always', billingAddress: 'always' }, {}),
      ['email', 'phone', 'billingAddress'],
    );
  });

  it('prefills what the merchant sent of the asked groups only, an address with its gaps empty', () => {
    const customer = { email: FULL.email, country: 'DE', city: 'Berlin', firstName: 'Jan' };
    assert.deepEqual(prefillOf(['email', 'phone', 'billingAddress'], customer), {
      email: FULL.email,
      billingAddress: { country: 'DE', address1: '', city: 'Berlin', zipCode: '' },
    });
    assert.deepEqual(prefillOf(['phone'], customer), {});
    assert.deepEqual(
      prefillOf(['billingAddress'], { ...FULL, country: 'US', state: 'CA', zipCode: '94105' }),
      {
        billingAddress: {
          country: 'US',
          address1: '1 Main Street',
          city: 'London',
          zipCode: '94105',
          state: 'CA',
        },
      },
    );
  });

  it("a saved card knows the asked groups its order's customer holds whole", () => {
    const asked = ['email', 'phone', 'billingAddress'] as const;
    assert.deepEqual(knownGroups(asked, FULL), ['email', 'phone', 'billingAddress']);
    assert.deepEqual(knownGroups(asked, { email: FULL.email, country: 'GB' }), ['email']);
    assert.deepEqual(knownGroups(['phone'], FULL), ['phone']);
    assert.deepEqual(knownGroups(asked, null), []);
  });
});
