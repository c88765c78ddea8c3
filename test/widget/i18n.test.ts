import { expect } from '@open-wc/testing';
import {
  checkStrings,
  en,
  fill,
  isRightToLeft,
  LANGUAGES,
  languageOf,
  loadLanguage,
  type StringKey,
  withOverrides,
} from '../../widget/src/i18n/index.js';

const KEYS = Object.keys(en) as StringKey[];

describe('languages', () => {
  it('a locale picks its language; a region falls back to it, an unknown language to none', () => {
    expect(languageOf('pt-BR')).to.equal('pt');
    expect(languageOf('AR_eg')).to.equal('ar');
    expect(languageOf('kk')).to.equal('kk');
    expect(languageOf('iw-IL')).to.equal('he');
    expect(languageOf('sw-KE')).to.equal(undefined);
    expect(languageOf('')).to.equal(undefined);
    expect(['ar', 'he-IL', 'fa'].map(isRightToLeft)).to.deep.equal([true, true, true]);
    expect(['en', 'ru', 'tr'].map(isRightToLeft)).to.deep.equal([false, false, false]);
  });

  it('every language has every string, each with the slots of its English text', async () => {
    expect(LANGUAGES).to.have.length(16);
    for (const language of LANGUAGES) {
      const strings = await loadLanguage(language);
      expect(Object.keys(strings).sort(), language).to.deep.equal([...KEYS].sort());
      for (const key of KEYS) {
        expect(strings[key], `${language} ${key}`).to.be.a('string').and.not.equal('');
      }
      // The merchant's checker: slots as in English (a plural block counts as its slot), and
      // every plural block with known forms and an `other`.
      expect(checkStrings(strings), language).to.deep.equal([]);
      if (language !== 'en') expect(strings.number, language).to.not.equal(en.number);
    }
  });

  it('the same language file is fetched once; a file that cannot be fetched gives English', async () => {
    expect(await loadLanguage('de')).to.equal(await loadLanguage('de'));
    // @ts-expect-error: a code with no file, as a stale list or a blocked fetch would give.
    expect(await loadLanguage('xx')).to.equal(en);
  });
});

describe('a merchant’s own strings', () => {
  it('are checked: unknown keys, non-text and changed slots are refused, by name', () => {
    expect(checkStrings({ pay: 'Buy now for {amount}', testMode: 'Sandbox' })).to.deep.equal([]);
    expect(
      checkStrings({
        pay: 'Buy now',
        approvedDetail: '{amount} paid with {card} at {shop}.',
        colour: 'blue',
        payPlain: 42,
      }),
    ).to.deep.equal([
      { key: 'pay', problem: 'slots', expected: '{amount}' },
      { key: 'approvedDetail', problem: 'slots', expected: '{amount} {card}' },
      { key: 'colour', problem: 'unknown-key' },
      { key: 'payPlain', problem: 'not-text' },
    ]);
  });

  it('the usable ones are laid over the language, the refused ones leave its own string', () => {
    const { strings, problems } = withOverrides(en, { pay: 'Buy now', payPlain: 'Buy' });
    expect(strings.pay).to.equal('Pay {amount}');
    expect(strings.payPlain).to.equal('Buy');
    expect(problems.map((p) => p.key)).to.deep.equal(['pay']);
    expect(fill(strings.pay, { amount: '€5.00' })).to.equal('Pay €5.00');
  });
});
