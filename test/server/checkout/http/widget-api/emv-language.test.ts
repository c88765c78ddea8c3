/** emvLanguage: whatever a browser reports as its language becomes an EMV browserLanguage. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { emvLanguage } from '../../../../../server/src/checkout/http/widget-api/emv-language.js';

describe('emvLanguage', () => {
  const langs: [string | undefined, string][] = [
    ['en', 'en'],
    ['en-US', 'en-US'],
    ['ru-RU', 'ru-RU'],
    ['zh-Hant-TW', 'zh-TW'],
    ['sr-Latn-RS', 'sr-RS'],
    ['es-419', 'es-419'],
    ['de-DE-1996', 'de-DE'],
    ['', 'en'],
    [undefined, 'en'],
    // Odd but real values (in-app WebViews, POSIX locales): normalised, never refused.
    ['en_US', 'en-US'],
    ['zh-Hant-TW-x-private', 'zh-TW'],
    ['EN-gb', 'en-gb'],
    ['en-US-x-twain', 'en-US'],
    ['C', 'en'],
    ['*', 'en'],
    ['en--US', 'en-US'],
    ['en-US!', 'en'],
    ['  fr  ', 'fr'],
  ];
  for (const [tag, out] of langs)
    it(`${JSON.stringify(tag)} -> "${out}"`, () => assert.equal(emvLanguage(tag), out));

  it('never gives more than 8 characters', () => {
    for (const tag of ['zh-Hant-TW', 'de-DE-1996', 'sr-Latn-RS', 'abc-defghijk', 'tlh-Latn-x-q'])
      assert.ok(emvLanguage(tag).length <= 8, tag);
  });
});
