import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  isSensitiveFieldName,
  maskCardNumbers,
  sanitizeFields,
} from '../../../server/src/store/index.js';

describe('sanitize', () => {
  test('keeps an order id the API took, even with a Luhn-valid run inside; masks a card-like one', () => {
    // 1732844000122 passes Luhn (a millisecond timestamp would, one time in ten): no card brand's
    // number, so the API took `ord-1732844000122`, and a reversal needs it whole.
    const kept = sanitizeFields({
      orderRowId: 'r1',
      orderId: 'ord-1732844000122',
      nested: { client_orderid: 'ord-1732844000122-2' },
      note: 'ord-1732844000122',
    });
    assert.deepEqual(kept, {
      orderRowId: 'r1',
      orderId: 'ord-1732844000122',
      nested: { client_orderid: 'ord-1732844000122-2' },
      // Free text is masked as before: the exemption is for the id's own field only.
      note: 'ord-173******0122',
    });
    // A card number where an order id goes is masked all the same.
    assert.deepEqual(sanitizeFields({ orderId: '4111111111111111' }), {
      orderId: '411111******1111',
    });
  });

  test('drops card data and secrets by name, in any spelling', () => {
    for (const name of [
      'credit_card_number',
      'credit-card-number',
      'CreditCardNumber',
      'cvv2',
      'CVV2',
      'expire_month',
      'expire_year',
      'card_printed_name',
      'destination-card-no',
      'control',
      'oauth_signature',
      'merchant_control_key',
      'apiKey',
      'client_secret',
      'password',
      // Names the logger's and the gateway client's own lists used to miss.
      'jwt_secret',
      'merchant_api_key',
      'private_key',
      'privateKeyPem',
      'merchant_control',
      'ssn',
      'destination_card_number',
      'card_pan',
      // The gateway's status answer names the expiry so; it once landed in gateway_history.
      'card-exp-month',
      'card-exp-year',
      'cardExpMonth',
      'dest_expire_year',
      'card_expiry',
      'expiryDate',
    ]) {
      assert.equal(isSensitiveFieldName(name), true, name);
    }
    for (const name of [
      'client_orderid',
      'amount',
      'orderid',
      'last-four-digits',
      'bin',
      'status',
      'japan',
      'timespan',
      'expires_at',
      'expiresInMinutes',
    ]) {
      assert.equal(isSensitiveFieldName(name), false, name);
    }
  });

  test('masks Luhn-valid card numbers inside values, leaves other digit runs', () => {
    assert.equal(maskCardNumbers('card 4111111111111111 ok'), 'card 411111******1111 ok');
    assert.equal(maskCardNumbers('5555555555554444'), '555555******4444');
    // 12 to 15 digits show fewer leading digits: six stay hidden.
    assert.equal(maskCardNumbers('pan 500000000009.'), 'pan 50******0009.');
    assert.equal(maskCardNumbers('378282246310005'), '37828******0005');
    // Not Luhn-valid, or too short, or part of a longer run: unchanged.
    assert.equal(maskCardNumbers('4111111111111112'), '4111111111111112');
    assert.equal(maskCardNumbers('123456789012'), '123456789012');
    assert.equal(maskCardNumbers('50000000009'), '50000000009');
    assert.equal(maskCardNumbers('41111111111111110000000'), '41111111111111110000000');
  });

  test('leaves a UUID whole, even one holding a Luhn-valid run of dashed digits', () => {
    // 1234-5678-9012-8 reads as 1234567890128, which passes Luhn.
    const id = 'aaaa1234-5678-9012-8bcd-0123456789ab';
    assert.equal(maskCardNumbers('1234-5678-9012-8'), '123******0128');
    assert.equal(maskCardNumbers(`order ${id}`), `order ${id}`);
    assert.equal(maskCardNumbers(id.toUpperCase()), id.toUpperCase());
    assert.equal(maskCardNumbers(`${id}:4111111111111111`), `${id}:411111******1111`);
  });

  test('masks a card number glued to letters or split by spaces or dashes', () => {
    assert.equal(maskCardNumbers('card_4000000000000002'), 'card_400000******0002');
    assert.equal(maskCardNumbers('x4000000000000002y'), 'x400000******0002y');
    assert.equal(maskCardNumbers('pan 4111 1111 1111 1111.'), 'pan 411111******1111.');
    assert.equal(maskCardNumbers('4111-1111-1111-1111'), '411111******1111');
  });

  test('sanitizeFields recurses through objects and arrays and returns a copy', () => {
    const input = {
      a: 1,
      b: [{ cvv2: '123', keep: '4111111111111111' }],
      c: { password: 'p', d: null, e: undefined },
      when: new Date('2030-01-02T03:04:05.000Z'),
    };
    assert.deepEqual(sanitizeFields(input), {
      a: 1,
      b: [{ keep: '411111******1111' }],
      c: { d: null },
      when: '2030-01-02T03:04:05.000Z',
    });
    assert.equal(input.b[0]?.cvv2, '123');
  });

  test("keeps a customer's E.164 phone whole, and masks a phone-named value anywhere else", () => {
    // 13 digits passing Luhn: a card number to the scrubber, a German mobile number here.
    assert.deepEqual(
      sanitizeFields({
        customer: { phone: '+4915112345678', address1: '4111111111111111' },
        metadata: { phone: '+4915112345678' },
      }),
      {
        customer: { phone: '+4915112345678', address1: '411111******1111' },
        metadata: { phone: '+491******5678' },
      },
    );
    // Not E.164 (a card number with no `+`): masked even as a customer's phone.
    assert.deepEqual(sanitizeFields({ customer: { phone: '4111111111111111' } }), {
      customer: { phone: '411111******1111' },
    });
  });
});
