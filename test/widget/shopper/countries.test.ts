import { expect } from '@open-wc/testing';
import { COUNTRY_CODES } from '../../../contract/address.js';
import type { SessionView } from '../../../contract/api-types.js';
import { COUNTRIES, countryChoices, startCountry } from '../../../widget/src/shopper/countries.js';
import { sessionView } from '../support/fake-backend.js';

describe('countries', () => {
  it('the element’s map of codes is the contract’s 249, in order', () => {
    expect(COUNTRIES).to.deep.equal([...COUNTRY_CODES].sort());
    expect(COUNTRIES).to.have.length(249);
  });

  it('names every country in the language shown, sorted as that language sorts', () => {
    const de = countryChoices('de');
    expect(de).to.have.length(249);
    expect(new Map(de).get('DE')).to.equal('Deutschland');
    expect(new Map(de).get('US')).to.equal('Vereinigte Staaten');
    // German sorts Ä with A: Ägypten before Albanien.
    const names = de.map(([, n]) => n);
    expect(names.indexOf('Ägypten')).to.be.below(names.indexOf('Albanien'));
    const ar = new Map(countryChoices('ar'));
    expect(ar.get('EG')).to.equal('مصر');
    // A tag the browser cannot read: English names.
    expect(new Map(countryChoices('x-not a tag')).get('DE')).to.equal('Germany');
  });

  it('starts on the merchant’s country, else their hint, else the browser’s region, else none', () => {
    const info = (over: Partial<SessionView>) => sessionView(over);
    const prefilled = info({
      prefill: {
        billingAddress: { country: 'FR', address1: '', city: '', zipCode: '' },
      },
      countryHint: 'DE',
    });
    expect(startCountry(prefilled, ['en-US'])).to.equal('FR');
    expect(startCountry(info({ countryHint: 'DE' }), ['en-US'])).to.equal('DE');
    expect(startCountry(info({}), ['en', 'de-AT', 'fr-CH'])).to.equal('AT');
    // es-419 names a region that is no country.
    expect(startCountry(info({}), ['es-419', 'es'])).to.equal('');
    expect(startCountry(info({ countryHint: 'ZZ' }), [])).to.equal('');
    // What WebKitGTK reports under LANG=C: no tag at all.
    expect(startCountry(info({}), ['c', 'en-GB'])).to.equal('GB');
  });
});
