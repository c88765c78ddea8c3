import { expect } from '@open-wc/testing';
import { fill } from '../../../widget/src/i18n/fill.js';
import { en, type LanguageCode, loadLanguage } from '../../../widget/src/i18n/index.js';

/** Right-to-left text isolates each value: U+2068 FSI … U+2069 PDI. */
const iso = (value: string | number) => `\u2068${value}\u2069`;

/** `cvc.invalid` of `language` for each count, as the element shows it. */
async function counted(language: LanguageCode, counts: number[]): Promise<string[]> {
  const text = (await loadLanguage(language))['cvc.invalid'];
  return counts.map((n) => fill(text, { n }, language));
}

describe('plural forms, by the language’s own rules (Intl.PluralRules)', () => {
  const COUNTS = [0, 1, 2, 5, 21];

  it('Russian: one for 1 and 21, the genitive plural for 0, 2 and 5', async () => {
    expect(await counted('ru', COUNTS)).to.deep.equal([
      'Код безопасности состоит из 0 цифр.',
      'Код безопасности состоит из 1 цифры.',
      'Код безопасности состоит из 2 цифр.',
      'Код безопасности состоит из 5 цифр.',
      'Код безопасности состоит из 21 цифры.',
    ]);
  });

  it('Polish: the accusative singular for 1, few for 2 (and 22), many for 0, 5 and 21', async () => {
    expect(await counted('pl', [...COUNTS, 22])).to.deep.equal([
      'Kod bezpieczeństwa ma 0 cyfr.',
      'Kod bezpieczeństwa ma 1 cyfrę.',
      'Kod bezpieczeństwa ma 2 cyfry.',
      'Kod bezpieczeństwa ma 5 cyfr.',
      'Kod bezpieczeństwa ma 21 cyfr.',
      'Kod bezpieczeństwa ma 22 cyfry.',
    ]);
  });

  it('Czech: one for 1, few for 2 to 4, the genitive plural for 0, 5 and 21', async () => {
    expect(await counted('cs', COUNTS)).to.deep.equal([
      'Bezpečnostní kód má 0 číslic.',
      'Bezpečnostní kód má 1 číslici.',
      'Bezpečnostní kód má 2 číslice.',
      'Bezpečnostní kód má 5 číslic.',
      'Bezpečnostní kód má 21 číslic.',
    ]);
  });

  it('Arabic: six forms; one and two say the count in the noun, the numbers isolated', async () => {
    expect(await counted('ar', [...COUNTS, 100])).to.deep.equal([
      `يتكوّن رمز الأمان من ${iso(0)} رقم.`,
      'يتكوّن رمز الأمان من رقم واحد.',
      'يتكوّن رمز الأمان من رقمين.',
      `يتكوّن رمز الأمان من ${iso(5)} أرقام.`,
      `يتكوّن رمز الأمان من ${iso(21)} رقمًا.`,
      `يتكوّن رمز الأمان من ${iso(100)} رقم.`,
    ]);
  });

  it('English, Hebrew, Romanian: their own forms too', async () => {
    expect(COUNTS.map((n) => fill(en['cvc.invalid'], { n }))).to.deep.equal([
      'The security code has 0 digits.',
      'The security code has 1 digit.',
      'The security code has 2 digits.',
      'The security code has 5 digits.',
      'The security code has 21 digits.',
    ]);
    expect(await counted('he', [1, 2, 3])).to.deep.equal([
      'קוד האבטחה מורכב מספרה אחת.',
      'קוד האבטחה מורכב משתי ספרות.',
      `קוד האבטחה מורכב מ־${iso(3)} ספרות.`,
    ]);
    expect(await counted('ro', [1, 3, 21])).to.deep.equal([
      'Codul de securitate are 1 cifră.',
      'Codul de securitate are 3 cifre.',
      'Codul de securitate are 21 de cifre.',
    ]);
  });

  it('an exact =N form wins over the category; a missing form falls back to other', () => {
    const text = 'Left: {n, plural, =0 {none} one {# try} other {# tries}}; {n} in all.';
    expect(fill(text, { n: 0 })).to.equal('Left: none; 0 in all.');
    expect(fill(text, { n: 1 })).to.equal('Left: 1 try; 1 in all.');
    expect(fill(text, { n: 3 })).to.equal('Left: 3 tries; 3 in all.');
    // Russian's few for 3, which this English-only text does not have.
    expect(fill(text, { n: 3 }, 'ru')).to.equal('Left: 3 tries; 3 in all.');
    // A tag Intl cannot read: other.
    expect(fill(text, { n: 1 }, 'not a tag')).to.equal('Left: 1 tries; 1 in all.');
  });

  it('a slot with no value stays as written; values are not isolated in left-to-right text', () => {
    expect(fill('{amount} paid with {card}.', { amount: '€10.42' })).to.equal(
      '€10.42 paid with {card}.',
    );
    expect(fill('{amount} paid.', { amount: '€10.42' }, 'de')).to.equal('€10.42 paid.');
    expect(fill('{amount} paid.', { amount: '€10.42' }, 'he-IL')).to.equal(
      `${iso('€10.42')} paid.`,
    );
  });
});
