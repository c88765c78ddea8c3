import assert from 'node:assert/strict';
import { test } from 'node:test';
import { brandOf } from '../../server/src/card-brand.js';

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
