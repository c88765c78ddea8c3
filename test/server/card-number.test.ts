import assert from 'node:assert/strict';
import { test } from 'node:test';
import { luhnValid } from '../../contract/card/luhn.js';
import { brandNamed, brandOf, holdsCardNumber, maskPan } from '../../server/src/card-number.js';

test('brands by leading digits, as the gateway names them', () => {
  const cases: [string, string][] = [
    ['4000000000000002', 'VISA'],
    ['2200000000000004', 'MIR'],
    ['2221000000000009', 'MASTERCARD'],
    ['5555555555554444', 'MASTERCARD'],
    ['378282246310005', 'AMEX'],
    ['6011111111111117', 'DISCOVER'],
    ['6500000000000002', 'DISCOVER'],
    ['3530111333300000', 'JCB'],
    ['9000100411111111', 'UNKNOWN'],
  ];
  for (const [pan, brand] of cases) assert.equal(brandOf(pan), brand, pan);
});

test('Luhn: the check digit of real and test numbers, and nothing but digits', () => {
  for (const good of ['4000000000000002', '378282246310005', '4000000000000101', '0']) {
    assert.equal(luhnValid(good), true, good);
  }
  for (const bad of ['4000000000000003', '378282246310006', '', '4000 0000 0000 0002', 'abc']) {
    assert.equal(luhnValid(bad), false, bad);
  }
});

test('maskPan: at most first six and last four, and never fewer than six digits hidden', () => {
  const cases: [string, string][] = [
    ['4000000000000002', '400000******0002'],
    ['4000000000000000006', '400000*********0006'],
    ['378282246310005', '37828******0005'],
    ['30569309025904', '3056******5904'],
    ['4222222222222', '422******2222'],
    ['500000000009', '50******0009'],
  ];
  for (const [pan, masked] of cases) {
    assert.equal(maskPan(pan), masked, pan);
    const shown = masked.replaceAll('*', '').length;
    assert.ok(shown <= 10, pan);
    assert.ok(pan.length - shown >= 6, pan);
  }
});

test('holdsCardNumber: a Luhn-valid run of a brand and its length, however grouped; other numbers are not', () => {
  for (const text of [
    '4000000000000002',
    'card 4000 0000 0000 0002 seen',
    '4000-0000-0000-0002',
    '4000.0000.0000.0002',
    '4000/0000/0000/0002',
    'a\n4000\n0000\n0000\n0002',
    '378282246310005',
  ]) {
    assert.equal(holdsCardNumber(text), true, text);
  }
  for (const text of [
    '4000000000000001', // Luhn fails
    '400000000003', // 12 digits, Luhn fails
    'order 100234, 2026-11-25, 12.00 EUR',
    '4000,0000,0000,0002', // commas part the run
    '40000000000000000002', // 20 digits
    'https://shop.example/strict-1795647359532-x', // a Luhn-valid millisecond timestamp: no brand
    '400000000000006', // a Visa prefix and Luhn-valid, but no Visa has 15 digits
  ]) {
    assert.equal(holdsCardNumber(text), false, text);
  }
});

test("our brand for the gateway's name of it, by id or by name, in any case; none for a name we do not know", () => {
  assert.deepEqual(
    ['VISA', 'mastercard', 'AMEX', 'AMERICAN EXPRESS', 'Diners Club', 'MIR', 'UNKNOWN', 'ELO'].map(
      (name) => brandNamed(name)?.id,
    ),
    ['visa', 'mastercard', 'amex', 'amex', 'diners', 'mir', undefined, undefined],
  );
});
