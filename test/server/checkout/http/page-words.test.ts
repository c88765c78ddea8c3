import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LANGUAGES } from '../../../../contract/languages.js';
import { renderLaunchPage } from '../../../../server/src/checkout/http/launcher/page.js';
import { en } from '../../../../server/src/checkout/http/page-words/en.js';
import { pageLanguage } from '../../../../server/src/checkout/http/page-words/index.js';
import { renderReturnPage } from '../../../../server/src/checkout/http/return-page/page.js';

const slots = (text: string) => (text.match(/\{\w+\}/g) ?? []).sort().join(' ');

describe('the backend pages’ language', () => {
  it('is the first of the browser’s languages the element speaks, by preference, else English', () => {
    assert.equal(pageLanguage('de-CH,de;q=0.9,en;q=0.8').lang, 'de');
    assert.equal(pageLanguage('sw-KE, fr;q=0.5, en;q=0.4').lang, 'fr');
    assert.equal(pageLanguage('en;q=0.5, uk;q=0.9').lang, 'uk');
    assert.equal(pageLanguage('ru;q=0, tr').lang, 'tr');
    assert.equal(pageLanguage('sw').lang, 'en');
    assert.equal(pageLanguage(undefined).lang, 'en');
    assert.equal(pageLanguage('*').lang, 'en');
    assert.deepEqual(
      ['ar-SA', 'he', 'kk'].map((h) => pageLanguage(h).dir),
      ['rtl', 'rtl', 'ltr'],
    );
  });

  it('every language says every sentence', () => {
    for (const header of LANGUAGES.filter((l) => l !== 'en')) {
      const { lang, words } = pageLanguage(header);
      assert.equal(lang, header);
      assert.deepEqual(Object.keys(words), Object.keys(en), header);
      for (const [key, text] of Object.entries(words)) {
        assert.ok(text && text !== en[key as keyof typeof en], `${header} ${key}`);
        assert.equal(slots(text), '', `${header} ${key}`);
      }
    }
  });

  it('the return and launcher pages carry the language, its direction and its words', () => {
    const language = pageLanguage('ar');
    const back = renderReturnPage({
      message: { source: 'pay-checkout', type: 'final', orderId: 'o-1' },
      origin: null,
      returnUrl: null,
      language,
      text: 'finishedReturn',
    });
    assert.match(back, /<html lang="ar" dir="rtl">/);
    assert.ok(back.includes(`<title>${language.words.pageTitle}</title>`));
    assert.ok(back.includes(`<p>${language.words.finishedReturn}</p>`));
    const pl = pageLanguage('pl');
    const launch = renderLaunchPage({
      key: 'k',
      pageUrl: 'https://gate.example/3ds',
      returnUrl: null,
      language: pl,
    });
    assert.match(launch, /<html lang="pl" dir="ltr">/);
    assert.ok(launch.includes(`title="${pl.words.bankTitle}"`));
    // With nothing left to show: what happened, and the way back.
    const over = renderLaunchPage({ key: 'k', returnUrl: 'https://shop.example/', language: pl });
    assert.ok(
      over.includes(
        `<h1>${pl.words.bankTitle}</h1><p>${pl.words.stepOver}</p><p><a href="https://shop.example/">${pl.words.backToShop}</a></p>`,
      ),
    );
  });
});
