/**
 * The card details of a saved card as the gateway spells them: months and years folded to "01"
 * and "2030", anything else unknown; a card expires at the end of its month, and an unknown
 * expiry is not held against it. The element's view needs the expiry and the last four.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  expiryMonth,
  expiryYear,
  isExpired,
} from '../../../../server/src/checkout/saved-cards/card-details.js';
import { savedCardView } from '../../../../server/src/checkout/saved-cards/views.js';
import type { OfferedCard } from '../../../../server/src/store/index.js';

describe('saved card details', () => {
  test('months and years as the gateway may send them', () => {
    assert.deepEqual(['1', '01', '12', '0', '13', 'x', undefined].map(expiryMonth), [
      '01',
      '01',
      '12',
      null,
      null,
      null,
      null,
    ]);
    assert.deepEqual(['2030', '30', '203', '', undefined].map(expiryYear), [
      '2030',
      '2030',
      null,
      null,
      null,
    ]);
  });

  test('expired after the end of its month; unknown is not expired', () => {
    const now = new Date('2026-05-31T23:59:00Z');
    assert.equal(isExpired({ expMonth: '05', expYear: '2026' }, now), false);
    assert.equal(isExpired({ expMonth: '04', expYear: '2026' }, now), true);
    assert.equal(isExpired({ expMonth: '12', expYear: '2025' }, now), true);
    assert.equal(isExpired({ expMonth: null, expYear: '2020' }, now), false);
  });

  test("the element's view: the gateway's brand made safe, the store's last four when the gateway gives none, none without an expiry", () => {
    const offer: OfferedCard = {
      handle: 'h',
      cardRef: {
        id: 'ref',
        seq: 1,
        orderId: 'row',
        brand: 'VISA',
        last4: '0002',
        createdAt: new Date(),
        forgottenAt: null,
      },
      keptCustomer: null,
    };
    const details = {
      bin: null,
      last4: null,
      brand: 'master<card>',
      expMonth: '01',
      expYear: '2020',
      holder: null,
    };
    assert.deepEqual(savedCardView(offer, details, new Date('2026-01-01T00:00:00Z')), {
      handle: 'h',
      brand: 'MASTERCARD',
      brandId: 'mastercard',
      last4: '0002',
      expMonth: '01',
      expYear: '2020',
      holder: '',
      expired: true,
    });
    assert.equal(savedCardView(offer, { ...details, expYear: null }), undefined);
    // A name we do not know: no brand id.
    const { brandId, ...rest } = savedCardView(offer, { ...details, brand: 'ELO' })!;
    assert.equal(brandId, undefined);
    assert.equal(rest.brand, 'ELO');
  });
});
