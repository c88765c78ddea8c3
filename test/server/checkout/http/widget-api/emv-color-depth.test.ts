/**
 * emvColorDepth: whatever a screen reports as its colour depth becomes an EMV browserColorDepth,
 * and a pay request carries it so to the gateway.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emvColorDepth } from '../../../../../server/src/checkout/http/widget-api/emv-color-depth.js';
import { BrowserInfoSchema } from '../../../../../server/src/checkout/http/widget-api/schemas.js';
import { BROWSER } from '../../../../support/fixtures.js';

describe('emvColorDepth', () => {
  const depths: [number, number][] = [
    [1, 1],
    [2, 1],
    [4, 4],
    [8, 8],
    [12, 8],
    [15, 15],
    [16, 16],
    [24, 24],
    [30, 24],
    [32, 32],
    [36, 32],
    [48, 48],
    [64, 48],
    [0, 24],
    [-8, 24],
    [Number.NaN, 24],
    [Number.POSITIVE_INFINITY, 24],
  ];
  for (const [depth, out] of depths)
    it(`${depth} -> ${out}`, () => assert.equal(emvColorDepth(depth), out));

  it('a BrowserInfo takes any number and holds the EMV value; not a number is refused', () => {
    assert.equal(BrowserInfoSchema.parse({ ...BROWSER, colorDepth: 30 }).colorDepth, 24);
    assert.equal(BrowserInfoSchema.parse({ ...BROWSER, colorDepth: 10.5 }).colorDepth, 8);
    assert.equal(BrowserInfoSchema.safeParse({ ...BROWSER, colorDepth: '30' }).success, false);
  });
});
