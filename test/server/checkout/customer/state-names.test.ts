/**
 * A state or province read from its code or its name (server/src/checkout/customer/state-names.ts):
 * what a shopper's autofill may write into the element's state field.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { stateCode } from '../../../../server/src/checkout/customer/state-names.js';

describe('customer/state-names', () => {
  it('reads a US state or a Canadian province by its code or its name, accents, case and punctuation aside', () => {
    const cases: [string, string, string][] = [
      ['US', 'CA', 'CA'],
      ['US', 'ca', 'CA'],
      ['US', ' California ', 'CA'],
      ['US', 'NEW YORK', 'NY'],
      ['US', 'District of Columbia', 'DC'],
      ['US', 'Washington, D.C.', 'DC'],
      ['US', 'Washington', 'WA'],
      ['US', 'Puerto Rico', 'PR'],
      ['US', 'Armed Forces Europe', 'AE'],
      ['CA', 'Quebec', 'QC'],
      ['CA', 'Québec', 'QC'],
      ['CA', 'Île-du-Prince-Édouard', 'PE'],
      ['CA', 'ile du prince edouard', 'PE'],
      ['CA', 'Prince Edward Island', 'PE'],
      ['CA', 'Newfoundland', 'NL'],
      ['CA', 'Nouvelle-Écosse', 'NS'],
      ['CA', 'bc', 'BC'],
    ];
    for (const [country, typed, code] of cases)
      assert.equal(stateCode(country, typed), code, `${country} ${typed}`);
  });

  it('refuses what is no state of the country: a code of the other, a name cut short, a stranger', () => {
    const cases: [string, string][] = [
      ['US', 'QC'],
      ['CA', 'TX'],
      ['US', 'Calif'],
      ['US', 'Narnia'],
      ['US', 'ZZ'],
      ['CA', 'Texas'],
    ];
    for (const [country, typed] of cases)
      assert.equal(stateCode(country, typed), undefined, `${country} ${typed}`);
  });

  it('elsewhere takes two letters as they are, in capitals, and no name', () => {
    assert.equal(stateCode('AU', 'ns'), 'NS');
    assert.equal(stateCode('AU', 'NSW'), undefined);
    assert.equal(stateCode('AU', 'New South Wales'), undefined);
    assert.equal(stateCode(undefined, 'tx'), 'TX');
    assert.equal(stateCode(undefined, 'Texas'), undefined);
  });
});
