/** What a log shows of a shopper's contact and address (personal-data.ts). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isPersonalFieldName, maskPersonal } from '../../server/src/personal-data.js';

describe('personal-data', () => {
  it('names the contact and address fields in any spelling, not the country or a card field', () => {
    for (const name of [
      'email',
      'phone',
      'cell_phone',
      'address1',
      'city',
      'zipCode',
      'zip_code',
      'first_name',
      'lastName',
    ])
      assert.ok(isPersonalFieldName(name), name);
    for (const name of ['country', 'state', 'orderId', 'holder', 'cardLast4'])
      assert.equal(isPersonalFieldName(name), false, name);
  });

  it('masks a phone as the gateway history does, an e-mail to its first letter and domain, text to its first character', () => {
    assert.equal(maskPersonal('phone', '+441234567890'), '+44******7890');
    assert.equal(maskPersonal('phone', '+3531234567'), '+******4567');
    assert.equal(maskPersonal('email', 'jan.kowalski@example.de'), 'j***@example.de');
    assert.equal(maskPersonal('email', 'not-an-address'), 'n***');
    assert.equal(maskPersonal('address1', 'Torstraße 1'), 'T***');
    assert.equal(maskPersonal('city', ''), '');
  });
});
