import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brandOf, luhnValid } from '../../server/src/card-number.js';

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
