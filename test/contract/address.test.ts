import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  COUNTRY_CODES,
  codesOf,
  isCountryCode,
  NO_POSTAL_CODE,
  POSTAL_CODE_FORMATS,
  postalCodeFits,
  STATE_COUNTRIES,
} from '../../contract/address.js';

describe('contract/address', () => {
  it('lists the 249 ISO 3166-1 codes once each, in order', () => {
    assert.equal(COUNTRY_CODES.length, 249);
    assert.deepEqual([...COUNTRY_CODES].sort(), COUNTRY_CODES);
    assert.equal(new Set(COUNTRY_CODES).size, 249);
    assert.ok(isCountryCode('DE') && isCountryCode('ZW'));
    for (const notIso of ['UK', 'EU', 'XK', 'de', 'D', ''])
      assert.equal(isCountryCode(notIso), false, notIso);
  });

  it('holds the countries without postal codes as its bitmap says', () => {
    assert.deepEqual(
      NO_POSTAL_CODE,
      (
        'AE AG AO AW BF BI BJ BO BS BW BZ CD CF CG CI CK CM DJ DM ER FJ GA GD GH GM GQ GY HK KI KM KN ' +
        'KP LY ML MO MR MW NR NU QA RW SB SC SL SR ST SY TD TF TG TK TL TO TV UG VU YE ZW'
      ).split(' '),
    );
    assert.deepEqual(codesOf('AQ=='), ['AA']);
  });

  it('names only real countries in its other tables', () => {
    for (const code of [
      ...NO_POSTAL_CODE,
      ...Object.keys(POSTAL_CODE_FORMATS),
      ...STATE_COUNTRIES,
    ]) {
      assert.ok(isCountryCode(code), code);
    }
    for (const code of NO_POSTAL_CODE) assert.equal(POSTAL_CODE_FORMATS[code], undefined, code);
  });

  it('takes the common formats and refuses what is not one', () => {
    const fits: [string, string][] = [
      ['US', '94105'],
      ['US', '94105-1234'],
      ['CA', 'K1A 0B1'],
      ['CA', 'k1a0b1'],
      ['GB', 'SW1A 1AA'],
      ['GB', 'M1 1AE'],
      ['DE', '10115'],
      ['NL', '1012 AB'],
      ['PL', '00-950'],
      ['PT', '1000-001'],
      ['IE', 'D02 X285'],
      ['JP', '100-0001'],
      ['BR', '01310-100'],
      ['FR', '75008'],
      ['LT', 'LT-01100'],
      ['ZZ', 'ABC 123'],
      ['AE', '12345'],
    ];
    for (const [country, zip] of fits) assert.ok(postalCodeFits(country, zip), `${country} ${zip}`);
    const refused: [string, string][] = [
      ['US', '9410'],
      ['US', '94105-12'],
      ['CA', 'D1A 0B1'],
      ['GB', '12345'],
      ['DE', '1011'],
      ['NL', '1012'],
      ['PL', '00950x'],
      ['RU', '12345'],
      ['FR', '7500'],
      ['XX', ''],
      ['XX', '12345678901'],
      ['XX', '-1'],
    ];
    for (const [country, zip] of refused)
      assert.equal(postalCodeFits(country, zip), false, `${country} ${zip}`);
  });
});
